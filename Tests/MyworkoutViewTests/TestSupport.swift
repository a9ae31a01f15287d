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
      case .player: .player(.backPressed)
      case .lessons: Self.lessons(action)
      case .images: .images(.backPressed)
      }
    _ = reduce(&self, wrapped)
  }
}

extension AppState {
  /// A form action as Lessons' key map would send it: edits go to the blank, Enter is Next.
  fileprivate static func lessons(_ action: FormAction) -> Action {
    switch action {
    case .textEdited(let edit): .lessons(.answerEdited(edit))
    case .pasted(let text): .lessons(.answerPasted(text))
    case .escapePressed: .lessons(.escapePressed)
    default: .lessons(.nextPressed)
    }
  }
}
