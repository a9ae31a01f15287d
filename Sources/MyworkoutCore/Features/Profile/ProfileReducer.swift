/// Profile's rules. It never navigates: it tells its parent (the signed-in root) what the
/// person asked for, and the parent decides.
enum ProfileReducer {
  enum Delegate: Equatable, Sendable {
    case logOutRequested
    case classesRequested
    case lessonsRequested
    case imagesRequested
    /// The number was saved: the service answered a new session.
    case sessionRenewed(Session)
    /// The service refused the session.
    case sessionExpired
  }

  static func reduce(_ profile: inout ProfileState, _ action: ProfileAction, session: Session)
    -> Outcome<Delegate>
  {
    if case .editNumberResponse(.success(let newSession)) = action {
      // Also at rest, the dialog open or closed: a cancel that came once the number was saved
      // lets its answer through (`CommitGate`).
      return edited(&profile, newSession)
    }
    if profile.dialog != nil { return reduceDialog(&profile, action, session: session) }
    switch action {
    case .form(.focusMoved(let direction)):
      profile.focus = profile.focus.moved(direction)
      return .none
    case .form(.stopClicked(let index)):
      guard ProfileState.Focus.allCases.indices.contains(index) else { return .none }
      profile.focus = ProfileState.Focus.allCases[index]
      return reduce(&profile, .form(.enterPressed), session: session)
    case .form(.enterPressed):
      switch profile.focus {
      case .edit: return openDialog(&profile, session: session)
      case .logOut: return .delegate(.logOutRequested)
      case .classes: return leave(&profile, for: .classesRequested)
      case .lessons: return leave(&profile, for: .lessonsRequested)
      case .images: return leave(&profile, for: .imagesRequested)
      }
    case .editNumberPressed:
      return openDialog(&profile, session: session)
    case .classesPressed:
      return leave(&profile, for: .classesRequested)
    case .lessonsPressed:
      return leave(&profile, for: .lessonsRequested)
    case .imagesPressed:
      return leave(&profile, for: .imagesRequested)
    case .form, .editNumberResponse:
      return .none
    }
  }

  /// The number is saved: the dialog closes and the confirmation shows.
  private static func edited(_ profile: inout ProfileState, _ newSession: Session)
    -> Outcome<Delegate>
  {
    profile.dialog = nil
    profile.confirmation = Message.numberEdited
    return .delegate(.sessionRenewed(newSession))
  }

  /// Profile left for another screen (Classes, Lessons, Images): the confirmation belongs to
  /// the moment of the edit, so it is not shown again on coming back.
  private static func leave(_ profile: inout ProfileState, for delegate: Delegate)
    -> Outcome<Delegate>
  {
    profile.confirmation = nil
    return .delegate(delegate)
  }

  private static func openDialog(_ profile: inout ProfileState, session: Session)
    -> Outcome<Delegate>
  {
    guard profile.editNumberUnavailable == nil else { return .none }
    profile.confirmation = nil
    profile.dialog = EditNumberDialog(mobile: MobileNumber.display(session.profile.mobile))
    return .none
  }

  private static func reduceDialog(
    _ profile: inout ProfileState, _ action: ProfileAction, session: Session
  ) -> Outcome<Delegate> {
    guard var dialog = profile.dialog else { return .none }
    defer { if profile.dialog != nil { profile.dialog = dialog } }
    switch action {
    case .form(let clicked):
      guard let formAction = FormEditing.resolvingClick(&dialog, clicked) else { return .none }
      if case .handled = FormEditing.reduce(&dialog, formAction) { return .none }
      switch formAction {
      case .enterPressed:
        if dialog.focus == .cancel, !dialog.phase.isRunning {
          profile.dialog = nil
          return .none
        }
        if dialog.phase.isRunning { return .effects(dialog.cancelRequest(.editNumber)) }
        let mobile = MobileNumber.normalized(dialog.mobile.text) ?? dialog.mobile.text
        return .effects(
          dialog.submit(
            problem: dialog.problem, button: .save, id: .editNumber,
            request: .updateMobile(token: session.token, mobile: mobile)))
      case .escapePressed:
        if dialog.phase.isRunning { return .effects(dialog.cancelRequest(.editNumber)) }
        profile.dialog = nil
        return .none
      default:
        return .none
      }
    case .editNumberPressed, .classesPressed, .lessonsPressed, .imagesPressed:
      return .none
    case .editNumberResponse(let result):
      // A success is answered in `reduce`; a failure at rest was cancelled.
      guard dialog.phase.isRunning, case .failure(let error) = result else { return .none }
      switch error {
      case .sessionExpired, .unauthorized:
        profile.dialog = nil
        return .delegate(.sessionExpired)
      default:
        dialog.phase = .failed(error.message)
        return .none
      }
    }
  }
}
