import Logging
import MyworkoutCore
import MyworkoutServices
import PostgresNIO

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Accounts in the `accounts` table: the same JSON profile and salted slow hash as SQLite's,
/// and the account's id (migration 4).
package struct PostgresAccountStore: AccountStoring {
  let database: PostgresDatabase

  static func columns(_ account: StoredAccount) throws -> (
    id: String, email: String, profile: String, password: String
  ) {
    guard let id = account.id, !id.isEmpty else {
      throw StoreError(failed: "an account cannot be stored without its id")
    }
    let encoder = JSONEncoder()
    return (
      id, Email.normalized(account.profile.email),
      String(decoding: try encoder.encode(account.profile), as: UTF8.self),
      String(decoding: try encoder.encode(account.password), as: UTF8.self)
    )
  }

  static func account(id: String, profile: String, password: String) throws -> StoredAccount {
    let decoder = JSONDecoder()
    return StoredAccount(
      id: id, profile: try decoder.decode(Profile.self, from: Data(profile.utf8)),
      password: try decoder.decode(PasswordHash.self, from: Data(password.utf8)))
  }

  /// As SQLite's (`SQLiteAccountStore.account(email:)`): the NFC key first, then the key a
  /// row stored before NFC has for the spelling typed.
  /// And, for an address that is not ASCII, a row kept in another spelling of its NFC form
  /// (the keys that are not ASCII read and compared here: the app sends NFC).
  package func account(email: String) async throws -> StoredAccount? {
    let key = Email.normalized(email)
    let before = Email.storedBeforeNFC(email)
    return try await database.call("read the account") { client in
      for try await (id, profile, password) in try await client.query(
        """
        SELECT id, profile, password FROM accounts WHERE email IN (\(key), \(before))
        ORDER BY email = \(key) DESC LIMIT 1
        """
      ).decode((String, String, String).self) {
        return try Self.account(id: id, profile: profile, password: password)
      }
      guard !Email.isASCII(key) else { return nil }
      for try await (id, stored, profile, password) in try await client.query(
        "SELECT id, email, profile, password FROM accounts WHERE email ~ '[^ -~]'"
      ).decode((String, String, String, String).self)
      where Email.normalized(stored).utf8.elementsEqual(key.utf8) {
        return try Self.account(id: id, profile: profile, password: password)
      }
      return nil
    }
  }

  package func account(id: String) async throws -> StoredAccount? {
    try await database.call("read the account") { client in
      for try await (id, profile, password) in try await client.query(
        "SELECT id, profile, password FROM accounts WHERE id = \(id)"
      ).decode((String, String, String).self) {
        return try Self.account(id: id, profile: profile, password: password)
      }
      return nil
    }
  }

  package func insert(_ account: StoredAccount) async throws -> Bool {
    // A row kept in another spelling of the address (two sign-ups in both spellings at once
    // may still both pass this look; the insert below guards the spelling typed).
    if !Email.isASCII(Email.normalized(account.profile.email)),
      try await self.account(email: account.profile.email) != nil
    {
      return false
    }
    let (id, email, profile, password) = try Self.columns(account)
    // A row stored before NFC under the spelling typed now is the same account.
    let before = Email.storedBeforeNFC(account.profile.email)
    let now = Int64(Date().timeIntervalSince1970)
    return try await database.call("save the account") { client in
      let rows = try await client.query(
        """
        INSERT INTO accounts (id, email, profile, password, created)
        SELECT \(id), \(email), \(profile), \(password), \(now)
        WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE email = \(before))
        ON CONFLICT DO NOTHING RETURNING 1
        """
      ).collect()
      return !rows.isEmpty
    }
  }

  package func updateMobile(id: String, mobile: String) async throws -> Profile? {
    try await database.transaction("save the mobile number") { connection in
      var found: StoredAccount?
      for try await (id, profile, password) in try await connection.query(
        "SELECT id, profile, password FROM accounts WHERE id = \(id) FOR UPDATE",
        logger: database.logger
      ).decode((String, String, String).self) {
        found = try Self.account(id: id, profile: profile, password: password)
      }
      guard var account = found else { return nil }
      account.profile.mobile = mobile
      let profile = try Self.columns(account).profile
      try await connection.query(
        "UPDATE accounts SET profile = \(profile) WHERE id = \(id)", logger: database.logger)
      return account.profile
    }
  }
}
