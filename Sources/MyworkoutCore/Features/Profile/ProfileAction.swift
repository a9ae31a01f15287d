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
