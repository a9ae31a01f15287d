/// What happens on Get started.
package enum GetStartedAction: Equatable, Sendable {
  case form(FormAction)
  case checkEmailResponse(Result<Bool, ServiceError>)
}
