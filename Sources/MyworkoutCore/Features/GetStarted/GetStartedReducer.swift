/// Get started's rules: one email field and `Next`, which asks whether the email is registered.
enum GetStartedReducer {
  enum Delegate: Equatable, Sendable {
    /// The service answered: the parent opens Login or Signup for this email.
    case emailChecked(email: String, registered: Bool)
    /// `Browse classes`: the catalog, signed out.
    case browseClasses
  }

  static func reduce(_ form: inout GetStartedForm, _ action: GetStartedAction)
    -> Outcome<Delegate>
  {
    switch action {
    case .form(let clicked):
      guard let formAction = FormEditing.resolvingClick(&form, clicked) else { return .none }
      if case .handled = FormEditing.reduce(&form, formAction) { return .none }
      switch formAction {
      case .enterPressed:
        if FormEditing.enterMovesFocus(&form) { return .none }
        if form.phase.isRunning { return .effects(form.cancelRequest(.checkEmail)) }
        if form.focus == .browseClasses { return .delegate(.browseClasses) }
        return .effects(
          form.submit(
            problem: form.problem, button: .next, id: .checkEmail,
            request: .checkEmail(Email.normalized(form.email.text))))
      case .escapePressed:
        return form.phase.isRunning ? .effects(form.cancelRequest(.checkEmail)) : .none
      default:
        return .none
      }
    case .checkEmailResponse(let result):
      guard form.phase.isRunning else { return .none }
      switch result {
      case .success(let registered):
        form.phase = .idle
        return .delegate(.emailChecked(email: form.email.text, registered: registered))
      case .failure(let error):
        form.phase = .failed(error.message)
        return .none
      }
    }
  }
}
