/// What happens on Get started.
package enum GetStartedAction: Equatable, Sendable {
  case form(FormAction)
  case checkEmailResponse(Result<Bool, ServiceError>)
}

extension GetStartedAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    if case .checkEmailResponse = self { return false }
    return true
  }
}
