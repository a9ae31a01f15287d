enum ProfileReducer {
  static func reduce(_ profile: inout ProfileScreen, _ action: Action, screen: inout Screen)
    -> [Effect]
  {
    defer { if case .profile = screen { screen = .profile(profile) } }

    if case .sessionExpired = action {
      guard profile.session != nil else { return [] }
      let wasRunning = profile.dialog?.phase.isRunning ?? false
      profile = ProfileScreen(content: .expired)
      return (wasRunning ? [.cancelRequest] : []) + [.deleteSession]
    }
    if profile.dialog != nil { return reduceDialog(&profile, action) }

    switch action {
    case .focusMoved(let direction):
      if profile.session != nil { profile.focus = profile.focus.moved(direction) }
      return []
    case .enterPressed:
      switch profile.focus {
      case .edit: return openDialog(&profile)
      case .logOut: return logOut(&screen, profile)
      }
    case .editNumberPressed:
      return openDialog(&profile)
    case .logOutPressed:
      return logOut(&screen, profile)
    default:
      return []
    }
  }

  private static func openDialog(_ profile: inout ProfileScreen) -> [Effect] {
    guard let session = profile.session else { return [] }
    profile.confirmation = nil
    profile.dialog = EditNumberDialog(mobile: MobileNumber.display(session.profile.mobile))
    return []
  }

  /// Log out ends the session and shows Get started with nothing filled in.
  private static func logOut(_ screen: inout Screen, _ profile: ProfileScreen) -> [Effect] {
    screen = .getStarted(GetStartedForm())
    return profile.session == nil ? [] : [.deleteSession]
  }

  private static func reduceDialog(_ profile: inout ProfileScreen, _ action: Action) -> [Effect] {
    guard var dialog = profile.dialog, let session = profile.session else { return [] }
    defer { if profile.dialog != nil { profile.dialog = dialog } }
    if case .handled = FormEditing.reduce(&dialog, action) { return [] }

    switch action {
    case .enterPressed:
      if dialog.focus == .cancel, !dialog.phase.isRunning {
        profile.dialog = nil
        return []
      }
      if dialog.phase.isRunning { return dialog.cancelRequest() }
      let mobile = MobileNumber.normalized(dialog.mobile.text) ?? dialog.mobile.text
      return dialog.submit(
        problem: dialog.problem, button: .save,
        request: .updateMobile(token: session.token, mobile: mobile))
    case .escapePressed:
      if dialog.phase.isRunning { return dialog.cancelRequest() }
      profile.dialog = nil
      return []
    case .editNumberResponse(let result):
      guard dialog.phase.isRunning else { return [] }
      switch result {
      case .success(let newSession):
        profile.dialog = nil
        profile.content = .signedIn(newSession)
        profile.confirmation = Message.numberEdited
        return [.saveSession(newSession)]
      case .failure(.sessionExpired):
        profile = ProfileScreen(content: .expired)
        return [.deleteSession]
      case .failure(let error):
        dialog.phase = .failed(error.message)
        return []
      }
    default:
      return []
    }
  }
}
