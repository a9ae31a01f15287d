/// The one place state changes. Pure: it reads the action, updates the state, and returns the
/// effects to carry out as data.
public func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
  switch action {
  case .spinnerTicked:
    if state.isBusy { state.spinnerFrame &+= 1 }
    return []
  case .noticeRaised(let text):
    state.notice = text
    return []
  case .quitPressed:
    return [.quit(status: 0)]
  default:
    break
  }

  // A notice stays up, across screen changes, until the person does something.
  if action.isInput { state.notice = nil }
  let before = state.screen.kind
  let effects: [Effect]
  switch state.screen {
  case .getStarted(var form):
    effects = GetStartedReducer.reduce(&form, action, screen: &state.screen)
  case .login(var form):
    effects = LoginReducer.reduce(&form, action, screen: &state.screen)
  case .signup(var form):
    effects = SignupReducer.reduce(&form, action, screen: &state.screen)
  case .profile(var profile):
    effects = ProfileReducer.reduce(&profile, action, screen: &state.screen)
  }
  if state.screen.kind != before { state.spinnerFrame = 0 }
  return effects
}
