@testable import MyworkoutCore

extension AppState {
  /// Applies a form action to the screen on top, as its key map would.
  mutating func apply(_ action: FormAction) {
    let wrapped: Action =
      switch screen {
      case .getStarted: .getStarted(.form(action))
      case .login: .login(.form(action))
      case .signup: .signup(.form(action))
      case .profile: .profile(.form(action))
      case .sessionExpired: .sessionExpiredScreen(.logInAgainPressed)
      case .classes: .classes(.modal(.form(action)))
      case .classPage: .classPage(.backPressed)
      case .images: .images(.backPressed)
      }
    _ = reduce(&self, wrapped)
  }
}
