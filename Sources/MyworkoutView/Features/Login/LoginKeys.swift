import MyworkoutCore

enum LoginKeys {
  static func map(_ form: LoginForm) -> KeyMap {
    FormKeys.map(
      focus: form.focus.kind, busy: form.phase.isRunning,
      options: .init(password: form.revealsPassword, escape: "back")
    ) { .login(.form($0)) }
  }
}
