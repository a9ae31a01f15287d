enum GetStartedReducer {
  static func reduce(_ form: inout GetStartedForm, _ action: Action, screen: inout Screen)
    -> [Effect]
  {
    defer { if case .getStarted = screen { screen = .getStarted(form) } }
    if case .handled = FormEditing.reduce(&form, action) { return [] }

    switch action {
    case .enterPressed:
      if FormEditing.enterMovesFocus(&form) { return [] }
      if form.phase.isRunning { return form.cancelRequest() }
      return form.submit(
        problem: form.problem, button: .next,
        request: .checkEmail(Email.normalized(form.email.text)))
    case .escapePressed:
      return form.phase.isRunning ? form.cancelRequest() : []
    case .checkEmailResponse(let result):
      guard form.phase.isRunning else { return [] }
      switch result {
      case .success(true): screen = .login(LoginForm(email: form.email.text))
      case .success(false): screen = .signup(SignupForm(email: form.email.text))
      case .failure(let error): form.phase = .failed(error.message)
      }
      return []
    default:
      return []
    }
  }
}
