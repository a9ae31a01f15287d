import MyworkoutCore

enum LoginView {
  /// `heading` is nil in the `Log in to watch` modal, whose frame carries the title.
  static func body(
    _ form: LoginForm, heading: String? = "Welcome back", spinnerFrame: Int, metrics: Metrics
  ) -> Body {
    var body = Body()
    if let heading {
      body.add(TextBlock.centered(heading, width: metrics.width, style: .heading))
      body.spacer()
    }
    body.add(
      TextFieldView.rows(
        label: "Email", input: form.email, masked: false, validity: form.validity(of: .email),
        focused: form.focus == .email, readOnly: form.phase.isRunning, metrics: metrics),
      focused: form.focus == .email)
    body.add(
      TextFieldView.rows(
        label: "Password", input: form.password, masked: !form.revealsPassword,
        validity: form.validity(of: .password), focused: form.focus == .password,
        readOnly: form.phase.isRunning, metrics: metrics),
      focused: form.focus == .password)
    body.spacer()
    let running = form.phase.isRunning
    body.add(
      ButtonRow.submitAndCancel(
        form.phase, rest: "Log in", submitFocused: form.focus == .logIn,
        cancelFocused: form.focus == .cancel, disabled: form.problem != nil,
        spinnerFrame: spinnerFrame, running: "Logging in…", metrics: metrics),
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
