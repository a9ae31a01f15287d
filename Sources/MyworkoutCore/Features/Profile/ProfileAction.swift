/// What happens on Profile and its Edit-number dialog.
package enum ProfileAction: Equatable, Sendable {
  /// Keys on the buttons, or in the dialog when it is open.
  case form(FormAction)
  case editNumberPressed
  /// `c` or `[ Classes ]`.
  case classesPressed
  /// `n` or `[ Lessons ]`.
  case lessonsPressed
  /// `i` or `[ Images ]`.
  case imagesPressed
  case editNumberResponse(Result<Session, ServiceError>)
}

extension ProfileAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    if case .editNumberResponse = self { return false }
    return true
  }
}
