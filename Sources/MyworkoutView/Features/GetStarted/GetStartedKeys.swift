import MyworkoutCore

enum GetStartedKeys {
  static func map(_ form: GetStartedForm) -> KeyMap {
    FormKeys.map(
      .getStarted, focus: form.focus.kind, busy: form.phase.isRunning,
      options: .init(enter: "next"))
  }
}
