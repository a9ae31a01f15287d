/// The whole state of the app: signed out (the sign-in flow) or signed in (the session and the
/// screens opened from Profile), a notice line, and the spinner's frame. Each screen's state
/// is carried by its route, so no loose flag can disagree with what is shown.
package struct AppState: Equatable, Sendable {
  package var root: Root
  /// A one-line notice from the app itself (a damaged file moved aside, a save that failed).
  package var notice: String?
  /// Advances while a request runs; the spinner's frame is derived from it.
  package var spinnerFrame = 0
  /// The `Keys` panel (`?` or F1) is open over the screen.
  package var showsKeys = false
  /// The first of the panel's lines in view (it scrolls when they do not all fit).
  package var keysScroll = 0
  /// The terminal's size and colours (set at launch; the size again on every resize).
  package var display = Display()
  /// The speed the Player starts at (`--speed`).
  package var startSpeed = PlaybackSpeed.normal
  /// Why Edit number cannot be used in this launch (accounts on a real Auth0 tenant), or nil.
  /// Every Profile of the launch carries it (see `editNumberUnavailable(because:)`).
  package private(set) var editNumberUnavailable: String?
  /// Remote mode's outbox as last reported (nil in embedded mode).
  package var sync: SyncStatus?
  /// The question asked before logging out with changes not yet sent, while it is open.
  package var logOutConfirmation: LogOutConfirmation?

  /// The header's words for the signed-in account's outbox, when its state is not plain.
  package var syncText: String? {
    guard let sync, let session, sync.account == session.accountID else { return nil }
    return sync.headerText
  }

  /// The changes of the signed-in account that the server does not have yet.
  var unsentChanges: Int {
    guard let sync, let session, sync.account == session.accountID else { return 0 }
    return sync.unsent
  }

  /// The last try to send the signed-in account's changes failed.
  var isOffline: Bool {
    guard let sync, let session, sync.account == session.accountID else { return false }
    return sync.offline
  }

  /// Edit number cannot be used in this launch: Profile's button says why.
  package mutating func editNumberUnavailable(because reason: String) {
    editNumberUnavailable = reason
    if case .signedIn(var signedIn) = root {
      signedIn.profile.editNumberUnavailable = reason
      root = .signedIn(signedIn)
    }
  }

  package init(root: Root, notice: String? = nil) {
    self.root = root
    self.notice = notice
  }

  /// The state at launch: Profile at once for a saved session, no service call and no delay.
  package static func launch(with restored: RestoredSession, notice: String? = nil) -> AppState {
    switch restored {
    case .none:
      AppState(root: .signedOut(SignedOut()), notice: notice)
    case .valid(let session):
      AppState(root: .signedIn(SignedIn(session: session)), notice: notice)
    case .invalid:
      AppState(
        root: .signedOut(SignedOut(path: [.sessionExpired(SessionExpiredScreen())])),
        notice: notice)
    }
  }

  /// The screen on top, the one shown and given the keys.
  package var screen: Screen { root.top }

  /// The requests running now (each shows a spinner where it was asked for).
  package var running: Set<EffectID> {
    switch root {
    case .signedOut(let flow): flow.running
    case .signedIn(let signedIn): signedIn.running
    }
  }

  /// The Player, when it is on top.
  package var player: PlayerState? {
    if case .player(let player) = screen { return player }
    return nil
  }

  /// The signed-in session, if any.
  package var session: Session? {
    if case .signedIn(let signedIn) = root { return signedIn.session }
    return nil
  }

  /// True while a request that shows a spinner runs: the only time the spinner turns.
  package var isBusy: Bool { running.contains(where: \.turnsSpinner) }
}

/// Signed out or signed in: the one fact every other screen depends on.
package enum Root: Equatable, Sendable {
  case signedOut(SignedOut)
  case signedIn(SignedIn)

  var top: Screen {
    switch self {
    case .signedOut(let flow):
      switch flow.path.last {
      case nil: .getStarted(flow.getStarted)
      case .login(let form): .login(form)
      case .signup(let form): .signup(form)
      case .sessionExpired(let screen): .sessionExpired(screen)
      case .classes(let classes): .classes(classes, signedIn: false)
      }
    case .signedIn(let signedIn):
      switch signedIn.path.last {
      case nil: .profile(signedIn.profile, signedIn.session)
      case .classes(let classes): .classes(classes, signedIn: true)
      case .player(let player): .player(player)
      case .lessons(let lessons): .lessons(lessons)
      case .images(let images): .images(images)
      }
    }
  }
}

/// The sign-in flow: Get started at the bottom, and the screens opened over it.
package struct SignedOut: Equatable, Sendable {
  package enum Route: Equatable, Sendable {
    case login(LoginForm)
    case signup(SignupForm)
    case sessionExpired(SessionExpiredScreen)
    /// `Browse classes`, signed out.
    case classes(ClassesState)
  }

  package var getStarted: GetStartedForm
  /// Screens over Get started, the last on top; Esc and Cancel pop back.
  package var path: [Route]

  package init(getStarted: GetStartedForm = GetStartedForm(), path: [Route] = []) {
    self.getStarted = getStarted
    self.path = path
  }

  var running: Set<EffectID> {
    switch path.last {
    case nil: getStarted.phase.isRunning ? [.checkEmail] : []
    case .login(let form): form.phase.isRunning ? [.logIn] : []
    case .signup(let form): form.phase.isRunning ? [.signUp] : []
    case .sessionExpired: []
    case .classes(let classes): classes.running
    }
  }
}

/// A signed-in person: the session every signed-in screen shares (with its expiry), Profile at
/// the bottom, and the screens opened from it.
package struct SignedIn: Equatable, Sendable {
  package enum Route: Equatable, Sendable {
    case classes(ClassesState)
    case player(PlayerState)
    case lessons(LessonsState)
    case images(ImagesState)
  }

  package var session: Session
  package var profile: ProfileState
  /// Screens opened from Profile, the last on top; Esc pops one.
  package var path: [Route]
  /// Saves that failed after their Player had gone (a read-only data dir, a full disk), by
  /// class: sent again with the next save, by the class's next Player, or on leaving.
  package var unsavedProgress: [String: ProgressUpdate] = [:]

  package init(session: Session, profile: ProfileState = ProfileState(), path: [Route] = []) {
    self.session = session
    self.profile = profile
    self.path = path
  }

  var running: Set<EffectID> {
    path.reduce(into: profile.running) { ids, route in
      if case .classes(let classes) = route { ids.formUnion(classes.running) }
      if case .lessons(let lessons) = route { ids.formUnion(lessons.running) }
      if case .images(let images) = route { ids.formUnion(images.running) }
      if case .player(let player) = route { ids.formUnion(player.running) }
    }
  }
}

/// The screen on top, with what it needs to be drawn: views and key maps switch over this.
package enum Screen: Equatable, Sendable {
  case getStarted(GetStartedForm)
  case login(LoginForm)
  case signup(SignupForm)
  case sessionExpired(SessionExpiredScreen)
  case profile(ProfileState, Session)
  case classes(ClassesState, signedIn: Bool)
  case player(PlayerState)
  case lessons(LessonsState)
  case images(ImagesState)

  /// Which screen this is, without its data.
  package var kind: ScreenKind {
    switch self {
    case .getStarted: .getStarted
    case .login: .login
    case .signup: .signup
    case .sessionExpired: .sessionExpired
    case .profile: .profile
    case .classes: .classes
    case .player: .player
    case .lessons: .lessons
    case .images: .images
    }
  }
}

package enum ScreenKind: Equatable, Sendable {
  case getStarted, login, signup, sessionExpired, profile, classes, player, lessons, images

  /// The section's name in the header line of signed-in screens.
  package var section: String {
    switch self {
    case .getStarted: "Get started"
    case .login: "Log in"
    case .signup: "Sign up"
    case .sessionExpired, .profile: "Profile"
    case .classes, .player: "Classes"
    case .lessons: "Lessons"
    case .images: "Images"
    }
  }
}

/// What the session store found at launch.
package enum RestoredSession: Equatable, Sendable {
  /// No session: start on Get started.
  case none
  case valid(Session)
  /// A session was there but was expired, tampered with or unreadable.
  case invalid
}
