import MyworkoutCore

/// The contents of `session.json`. The token governs; the profile is a copy for people reading
/// the file.
struct SessionFile: Codable, Equatable {
  static let currentVersion = 1

  var version: Int
  var token: String
  var profile: Profile

  init(session: Session) {
    version = Self.currentVersion
    token = session.token
    profile = session.profile
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    guard version == Self.currentVersion else {
      throw DecodingError.dataCorruptedError(
        forKey: .version, in: container, debugDescription: "Unsupported version \(version)")
    }
    token = try container.decode(String.self, forKey: .token)
    profile = try container.decode(Profile.self, forKey: .profile)
  }
}
