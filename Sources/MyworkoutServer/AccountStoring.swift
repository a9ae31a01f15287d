import CSQLite
import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the server keeps accounts: `SQLiteAccountStore` (one server) and
/// `PostgresAccountStore` (several servers behind a load balancer). Every account has a stable
/// id in Auth0's form (`auth0|` and 24 hex digits): the `sub` of its tokens, under which its
/// progress and lesson events are filed.
package protocol AccountStoring: Sendable {
  /// The account for `email` (compared normalised), or nil.
  func account(email: String) async throws -> StoredAccount?
  /// The account whose id is `id`, or nil.
  func account(id: String) async throws -> StoredAccount?
  /// Adds the account (which has its id); false when the email is taken.
  func insert(_ account: StoredAccount) async throws -> Bool
  /// Changes the mobile number of account `id`; the profile after the change, or nil when
  /// there is no such account.
  func updateMobile(id: String, mobile: String) async throws -> Profile?
}

/// Accounts in `accounts.sqlite` in the server's data directory, seeded with part one's account.
///
/// Version 2 gives every account an id. A version 1 file (from before ids) gets them on the
/// first start, in one transaction: the seeded account the fixed `AccountID.seed`, every other
/// a new random one.
package actor SQLiteAccountStore: AccountStoring {
  private let database: SQLiteDatabase

  static let version = 2

  /// Opens (or creates) the store at `path`; a new store holds the seeded account, its
  /// password hashed with `hasher`. A file of a newer version is refused, unchanged.
  package init(path: String, hasher: PasswordHasher) throws {
    let database = try SQLiteDatabase(path: path)
    try database.enableWriteAheadLog()
    try database.execute(
      """
      CREATE TABLE IF NOT EXISTS accounts (
        email TEXT PRIMARY KEY NOT NULL,
        profile TEXT NOT NULL,
        password TEXT NOT NULL,
        created INTEGER NOT NULL,
        id TEXT
      )
      """)
    try database.transaction(.immediate) {
      switch try database.userVersion() {
      case 0:
        let seed = StoredAccount(
          id: AccountID.seed, profile: SeedAccount.profile,
          password: try hasher.hash(SeedAccount.password))
        try Self.insert(seed, into: database)
      case 1:
        try Self.giveIDs(in: database)
      case Self.version:
        break
      case let newer:
        throw StoreError(
          failed: "\(path) is version \(newer), newer than this server's \(Self.version); "
            + "refusing to start (nothing was changed). Run a newer myworkout-server.")
      }
      try database.execute("CREATE UNIQUE INDEX IF NOT EXISTS accounts_id ON accounts (id)")
      try database.setUserVersion(Self.version)
    }
    self.database = database
  }

  /// Every account's id by normalised email, read from the store at `path` (opened before, so
  /// every account has its id): what a progress file from before ids files each email's rows
  /// under. Read only when such a file is opened, not at every start.
  package static func idsByEmail(path: String) throws -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: try SQLiteDatabase(path: path)
        .statement("SELECT email, id FROM accounts").rows([]) { ($0.text(0), $0.text(1)) })
  }

  /// Version 1 to 2: the `id` column (a version 1 table lacks it) and an id for every account.
  private static func giveIDs(in database: SQLiteDatabase) throws {
    try database.execute("ALTER TABLE accounts ADD COLUMN id TEXT")
    let emails = try database.statement("SELECT email FROM accounts").rows([]) { $0.text(0) }
    let give = try database.statement("UPDATE accounts SET id = ? WHERE email = ?")
    for email in emails {
      let id = email == SeedAccount.profile.email ? AccountID.seed : AccountID.random()
      try give.run([.text(id), .text(email)])
    }
  }

  /// Rows stored before emails were put in NFC keep their key (`Email.storedBeforeNFC`, the
  /// address as typed then), so a key that is not found is looked up in that form too: every
  /// account is found with the spelling that found it before. Keys are not rewritten to NFC at
  /// start: that needs a schema version (an older server then refuses the file) and a rule for
  /// two old accounts whose keys become one; such rows are rare (a decomposed address typed at
  /// sign-up) and each stays findable as it was.
  ///
  /// The app sends an address already in NFC whatever was typed, so a row kept in another
  /// spelling is also found by its NFC form: only for an address that is not ASCII (nothing
  /// else has another spelling), by reading the keys that are not ASCII either.
  package func account(email: String) throws -> StoredAccount? {
    let key = Email.normalized(email)
    if let found = try account(where: "email = ?", .text(key)) { return found }
    let before = Email.storedBeforeNFC(email)
    // Bytes, not `==`: Swift's String equality is canonical, so the two spellings are equal.
    if !before.utf8.elementsEqual(key.utf8),
      let found = try account(where: "email = ?", .text(before))
    {
      return found
    }
    guard !Email.isASCII(key) else { return nil }
    let keys = try database.statement("SELECT email FROM accounts WHERE email GLOB '*[^ -~]*'")
      .rows([]) { $0.text(0) }
    guard let stored = keys.first(where: { Email.normalized($0).utf8.elementsEqual(key.utf8) })
    else { return nil }
    return try account(where: "email = ?", .text(stored))
  }

  package func account(id: String) throws -> StoredAccount? {
    try account(where: "id = ?", .text(id))
  }

  private func account(where condition: String, _ value: SQLiteValue) throws -> StoredAccount? {
    let statement = try database.statement(
      "SELECT id, profile, password FROM accounts WHERE \(condition)")
    let row = try statement.firstRow([value]) { row in (row.text(0), row.text(1), row.text(2)) }
    guard let row else { return nil }
    let decoder = JSONDecoder()
    return StoredAccount(
      id: row.0, profile: try decoder.decode(Profile.self, from: Data(row.1.utf8)),
      password: try decoder.decode(PasswordHash.self, from: Data(row.2.utf8)))
  }

  package func insert(_ account: StoredAccount) throws -> Bool {
    try database.transaction(.immediate) {
      // A row stored before NFC under the spelling typed now is the same account.
      guard try self.account(email: account.profile.email) == nil else { return false }
      try Self.insert(account, into: database)
      return true
    }
  }

  package func updateMobile(id: String, mobile: String) throws -> Profile? {
    try database.transaction(.immediate) {
      guard var account = try account(id: id) else { return nil }
      account.profile.mobile = mobile
      let profile = String(decoding: try JSONEncoder().encode(account.profile), as: UTF8.self)
      try database.statement("UPDATE accounts SET profile = ? WHERE id = ?").run([
        .text(profile), .text(id),
      ])
      return account.profile
    }
  }

  private static func insert(_ account: StoredAccount, into database: SQLiteDatabase) throws {
    guard let id = account.id, !id.isEmpty else {
      throw StoreError(failed: "an account cannot be stored without its id")
    }
    let encoder = JSONEncoder()
    try database.statement(
      "INSERT INTO accounts (email, profile, password, created, id) VALUES (?, ?, ?, ?, ?)"
    ).run([
      .text(Email.normalized(account.profile.email)),
      .text(String(decoding: try encoder.encode(account.profile), as: UTF8.self)),
      .text(String(decoding: try encoder.encode(account.password), as: UTF8.self)),
      .integer(Int64(Date().timeIntervalSince1970)),
      .text(id),
    ])
  }
}
