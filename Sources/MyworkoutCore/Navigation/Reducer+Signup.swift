enum SignupReducer {
  static func reduce(_ form: inout SignupForm, _ action: Action, screen: inout Screen) -> [Effect] {
    defer { if case .signup = screen { screen = .signup(form) } }
    if case .handled = FormEditing.reduce(&form, action) { return [] }

    switch action {
    case .enterPressed:
      if FormEditing.enterMovesFocus(&form) { return [] }
      if form.focus == .cancel, !form.phase.isRunning {
        screen = .getStarted(GetStartedForm(email: form.email.text))
        return []
      }
      if form.phase.isRunning { return form.cancelRequest() }
      return form.submit(
        problem: form.problem, button: .signUp, request: .signUp(form.registration))
    case .escapePressed:
      return form.escape(keeping: form.email, screen: &screen)
    case .pickerStepped(let direction):
      guard form.focus == .gender, !form.phase.isRunning else { return [] }
      form.gender = step(form.gender, direction)
      form.clearMessage()
      return []
    case .revealToggled:
      form.revealsPassword.toggle()
      return []
    case .signUpResponse(let result):
      return form.signedIn(result, screen: &screen)
    default:
      return []
    }
  }

  /// The picker starts with no choice; forward from none is the first option, back the last.
  static func step(_ gender: Gender?, _ direction: FocusDirection) -> Gender {
    let all = Gender.allCases
    guard let gender, let index = all.firstIndex(of: gender) else {
      return direction == .forward ? all[0] : all[all.count - 1]
    }
    switch direction {
    case .forward: return all[(index + 1) % all.count]
    case .backward: return all[(index + all.count - 1) % all.count]
    }
  }
}
