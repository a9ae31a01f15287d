import MyworkoutCore

/// One account as `accounts.json` keeps it: the profile and a slow salted hash of the password,
/// never the password itself.
package struct StoredAccount: Codable, Equatable, Sendable {
  package var profile: Profile
  package var password: PasswordHash

  package init(profile: Profile, password: PasswordHash) {
    self.profile = profile
    self.password = password
  }
}

/// The contents of `accounts.json`: every account, keyed by its normalised email.
package struct Registry: Codable, Equatable, Sendable {
  static let currentVersion = 1

  package var version: Int
  package var accounts: [StoredAccount]

  init(accounts: [StoredAccount]) {
    version = Self.currentVersion
    self.accounts = accounts
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard version == Self.currentVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container, debugDescription: "Unsupported version \(version)")
    }
    accounts = try container.decode([StoredAccount].self, forKey: .accounts)
  }

  /// The position of the account for `email` (compared trimmed and case-insensitively).
  package func index(of email: String) -> Int? {
    let key = Email.normalized(email)
    return accounts.firstIndex { Email.normalized($0.profile.email) == key }
  }

  package func account(for email: String) -> StoredAccount? {
    index(of: email).map { accounts[$0] }
  }
}
