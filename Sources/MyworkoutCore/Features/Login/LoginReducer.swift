/// Login's rules: email, password, `Log in`, `Cancel`, `Create a new account`.
enum LoginReducer {
  enum Delegate: Equatable, Sendable {
    /// Cancel or Esc at rest: the parent goes back, keeping the email.
    case cancelled(email: String)
    case createAccount(email: String)
    case signedIn(Session)
  }

  static func reduce(_ form: inout LoginForm, _ action: LoginAction) -> Outcome<Delegate> {
    switch action {
    case .form(let clicked):
      guard let formAction = FormEditing.resolvingClick(&form, clicked) else { return .none }
      if case .handled = FormEditing.reduce(&form, formAction) { return .none }
      switch formAction {
      case .enterPressed:
        if FormEditing.enterMovesFocus(&form) { return .none }
        switch form.focus {
        case .cancel where !form.phase.isRunning:
          return .delegate(.cancelled(email: form.email.text))
        case .createAccount where !form.phase.isRunning:
          return .delegate(.createAccount(email: form.email.text))
        default:
          if form.phase.isRunning { return .effects(form.cancelRequest(.logIn)) }
          return .effects(
            form.submit(
              problem: form.problem, button: .logIn, id: .logIn,
              request: .logIn(
                email: Email.normalized(form.email.text), password: form.password.text)))
        }
      case .escapePressed:
        if form.phase.isRunning { return .effects(form.cancelRequest(.logIn)) }
        return .delegate(.cancelled(email: form.email.text))
      case .revealToggled:
        form.revealsPassword.toggle()
        return .none
      default:
        return .none
      }
    case .logInResponse(let result):
      return form.signedIn(result).map { .delegate(.signedIn($0)) } ?? .none
    }
  }
}
