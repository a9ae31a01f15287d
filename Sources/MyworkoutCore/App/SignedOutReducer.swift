/// The sign-in flow's navigation: Get started opens Login or Signup (their Cancel returns to
/// Get started with the email kept) or the catalog; `Log in to watch` over the catalog opens
/// Signup above it; a session ends the flow, carrying the catalog over when it came from there.
enum SignedOutReducer {
  enum Delegate: Equatable, Sendable {
    /// Signed in; the signed-in root opens `path` over Profile, and the Player for `play` over
    /// that (the class `Log in to watch` was opened for).
    case signedIn(Session, path: [SignedIn.Route], play: DanceClass?)
    /// A line for the app's notice (a paste cut to fit the catalog's search).
    case notice(String)
  }

  static func reduce(_ flow: inout SignedOut, _ action: Action, display: Display)
    -> Outcome<Delegate>
  {
    switch (action, flow.path.last) {
    case (.getStarted(let action), nil):
      let outcome = GetStartedReducer.reduce(&flow.getStarted, action)
      switch outcome.delegate {
      case .emailChecked(let email, registered: true)?:
        flow.path = [.login(LoginForm(email: email))]
      case .emailChecked(let email, registered: false)?:
        flow.path = [.signup(SignupForm(email: email))]
      case .browseClasses?:
        var (classes, effects) = ClassesReducer.opened(colors: display.colors)
        let typed = flow.getStarted.email.text
        if Email.isValid(typed) { classes.signedOutEmail = typed.trimmingWhitespace() }
        flow.path = [.classes(classes)]
        return .effects(outcome.effects + effects)
      case nil:
        break
      }
      return .effects(outcome.effects)

    case (.login(let action), .login(var form)?):
      let outcome = LoginReducer.reduce(&form, action)
      flow.path[flow.path.count - 1] = .login(form)
      switch outcome.delegate {
      case .cancelled(let email)?:
        flow.backToGetStarted(email: email)
      case .createAccount(let email)?:
        flow.path[flow.path.count - 1] = .signup(SignupForm(email: email))
      case .signedIn(let session)?:
        return Outcome(effects: outcome.effects, delegate: .signedIn(session, path: [], play: nil))
      case nil:
        break
      }
      return .effects(outcome.effects)

    // The answer to the `Log in to watch` modal's request.
    case (.login(let action), .classes?):
      return reduceClasses(&flow, .modal(action), display: display)

    case (.signup(let action), .signup(var form)?):
      let outcome = SignupReducer.reduce(&form, action)
      flow.path[flow.path.count - 1] = .signup(form)
      let below = flow.classesBelowTop
      switch outcome.delegate {
      case .cancelled(let email)?:
        // Over the catalog, Cancel returns to its modal, without the message it showed
        // before (it was about an earlier attempt); otherwise to Get started.
        if below != nil {
          flow.path.removeLast()
          flow.clearModalMessage()
        } else {
          flow.backToGetStarted(email: email)
        }
      case .signedIn(let session)?:
        let (path, play) = below.map(Self.opening) ?? ([], nil)
        return Outcome(
          effects: outcome.effects, delegate: .signedIn(session, path: path, play: play))
      case nil:
        break
      }
      return .effects(outcome.effects)

    case (.classes(let action), _):
      return reduceClasses(&flow, action, display: display)

    case (.terminalResized, .classes(var classes)?):
      let effects = ClassesReducer.resized(&classes, display: display)
      flow.path[flow.path.count - 1] = .classes(classes)
      return .effects(effects)

    case (.sessionExpiredScreen(.logInAgainPressed), .sessionExpired(let screen)?),
      (.logOutPressed, .sessionExpired(let screen)?):
      flow.backToGetStarted(email: screen.email)
      return .none

    default:
      // An action for a screen that is no longer on top (a late answer, a stale key): ignored.
      return .none
    }
  }

  /// Routes an action to the catalog on the path (on top, or under Signup) and follows its
  /// delegate.
  private static func reduceClasses(
    _ flow: inout SignedOut, _ action: ClassesAction, display: Display
  )
    -> Outcome<Delegate>
  {
    guard let index = flow.path.lastIndex(where: \.isClasses),
      case .classes(var classes) = flow.path[index]
    else { return .none }
    let onTop = index == flow.path.count - 1
    // Keys reach the catalog only when it is on top; its answers wherever it is.
    guard onTop || action.isAnswer else { return .none }
    let outcome = ClassesReducer.reduce(&classes, action, signedIn: false, display: display)
    flow.path[index] = .classes(classes)
    switch outcome.delegate {
    case nil:
      return .effects(outcome.effects)
    case .back?:
      flow.path.removeLast(flow.path.count - index)
      return .effects(outcome.effects)
    case .open?:
      return .effects(outcome.effects)
    case .notice(let text)?:
      return Outcome(effects: outcome.effects, delegate: .notice(text))
    case .createAccount(let email)?:
      flow.path.append(.signup(SignupForm(email: email)))
      return .effects(outcome.effects)
    case .signedIn(let session, let danceClass)?:
      var kept = classes
      kept.modal = nil
      return Outcome(
        effects: outcome.effects,
        delegate: .signedIn(session, path: [.classes(kept)], play: danceClass))
    }
  }

  /// The signed-in path a completed signup over the catalog opens: the catalog as it was, and
  /// the class its modal was opened for (to play).
  private static func opening(_ classes: ClassesState) -> ([SignedIn.Route], DanceClass?) {
    guard let modal = classes.modal else { return ([], nil) }
    var kept = classes
    kept.modal = nil
    return ([.classes(kept)], modal.opening)
  }
}

extension SignedOut {
  /// Back to Get started, with the email filled in and nothing else kept.
  mutating func backToGetStarted(email: String) {
    getStarted = GetStartedForm(email: email)
    path = []
  }

  /// The `Log in to watch` modal on top shows no message from an earlier attempt.
  mutating func clearModalMessage() {
    guard case .classes(var classes)? = path.last, var modal = classes.modal else { return }
    modal.form.phase = modal.form.phase.cleared
    classes.modal = modal
    path[path.count - 1] = .classes(classes)
  }

  /// The catalog right under the screen on top, if that is where the top screen came from.
  var classesBelowTop: ClassesState? {
    guard path.count >= 2, case .classes(let classes) = path[path.count - 2] else { return nil }
    return classes
  }
}

extension SignedOut.Route {
  var isClasses: Bool {
    if case .classes = self { return true }
    return false
  }
}
