import MyworkoutCore

enum SignupView {
  static func body(_ form: SignupForm, spinnerFrame: Int, metrics: Metrics) -> Body {
    var body = Body()
    body.add(TextBlock.centered("Create a new account", width: metrics.width, style: .heading))
    body.spacer()
    let fields: [(SignupForm.Focus, String)] = [
      (.email, "Email"), (.password, "Password"), (.gender, "Gender"), (.mobile, "Mobile"),
      (.firstName, "First name"), (.lastName, "Last name"),
    ]
    for (stop, label) in fields {
      let focused = form.focus == stop
      if stop == .gender {
        body.add(
          PickerView.rows(
            label: label, choice: form.gender?.title, placeholder: "choose with ←/→",
            validity: form.validity(of: stop), focused: focused, metrics: metrics),
          focused: focused)
      } else if let input = form[field: stop] {
        body.add(
          TextFieldView.rows(
            label: label, input: input, masked: stop == .password && !form.revealsPassword,
            validity: form.validity(of: stop), focused: focused, readOnly: form.phase.isRunning,
            metrics: metrics),
          focused: focused)
      }
    }
    body.addOptional(
      TextBlock.rows(
        "Mobile: Malaysian, e.g. 012-345 6789. Names are optional.",
        column: metrics.fieldColumn, width: metrics.width, style: .hint))
    body.spacer()
    body.add(
      ButtonRow.submitAndCancel(
        form.phase, rest: "Sign up", submitFocused: form.focus == .signUp,
        cancelFocused: form.focus == .cancel, disabled: form.problem != nil,
        spinnerFrame: spinnerFrame, running: "Creating your account…", metrics: metrics),
      focused: form.focus == .signUp || form.focus == .cancel)
    FormMessage.add(form.phase, to: &body, metrics: metrics)
    return body
  }
}
