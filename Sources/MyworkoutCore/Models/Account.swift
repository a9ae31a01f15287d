/// What the Profile screen shows about the signed-in person.
public struct Profile: Equatable, Codable, Sendable {
  public var email: String
  public var gender: Gender
  /// Normalised (E.164) Malaysian mobile number.
  public var mobile: String
  public var firstName: String
  public var lastName: String

  public init(email: String, gender: Gender, mobile: String, firstName: String, lastName: String) {
    self.email = email
    self.gender = gender
    self.mobile = mobile
    self.firstName = firstName
    self.lastName = lastName
  }

  /// First and last name joined, or nil when neither was given.
  public var fullName: String? {
    let name = [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    return name.isEmpty ? nil : name
  }
}

/// A signed-in session as the app holds it: the signed token, the profile its claims carry, and
/// the Gravatar hash of the email (SHA-256 hex of the trimmed, lowercased address), from which
/// the Profile screen draws the avatar.
public struct Session: Equatable, Sendable {
  public var token: String
  public var profile: Profile
  public var gravatarHash: String

  public init(token: String, profile: Profile, gravatarHash: String) {
    self.token = token
    self.profile = profile
    self.gravatarHash = gravatarHash
  }
}

/// What a new account is made of (everything the Signup form collects).
public struct Registration: Equatable, Sendable {
  public var email: String
  public var password: String
  public var profile: Profile

  public init(password: String, profile: Profile) {
    self.email = profile.email
    self.password = password
    self.profile = profile
  }
}

/// A failure the account service reports; its message is shown in the form's error label.
public enum ServiceError: Error, Equatable, Sendable {
  case noAccount
  case wrongCredentials
  case emailExists
  case sessionExpired
  case invalidMobile
  /// The data could not be read or written; the text says what happened.
  case storage(String)

  public var message: String {
    switch self {
    case .noAccount: Message.noAccount
    case .wrongCredentials: Message.wrongCredentials
    case .emailExists: Message.emailExists
    case .sessionExpired: Message.sessionExpired
    case .invalidMobile: Message.mobileNotValid
    case .storage(let text): text
    }
  }
}
