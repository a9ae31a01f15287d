import MyworkoutCore

enum LoginView {
  static func body(_ form: LoginForm, spinnerFrame: Int, metrics: Metrics) -> Body {
    var body = Body()
    body.add(TextBlock.centered("Welcome back", width: metrics.width, style: .heading))
    body.spacer()
    body.add(
      TextFieldView.rows(
        label: "Email", input: form.email, masked: false, validity: form.validity(of: .email),
        focused: form.focus == .email, metrics: metrics),
      focused: form.focus == .email)
    body.add(
      TextFieldView.rows(
        label: "Password", input: form.password, masked: !form.revealsPassword,
        validity: form.validity(of: .password), focused: form.focus == .password,
        metrics: metrics),
      focused: form.focus == .password)
    body.spacer()
    let running = form.phase.isRunning
    body.add(
      ButtonRow.rows(
        [
          Button(
            title: form.phase.buttonTitle(rest: "Log in"), focused: form.focus == .logIn,
            disabled: form.problem != nil),
          Button(title: "Cancel", focused: form.focus == .cancel, disabled: running),
        ],
        spinner: running ? (spinnerFrame, "Logging in…") : nil, metrics: metrics),
      focused: form.focus == .logIn || form.focus == .cancel)
    FormMessage.add(form.phase, to: &body, metrics: metrics)
    body.spacer()
    body.add(
      ButtonRow.rows(
        [
          Button(
            title: "Create a new account", focused: form.focus == .createAccount,
            disabled: running)
        ], spinner: nil, metrics: metrics),
      focused: form.focus == .createAccount)
    return body
  }
}
