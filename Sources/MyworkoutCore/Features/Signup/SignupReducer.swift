/// Signup's rules: the account's fields, the gender picker, `Sign up` and `Cancel`.
enum SignupReducer {
  enum Delegate: Equatable, Sendable {
    /// Cancel or Esc at rest: the parent goes back, keeping the email.
    case cancelled(email: String)
    case signedIn(Session)
  }

  static func reduce(_ form: inout SignupForm, _ action: SignupAction) -> Outcome<Delegate> {
    switch action {
    case .form(let clicked):
      guard let formAction = FormEditing.resolvingClick(&form, clicked) else { return .none }
      if case .handled = FormEditing.reduce(&form, formAction) { return .none }
      switch formAction {
      case .enterPressed:
        if FormEditing.enterMovesFocus(&form) { return .none }
        if form.focus == .cancel, !form.phase.isRunning {
          return .delegate(.cancelled(email: form.email.text))
        }
        if form.phase.isRunning { return .effects(form.cancelRequest(.signUp)) }
        return .effects(
          form.submit(
            problem: form.problem, button: .signUp, id: .signUp,
            request: .signUp(form.registration)))
      case .escapePressed:
        if form.phase.isRunning { return .effects(form.cancelRequest(.signUp)) }
        return .delegate(.cancelled(email: form.email.text))
      case .pickerStepped(let direction):
        guard form.focus == .gender, !form.phase.isRunning else { return .none }
        form.gender = step(form.gender, direction)
        form.clearMessage()
        return .none
      case .revealToggled:
        form.revealsPassword.toggle()
        return .none
      default:
        return .none
      }
    case .signUpResponse(let result):
      return form.signedUp(result).map { .delegate(.signedIn($0)) } ?? .none
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
