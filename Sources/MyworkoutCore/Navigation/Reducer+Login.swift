enum LoginReducer {
  static func reduce(_ form: inout LoginForm, _ action: Action, screen: inout Screen) -> [Effect] {
    defer { if case .login = screen { screen = .login(form) } }
    if case .handled = FormEditing.reduce(&form, action) { return [] }

    switch action {
    case .enterPressed:
      if FormEditing.enterMovesFocus(&form) { return [] }
      switch form.focus {
      case .cancel where !form.phase.isRunning:
        screen = .getStarted(GetStartedForm(email: form.email.text))
        return []
      case .createAccount where !form.phase.isRunning:
        screen = .signup(SignupForm(email: form.email.text))
        return []
      default:
        if form.phase.isRunning { return form.cancelRequest() }
        return form.submit(
          problem: form.problem, button: .logIn,
          request: .logIn(email: Email.normalized(form.email.text), password: form.password.text))
      }
    case .escapePressed:
      return form.escape(keeping: form.email, screen: &screen)
    case .revealToggled:
      form.revealsPassword.toggle()
      return []
    case .logInResponse(let result):
      return form.signedIn(result, screen: &screen)
    default:
      return []
    }
  }
}
