/// The sign-in flow's navigation: Get started opens Login or Signup, their Cancel returns to
/// Get started with the email kept, and a session ends the flow.
enum SignedOutReducer {
  enum Delegate: Equatable, Sendable {
    case signedIn(Session)
  }

  static func reduce(_ flow: inout SignedOut, _ action: Action) -> Outcome<Delegate> {
    switch (action, flow.path.last) {
    case (.getStarted(let action), nil):
      let outcome = GetStartedReducer.reduce(&flow.getStarted, action)
      switch outcome.delegate {
      case .emailChecked(let email, registered: true)?:
        flow.path = [.login(LoginForm(email: email))]
      case .emailChecked(let email, registered: false)?:
        flow.path = [.signup(SignupForm(email: email))]
      case nil:
        break
      }
      return .effects(outcome.effects)

    case (.login(let action), .login(var form)?):
      let outcome = LoginReducer.reduce(&form, action)
      flow.path[flow.path.count - 1] = .login(form)
      switch outcome.delegate {
      case .cancelled(let email)?:
        flow.backToGetStarted(email: email)
      case .createAccount(let email)?:
        flow.path[flow.path.count - 1] = .signup(SignupForm(email: email))
      case .signedIn(let session)?:
        return Outcome(effects: outcome.effects, delegate: .signedIn(session))
      case nil:
        break
      }
      return .effects(outcome.effects)

    case (.signup(let action), .signup(var form)?):
      let outcome = SignupReducer.reduce(&form, action)
      flow.path[flow.path.count - 1] = .signup(form)
      switch outcome.delegate {
      case .cancelled(let email)?:
        flow.backToGetStarted(email: email)
      case .signedIn(let session)?:
        return Outcome(effects: outcome.effects, delegate: .signedIn(session))
      case nil:
        break
      }
      return .effects(outcome.effects)

    case (.sessionExpiredScreen(.logInAgainPressed), .sessionExpired(let screen)?),
      (.logOutPressed, .sessionExpired(let screen)?):
      flow.backToGetStarted(email: screen.email)
      return .none

    default:
      // An action for a screen that is no longer on top (a late answer, a stale key): ignored.
      return .none
    }
  }
}

extension SignedOut {
  /// Back to Get started, with the email filled in and nothing else kept.
  mutating func backToGetStarted(email: String) {
    getStarted = GetStartedForm(email: email)
    path = []
  }
}
