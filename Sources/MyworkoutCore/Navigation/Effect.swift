/// Work the reducer asks for, as plain data. The effect runner carries it out and answers with an
/// `Action`. At most one request runs at a time, so `cancelRequest` needs no identifier.
public enum Effect: Equatable, Sendable {
  /// Ask whether an email is registered; answers `checkEmailResponse`.
  case checkEmail(String)
  /// Answers `logInResponse`.
  case logIn(email: String, password: String)
  /// Answers `signUpResponse`.
  case signUp(Registration)
  /// Answers `editNumberResponse`.
  case updateMobile(token: String, mobile: String)
  /// Cancel the running request; its answer never arrives.
  case cancelRequest
  /// Keep the session for the next launch (only ever after a request succeeded).
  case saveSession(Session)
  /// Forget the session (log out, or a stale session found).
  case deleteSession
  /// Restore the terminal and exit with this status.
  case quit(status: Int32)
}
