/// What happens on Signup.
package enum SignupAction: Equatable, Sendable {
  case form(FormAction)
  case signUpResponse(Result<Session, ServiceError>)
}
