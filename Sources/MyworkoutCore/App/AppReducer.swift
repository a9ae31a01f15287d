/// The one place state changes. Pure: it reads the action, updates the state, and returns the
/// effects to carry out as data. The root owns the transitions that work from any screen
/// (sign in, log out, expiry, quit); each screen's reducer handles its own actions and reports
/// to its parent with a delegate.
package func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
  let effects = reduce(&state, action, askBeforeLogOut: true)
  // The question belongs to a signed-in person: an expiry while it is open ends it.
  if state.session == nil { state.logOutConfirmation = nil }
  // With the `Keys` panel or the log-out question over Classes, an Enter that waits for its
  // search's answer is forgotten: the class would open under them.
  if state.showsKeys || state.logOutConfirmation != nil { forgetWaitingEnter(&state) }
  return effects
}

/// Classes on top stops waiting to open what its search finds.
private func forgetWaitingEnter(_ state: inout AppState) {
  switch state.root {
  case .signedIn(var signedIn):
    guard case .classes(var classes)? = signedIn.path.last, classes.openWhenFound else { return }
    classes.openWhenFound = false
    signedIn.path[signedIn.path.count - 1] = .classes(classes)
    state.root = .signedIn(signedIn)
  case .signedOut(var flow):
    guard case .classes(var classes)? = flow.path.last, classes.openWhenFound else { return }
    classes.openWhenFound = false
    flow.path[flow.path.count - 1] = .classes(classes)
    state.root = .signedOut(flow)
  }
}

private func reduce(_ state: inout AppState, _ action: Action, askBeforeLogOut: Bool) -> [Effect] {
  switch action {
  case .spinnerTicked:
    if state.isBusy { state.spinnerFrame &+= 1 }
    return []
  case .noticeRaised(let text):
    state.say(text)
    return []
  case .syncChanged(let status):
    // Only the signed-in account's outbox speaks for the header and the log-out question:
    // another account's (still counting its changes for its next log-in) must not hide them.
    guard status.account == state.session?.accountID else { return [] }
    state.sync = status
    // A change refused for the session itself (a key the server no longer has): log in
    // again, as at expiry; the changes stay in the outbox for that log-in (issue 28).
    if status.sessionRefused { return reduce(&state, .sessionExpired, askBeforeLogOut: false) }
    return []
  case .logOutConfirmation(let answer):
    guard var confirmation = state.logOutConfirmation else { return [] }
    switch answer {
    case .focusMoved:
      confirmation.focus = confirmation.focus == .stay ? .logOut : .stay
      state.logOutConfirmation = confirmation
      return []
    case .pressed(.stay):
      state.logOutConfirmation = nil
      return []
    case .pressed(.logOut):
      state.logOutConfirmation = nil
      return reduce(&state, .logOutPressed, askBeforeLogOut: false)
    }
  case .quitPressed:
    return closing(&state) + [.quit(status: 0)]
  case .interruptPressed:
    return closing(&state) + [.quit(status: 130)]
  case .terminationRequested(let status):
    return closing(&state) + [.quit(status: status)]
  case .keysPanelToggled:
    state.showsKeys.toggle()
    state.keysScroll = 0
    return []
  case .keysPanelScrolled(let line):
    if state.showsKeys { state.keysScroll = max(0, line) }
    return []
  case .logOutPressed:
    // Ctrl-O with the `Keys` panel open: the panel closes, whether the log-out happens now or
    // asks first (the question takes the panel's place).
    state.showsKeys = false
    state.keysScroll = 0
  case .terminalResized(let size):
    // Kept for the screens opened later; the screens laid out for a size reflow below.
    state.display.size = size
  default:
    break
  }

  // A notice stays up, across screen changes, until the person does something. One that a
  // save could not be made goes when a later save is made: it no longer holds (a walk-through
  // read `database is locked` under the saves that followed, until the next key).
  if action.isInput { state.notice = nil }
  if case .player(.progressSaved(.success, _)) = action, let notice = state.notice,
    notice.contains(ProgressError.notSavedPrefix)
  {
    // Only what was said of saves goes: other notices joined to it stay.
    let kept = notice.split(separator: "; ").filter {
      !$0.hasPrefix(ProgressError.notSavedPrefix)
    }
    state.notice = kept.isEmpty ? nil : kept.joined(separator: "; ")
  }
  let before = state.screen.kind
  var effects: [Effect]
  switch state.root {
  case .signedOut(var flow):
    let outcome = SignedOutReducer.reduce(&flow, action, display: state.display)
    state.root = .signedOut(flow)
    effects = outcome.effects
    if case .notice(let text)? = outcome.delegate { state.say(text) }
    if case .signedIn(let session, let path, let play) = outcome.delegate {
      var signedIn = SignedIn(session: session, path: path)
      signedIn.profile.editNumberUnavailable = state.editNumberUnavailable
      var opened = SignedInReducer.carriedOver(signedIn)
      if let play {
        opened += SignedInReducer.play(
          play, in: &signedIn, speed: state.startSpeed, display: state.display)
      }
      state.root = .signedIn(signedIn)
      effects += [.saveSession(session)] + opened
    }
  case .signedIn(var signedIn):
    let outcome = SignedInReducer.reduce(
      &signedIn, action, display: state.display, speed: state.startSpeed)
    // What still runs once the screen has handled the action (an answer ends its own request).
    let running = signedIn.running
    state.root = .signedIn(signedIn)
    effects = outcome.effects
    switch outcome.delegate {
    case nil:
      break
    case .loggedOut:
      // Changes the server does not have yet (and, while it is away, the Player's last save,
      // made just now): ask first (SPEC §18). The person stays signed in until the answer.
      let saves = state.isOffline ? effects.filter(\.isProgressSave).count : 0
      let unsent = state.unsentChanges + saves
      if askBeforeLogOut, unsent > 0 {
        state.logOutConfirmation = LogOutConfirmation(waiting: unsent)
        // The Player's video goes on under the question (its save is made): "Stay logged in"
        // leaves the class as it was; logging out ends it then.
        effects.removeAll { $0 == .video(.close) }
        break
      }
      // Every section's state ends with the session; its requests are cancelled.
      state.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: signedIn.email)))
      effects += cancelling(running) + [.endSession(signedIn.session)]
    case .expired:
      let expired = SessionExpiredScreen(email: signedIn.email)
      state.root = .signedOut(SignedOut(path: [.sessionExpired(expired)]))
      effects += cancelling(running) + [.endSession(signedIn.session)]
    case .notice(let text):
      state.say(text)
    }
  }
  if state.screen.kind != before {
    state.spinnerFrame = 0
    state.showsKeys = false
    state.keysScroll = 0
  }
  return effects
}

/// What must be saved before the app ends (the Player's progress), as effects to run before
/// quitting.
private func closing(_ state: inout AppState) -> [Effect] {
  guard case .signedIn(var signedIn) = state.root else { return [] }
  let effects = SignedInReducer.closing(&signedIn)
  state.root = .signedIn(signedIn)
  return effects
}

/// Cancels every id in a set, in a fixed order (by name) so the effects are predictable.
private func cancelling(_ running: Set<EffectID>) -> [Effect] {
  running.sorted { String(describing: $0) < String(describing: $1) }.map(Effect.cancel)
}

extension SignedIn {
  var email: String { session.profile.email }
}

extension Effect {
  var isProgressSave: Bool {
    if case .recordProgress = self { return true }
    return false
  }
}

extension AppState {
  /// Says `text` on the notice line. Notices said before a key clears them are all said,
  /// joined by `; ` (a walk-through's two damaged files were both moved aside, and only the
  /// second was said); one already said is not said again.
  mutating func say(_ text: String) {
    guard let shown = notice else {
      notice = text
      return
    }
    if shown != text, !shown.hasSuffix("; " + text), !shown.hasPrefix(text + "; ") {
      notice = shown + "; " + text
    }
  }
}
