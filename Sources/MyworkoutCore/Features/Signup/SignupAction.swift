/// What happens on Signup.
package enum SignupAction: Equatable, Sendable {
  case form(FormAction)
  case signUpResponse(Result<Session, ServiceError>)
}

extension SignupAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    if case .signUpResponse = self { return false }
    return true
  }
}
