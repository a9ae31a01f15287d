/// What happens on Login.
package enum LoginAction: Equatable, Sendable {
  case form(FormAction)
  case logInResponse(Result<Session, ServiceError>)
}

extension LoginAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    if case .logInResponse = self { return false }
    return true
  }
}
