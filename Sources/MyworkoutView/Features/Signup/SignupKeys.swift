import MyworkoutCore

enum SignupKeys {
  static func map(_ form: SignupForm) -> KeyMap {
    FormKeys.map(
      .signup, focus: form.focus.kind, busy: form.phase.isRunning,
      options: .init(password: form.revealsPassword, escape: "back"))
  }
}
