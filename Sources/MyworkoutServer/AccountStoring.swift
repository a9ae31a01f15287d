import CSQLite
import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the server keeps accounts. SQLite here (`accounts.sqlite`); a shared PostgreSQL store
/// (postgres-nio) would be one more type behind this protocol when several servers run behind a
/// load balancer (DECISIONS.md, "Scaling out").
package protocol AccountStoring: Sendable {
  /// The account for `email` (compared normalised), or nil.
  func account(email: String) async throws -> StoredAccount?
  /// Adds the account; false when the email is taken.
  func insert(_ account: StoredAccount) async throws -> Bool
  /// Changes the mobile number; the profile after the change, or nil when there is no account.
  func updateMobile(email: String, mobile: String) async throws -> Profile?
}

/// Accounts in `accounts.sqlite` in the server's data directory, seeded with part one's account.
package actor SQLiteAccountStore: AccountStoring {
  private let database: SQLiteDatabase

  /// Opens (or creates) the store at `path`; a new store holds the seeded account, its
  /// password hashed with `hasher`.
  package init(path: String, hasher: PasswordHasher) throws {
    let database = try SQLiteDatabase(path: path)
    try database.enableWriteAheadLog()
    try database.execute(
      """
      CREATE TABLE IF NOT EXISTS accounts (
        email TEXT PRIMARY KEY NOT NULL,
        profile TEXT NOT NULL,
        password TEXT NOT NULL,
        created INTEGER NOT NULL
      )
      """)
    if try database.userVersion() == 0 {
      let seed = StoredAccount(
        profile: SeedAccount.profile, password: try hasher.hash(SeedAccount.password))
      try database.transaction(.immediate) {
        try Self.insert(seed, into: database)
        try database.setUserVersion(1)
      }
    }
    self.database = database
  }

  package func account(email: String) throws -> StoredAccount? {
    let statement = try database.statement("SELECT profile, password FROM accounts WHERE email = ?")
    let row = try statement.firstRow([.text(Email.normalized(email))]) { row in
      (row.text(0), row.text(1))
    }
    guard let row else { return nil }
    let decoder = JSONDecoder()
    return StoredAccount(
      profile: try decoder.decode(Profile.self, from: Data(row.0.utf8)),
      password: try decoder.decode(PasswordHash.self, from: Data(row.1.utf8)))
  }

  package func insert(_ account: StoredAccount) throws -> Bool {
    try database.transaction(.immediate) {
      let key = Email.normalized(account.profile.email)
      let exists = try database.scalar(
        "SELECT count(*) FROM accounts WHERE email = ?", [.text(key)])
      guard exists == .integer(0) else { return false }
      try Self.insert(account, into: database)
      return true
    }
  }

  package func updateMobile(email: String, mobile: String) throws -> Profile? {
    try database.transaction(.immediate) {
      guard var account = try account(email: email) else { return nil }
      account.profile.mobile = mobile
      let profile = String(decoding: try JSONEncoder().encode(account.profile), as: UTF8.self)
      try database.statement("UPDATE accounts SET profile = ? WHERE email = ?").run([
        .text(profile), .text(Email.normalized(email)),
      ])
      return account.profile
    }
  }

  private static func insert(_ account: StoredAccount, into database: SQLiteDatabase) throws {
    let encoder = JSONEncoder()
    try database.statement(
      "INSERT INTO accounts (email, profile, password, created) VALUES (?, ?, ?, ?)"
    ).run([
      .text(Email.normalized(account.profile.email)),
      .text(String(decoding: try encoder.encode(account.profile), as: UTF8.self)),
      .text(String(decoding: try encoder.encode(account.password), as: UTF8.self)),
      .integer(Int64(Date().timeIntervalSince1970)),
    ])
  }
}
