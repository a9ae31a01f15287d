/// What happens on Login.
package enum LoginAction: Equatable, Sendable {
  case form(FormAction)
  case logInResponse(Result<Session, ServiceError>)
}
