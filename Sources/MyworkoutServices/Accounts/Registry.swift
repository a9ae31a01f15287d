import MyworkoutCore

/// One account as `accounts.json` keeps it: its stable id, the profile and a slow salted hash of
/// the password, never the password itself.
package struct StoredAccount: Codable, Equatable, Sendable {
  /// The account's id (`auth0|` and 24 hex digits, as Auth0 names database users): progress and
  /// lesson events are filed under it. Every stored account has one (the embedded registry's
  /// and the server's); nil only while a registry from before ids is read.
  package var id: String?
  package var profile: Profile
  package var password: PasswordHash

  package init(id: String? = nil, profile: Profile, password: PasswordHash) {
    self.id = id
    self.profile = profile
    self.password = password
  }
}

extension StoredAccount {
  /// The profile and id of an account of the embedded registry (which gives every account an
  /// id when it is read; an account without one is a damaged registry).
  func registered() throws -> (profile: Profile, id: String) {
    guard let id, !id.isEmpty else {
      throw FileError(message: "accounts.json has an account without an id", isDamage: true)
    }
    return (profile, id)
  }
}

/// Account ids of the embedded registry.
package enum AccountID {
  /// The seeded account's id, the same in every registry, so that `--reset` or a registry
  /// started afresh finds its progress again.
  package static let seed = "auth0|5eed00000000000000000001"

  /// What every id starts with (Auth0's name for its database connection's users).
  package static let prefix = "auth0|"

  /// A new random id.
  package static func random() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return prefix + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
  }

  /// The id an account without one gets: the seed's for the seeded email, else a new one.
  static func assigned(to profile: Profile) -> String {
    Email.normalized(profile.email) == SeedAccount.profile.email ? seed : random()
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}

/// The contents of `accounts.json`: every account, keyed by its normalised email.
///
/// Version 2 gives every account an id. A version 1 file (accounts without ids) is read with
/// ids assigned and its old version kept, so that `AccountsStore` writes it back as version 2
/// (under its lock) before anyone uses the ids.
package struct Registry: Codable, Equatable, Sendable {
  static let currentVersion = 2

  package var version: Int
  package var accounts: [StoredAccount]

  enum CodingKeys: String, CodingKey {
    case version, accounts
  }

  init(accounts: [StoredAccount]) {
    version = Self.currentVersion
    self.accounts = accounts
  }

  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard (1...Self.currentVersion).contains(version) else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container, debugDescription: "Unsupported version \(version)")
    }
    accounts = try container.decode([StoredAccount].self, forKey: .accounts)
    for index in accounts.indices where accounts[index].id?.isEmpty ?? true {
      guard version < Self.currentVersion else {
        throw DecodingError.dataCorruptedError(
          forKey: .accounts, in: container, debugDescription: "An account has no id")
      }
      accounts[index].id = AccountID.assigned(to: accounts[index].profile)
    }
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    // Whatever was read, what is written is the current version (every account has an id).
    try container.encode(Self.currentVersion, forKey: .version)
    try container.encode(accounts, forKey: .accounts)
  }

  /// Whether this was read from an older version and must be written back before use.
  var needsUpgrade: Bool { version < Self.currentVersion }

  /// Every account's id by its normalised email.
  package var idsByEmail: [String: String] {
    Dictionary(
      accounts.compactMap { account in
        account.id.map { (Email.normalized(account.profile.email), $0) }
      },
      uniquingKeysWith: { first, _ in first })
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
