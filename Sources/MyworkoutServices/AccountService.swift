import MyworkoutCore

/// The account service the app talks to. Every call is asynchronous; failures the user should
/// read are thrown as `ServiceError`; a cancelled call throws `CancellationError` and changes
/// nothing.
package protocol AccountService: Sendable {
  /// Whether an account exists for the email (compared trimmed and case-insensitively).
  func isRegistered(email: String) async throws -> Bool
  /// Checks the credentials and returns a new signed session.
  func logIn(email: String, password: String) async throws -> Session
  /// Creates the account (never storing the password itself) and returns a new signed session.
  func signUp(_ registration: Registration) async throws -> Session
  /// Changes the mobile number of the account the token belongs to; returns a new session whose
  /// claims carry the new number. Throws `ServiceError.sessionExpired` for a bad token.
  func updateMobile(token: String, mobile: String) async throws -> Session
}
