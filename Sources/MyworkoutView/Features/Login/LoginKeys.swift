import MyworkoutCore

enum LoginKeys {
  static func map(_ form: LoginForm) -> KeyMap {
    FormKeys.map(
      .login, focus: form.focus.kind, busy: form.phase.isRunning,
      options: .init(password: form.revealsPassword, escape: "back"))
  }
}
