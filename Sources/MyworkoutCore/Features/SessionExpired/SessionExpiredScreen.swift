/// The expiry message (`Your session has expired. Please log in again.`) under the `Profile`
/// heading, with `Log in again`. Shown when a session expires on any signed-in screen, or when
/// the saved session is found expired, tampered with or unreadable at launch.
package struct SessionExpiredScreen: Equatable, Sendable {
  /// The email of the session that expired, prefilled on Get started after `Log in again`.
  package var email: String

  package init(email: String = "") {
    self.email = email
  }
}

/// What happens on the expiry message.
package enum SessionExpiredAction: Equatable, Sendable {
  /// Enter or Space on `Log in again`.
  case logInAgainPressed
}
