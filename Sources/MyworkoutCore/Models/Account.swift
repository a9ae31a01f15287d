/// What the Profile screen shows about the signed-in person.
package struct Profile: Equatable, Codable, Sendable {
  package var email: String
  package var gender: Gender
  /// Normalised (E.164) Malaysian mobile number.
  package var mobile: String
  package var firstName: String
  package var lastName: String

  package init(email: String, gender: Gender, mobile: String, firstName: String, lastName: String) {
    self.email = email
    self.gender = gender
    self.mobile = mobile
    self.firstName = firstName
    self.lastName = lastName
  }

  /// First and last name joined, or nil when neither was given.
  package var fullName: String? {
    let name = [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
    return name.isEmpty ? nil : name
  }
}

/// A signed-in session as the app holds it: the signed token, the account's stable id (its
/// token's `sub`: what progress and lesson events are filed under, never the email, which can
/// change hands), the profile its claims carry, and the Gravatar hash of the email (SHA-256 hex
/// of the trimmed, lowercased address), from which the Profile screen draws the avatar.
package struct Session: Equatable, Sendable {
  package var token: String
  package var accountID: String
  package var profile: Profile
  package var gravatarHash: String

  package init(token: String, accountID: String, profile: Profile, gravatarHash: String) {
    self.token = token
    self.accountID = accountID
    self.profile = profile
    self.gravatarHash = gravatarHash
  }
}

/// What a new account is made of (everything the Signup form collects).
package struct Registration: Equatable, Sendable {
  package var email: String
  package var password: String
  package var profile: Profile

  package init(password: String, profile: Profile) {
    self.email = profile.email
    self.password = password
    self.profile = profile
  }
}
