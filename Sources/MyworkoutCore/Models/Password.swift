/// The strength rule that applies when an account is created (never at login).
package enum Password {
  package static let minimumLength = 8

  /// At least 8 characters, one of which is neither a letter, a digit nor white space.
  package static func isStrong(_ password: String) -> Bool {
    password.count >= minimumLength
      && password.contains { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }
  }
}
