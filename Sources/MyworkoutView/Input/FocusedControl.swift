public import MyworkoutCore

extension AppState {
  /// What kind of control has the focus, which decides what a key does there.
  public var focusedControl: ControlKind {
    switch screen {
    case .getStarted(let form): form.focus.kind
    case .login(let form): form.focus.kind
    case .signup(let form): form.focus.kind
    case .profile(let profile): profile.dialog?.focus.kind ?? .button
    }
  }

  /// Whether single letters are commands (Profile without its dialog has no text field).
  var lettersAreCommands: Bool {
    if case .profile(let profile) = screen, profile.dialog == nil { return true }
    return false
  }
}
