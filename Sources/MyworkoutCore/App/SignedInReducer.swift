/// The signed-in root: the session every signed-in screen shares, the screens opened from
/// Profile, and the transitions that work from any of them (log out, expiry). The root above
/// turns its delegates into navigation.
enum SignedInReducer {
  enum Delegate: Equatable, Sendable {
    case loggedOut
    case expired
    /// A line for the app's notice (lessons skipped while loading).
    case notice(String)
  }

  static func reduce(
    _ signedIn: inout SignedIn, _ action: Action, display: Display, speed: PlaybackSpeed
  ) -> Outcome<Delegate> {
    var outcome = reduceAction(&signedIn, action, display: display, speed: speed)
    // Saves that failed after their Player had gone go with the next save.
    if outcome.effects.contains(where: \.isProgressSave) {
      outcome.effects += sendingKept(&signedIn)
    }
    return outcome
  }

  private static func reduceAction(
    _ signedIn: inout SignedIn, _ action: Action, display: Display, speed: PlaybackSpeed
  ) -> Outcome<Delegate> {
    switch action {
    case .profile(let action):
      guard signedIn.path.isEmpty || !action.isInput else { return .none }
      let outcome = ProfileReducer.reduce(&signedIn.profile, action, session: signedIn.session)
      switch outcome.delegate {
      case .logOutRequested?:
        return Outcome(effects: outcome.effects, delegate: .loggedOut)
      case .classesRequested?:
        let (classes, effects) = ClassesReducer.opened(colors: display.colors)
        signedIn.path.append(.classes(classes))
        return .effects(outcome.effects + effects)
      case .lessonsRequested?:
        let (lessons, effects) = LessonsReducer.opened(account: signedIn.account)
        signedIn.path.append(.lessons(lessons))
        return .effects(outcome.effects + effects)
      case .imagesRequested?:
        let (images, effects) = ImagesReducer.opened(display: display)
        signedIn.path.append(.images(images))
        return .effects(outcome.effects + effects)
      case .sessionRenewed(let session)?:
        signedIn.session = session
        return .effects(outcome.effects + [.renewSession(session)])
      case .sessionExpired?:
        return Outcome(effects: outcome.effects, delegate: .expired)
      case nil:
        return .effects(outcome.effects)
      }
    case .classes(let action):
      return reduceClasses(&signedIn, action, display: display, speed: speed)
    case .player(let action):
      return reducePlayer(&signedIn, action, display: display)
    case .clockRead(let now):
      return .effects(withPlayer(&signedIn) { PlayerReducer.clockRead(&$0, now, account: $1) })
    case .suspended:
      return .effects(withPlayer(&signedIn) { PlayerReducer.suspended(&$0, account: $1) })
    case .resumed(let now):
      return .effects(
        withPlayer(&signedIn) { player, _ in PlayerReducer.resumed(&player, at: now) })
    case .lessons(let action):
      return reduceLessons(&signedIn, action)
    case .images(let action):
      return reduceImages(&signedIn, action)
    case .terminalResized:
      return .effects(
        resizeImages(&signedIn, display: display) + resizeClasses(&signedIn, display: display)
          + withPlayer(&signedIn) { player, _ in
            PlayerReducer.requestPicture(&player, display: display)
          })
    case .logOutPressed:
      return Outcome(effects: closing(&signedIn), delegate: .loggedOut)
    case .sessionExpired:
      return Outcome(effects: closing(&signedIn), delegate: .expired)
    default:
      return .none
    }
  }

  private static func reduceClasses(
    _ signedIn: inout SignedIn, _ action: ClassesAction, display: Display, speed: PlaybackSpeed
  ) -> Outcome<Delegate> {
    guard let index = signedIn.path.lastIndex(where: \.isClasses),
      case .classes(var classes) = signedIn.path[index]
    else { return .none }
    let onTop = index == signedIn.path.count - 1
    // Keys reach the catalog only when it is on top; its answers wherever it is.
    guard onTop || action.isAnswer else { return .none }
    let listed = classes.classes
    var outcome = ClassesReducer.reduce(&classes, action, signedIn: true, display: display)
    if classes.classes != listed {
      outcome.effects += ClassesReducer.requestWatched(classes, account: signedIn.account)
    }
    signedIn.path[index] = .classes(classes)
    switch outcome.delegate {
    case .back?:
      signedIn.path.removeLast(signedIn.path.count - index)
    case .open(let danceClass)?:
      outcome.effects += play(danceClass, in: &signedIn, speed: speed, display: display)
    case .notice(let text)?:
      return Outcome(effects: outcome.effects, delegate: .notice(text))
    case .createAccount?, .signedIn?, nil:
      break
    }
    return .effects(outcome.effects)
  }
}

extension SignedInReducer {
  /// Opens the Player for a class over the path.
  static func play(
    _ danceClass: DanceClass, in signedIn: inout SignedIn, speed: PlaybackSpeed, display: Display
  ) -> [Effect] {
    let (player, effects) = PlayerReducer.opened(
      danceClass, account: signedIn.account, speed: speed, display: display,
      kept: signedIn.unsavedProgress.removeValue(forKey: danceClass.id))
    signedIn.path.append(.player(player))
    return effects
  }

  /// Routes an action to the Player on top. Esc pops it, and the catalog below shows the new
  /// watched %. A save's answer after its Player closed (or for another class than the one
  /// playing now) is kept here when it failed, for the next save, and still tells the person.
  fileprivate static func reducePlayer(
    _ signedIn: inout SignedIn, _ action: PlayerAction, display: Display
  )
    -> Outcome<Delegate>
  {
    guard case .player(var player)? = signedIn.path.last,
      action.concerns(player.danceClass, account: signedIn.account)
    else {
      switch action {
      case .progressSaved(.failure(let error), let update):
        // A change every store refuses whole would only be refused again: not kept.
        if update.account == signedIn.account, error.refusal == nil {
          keep(update.kept(after: error), in: &signedIn)
        }
        return .delegate(.notice(error.message))
      case .progressSaved(.success(let stored), let update):
        // The closing save's answer: what is stored now, with another copy's or device's
        // intervals of the class, shown in the list the Player went back to. Never below what
        // the list shows (the Player's %): watched intervals only grow, and remote mode
        // answers with the changes still waiting for the server, not the whole progress.
        // A failed save kept for the class goes from where this one left the person, when this
        // one is at least as recent (a kept save sent again says where an earlier visit left).
        if update.account == signedIn.account, let kept = signedIn.unsavedProgress[update.classID],
          ProgressUpdate.stamp(update.changedAt, isAtLeast: kept.changedAt)
        {
          signedIn.unsavedProgress[update.classID]?.position = update.position
          signedIn.unsavedProgress[update.classID]?.changedAt = update.changedAt
        }
        if update.account == signedIn.account, case .classes(var classes)? = signedIn.path.last,
          let item = classes.classes.first(where: { $0.id == update.classID })
        {
          classes.watched[item.id] = max(
            classes.watched[item.id] ?? 0,
            stored.watched.watchedPercent(duration: item.durationMilliseconds))
          signedIn.path[signedIn.path.count - 1] = .classes(classes)
        }
        return .none
      default:
        return .none
      }
    }
    let outcome = PlayerReducer.reduce(
      &player, action, account: signedIn.account, display: display)
    signedIn.path[signedIn.path.count - 1] = .player(player)
    switch outcome.delegate {
    case nil:
      return .effects(outcome.effects)
    case .notice(let text)?:
      return Outcome(effects: outcome.effects, delegate: .notice(text))
    case .back?:
      signedIn.path.removeLast()
      if case .classes(var classes)? = signedIn.path.last {
        // Never below what the list showed: watched time only grows, and a Player whose
        // progress could not be read knows only this visit's. (An opened class shows `0%`:
        // SPEC §11 leaves blank only a class never opened.)
        let id = player.danceClass.id
        classes.watched[id] = max(classes.watched[id] ?? 0, player.watchedPercent)
        // The list has the focus, at the class just left: ↓ goes to the next one (from the
        // field, ↓ only entered the list, and Enter opened the same class again).
        if !classes.classes.isEmpty { classes.focus = .list }
        signedIn.path[signedIn.path.count - 1] = .classes(classes)
      }
      return .effects(outcome.effects)
    }
  }

  /// The watched % for a catalog carried over from signing in (it was listed signed out).
  static func carriedOver(_ signedIn: SignedIn) -> [Effect] {
    guard case .classes(let classes)? = signedIn.path.first else { return [] }
    return ClassesReducer.requestWatched(classes, account: signedIn.account)
  }

  /// Runs `body` on the Player when it is on top; no effects otherwise.
  fileprivate static func withPlayer(
    _ signedIn: inout SignedIn, _ body: (inout PlayerState, String) -> [Effect]
  ) -> [Effect] {
    guard case .player(var player)? = signedIn.path.last else { return [] }
    let effects = body(&player, signedIn.account)
    signedIn.path[signedIn.path.count - 1] = .player(player)
    return effects
  }

  /// What must be saved before the signed-in screens go away (quit, log out, expiry): the
  /// Player's progress and the saves that failed after their Player had gone, tried once more.
  static func closing(_ signedIn: inout SignedIn) -> [Effect] {
    withPlayer(&signedIn) { PlayerReducer.closing(&$0, account: $1) } + sendingKept(&signedIn)
  }

  /// A failed save kept for the next, after what is kept of its class already.
  private static func keep(_ update: ProgressUpdate, in signedIn: inout SignedIn) {
    let earlier = signedIn.unsavedProgress[update.classID]
    signedIn.unsavedProgress[update.classID] = earlier?.followed(by: update) ?? update
  }

  /// The kept saves, sent now (in the order of their classes' ids); a failure keeps them again.
  private static func sendingKept(_ signedIn: inout SignedIn) -> [Effect] {
    let kept = signedIn.unsavedProgress.sorted { $0.key < $1.key }.map(\.value)
    signedIn.unsavedProgress = [:]
    return kept.map(Effect.recordProgress)
  }
}

extension SignedInReducer {
  /// Routes an action to Images: keys only when it is on top, answers wherever it is.
  fileprivate static func reduceImages(_ signedIn: inout SignedIn, _ action: ImagesAction)
    -> Outcome<Delegate>
  {
    guard let index = signedIn.path.lastIndex(where: \.isImages),
      case .images(var images) = signedIn.path[index]
    else { return .none }
    guard index == signedIn.path.count - 1 || action.isAnswer else { return .none }
    let outcome = ImagesReducer.reduce(&images, action)
    signedIn.path[index] = .images(images)
    if outcome.delegate == .back { signedIn.path.removeLast(signedIn.path.count - index) }
    return .effects(outcome.effects)
  }

  /// The Images grid reflows for a new terminal size.
  /// The Classes screen on top, resized (its preview may have come into view).
  fileprivate static func resizeClasses(_ signedIn: inout SignedIn, display: Display) -> [Effect] {
    guard case .classes(var classes)? = signedIn.path.last else { return [] }
    let effects = ClassesReducer.resized(&classes, display: display)
    signedIn.path[signedIn.path.count - 1] = .classes(classes)
    return effects
  }

  fileprivate static func resizeImages(_ signedIn: inout SignedIn, display: Display) -> [Effect] {
    guard let index = signedIn.path.lastIndex(where: \.isImages),
      case .images(var images) = signedIn.path[index]
    else { return [] }
    let effects = ImagesReducer.resized(&images, to: display)
    signedIn.path[index] = .images(images)
    return effects
  }
}

extension SignedIn.Route {
  var isImages: Bool {
    if case .images = self { return true }
    return false
  }

  var isClasses: Bool {
    if case .classes = self { return true }
    return false
  }
}
