/// Everything that can happen to the app, named for what happened. Each screen's actions are
/// wrapped in its case; the root's own are below them.
package enum Action: Equatable, Sendable {
  case getStarted(GetStartedAction)
  case login(LoginAction)
  case signup(SignupAction)
  case sessionExpiredScreen(SessionExpiredAction)
  case profile(ProfileAction)
  case classes(ClassesAction)
  case player(PlayerAction)
  case lessons(LessonsAction)
  case images(ImagesAction)

  /// `l` on Profile or the expiry message: end the session and go to Get started.
  case logOutPressed
  /// The answer to `N changes have not reached the server yet. Log out anyway?`.
  case logOutConfirmation(LogOutConfirmationAction)
  /// `q` where letters are commands.
  case quitPressed
  /// Ctrl-C as a key (when the terminal does not turn it into SIGINT).
  case interruptPressed
  /// `?` (where no text field has the focus) or F1 opens the `Keys` panel; Esc or `?` close it.
  case keysPanelToggled
  /// ↑/↓, PgUp/PgDn, Home/End or the wheel in the `Keys` panel: its first line in view (the
  /// view works out the line from the panel's layout).
  case keysPanelScrolled(to: Int)

  // What the world did.
  case spinnerTicked
  /// The signed-in session's token reached its expiry while the app was open.
  case sessionExpired
  /// The app has something to tell in one line (a damaged file moved aside, a failed save).
  case noticeRaised(String)
  /// Remote mode's outbox changed: how many changes wait, and whether the server answers.
  case syncChanged(SyncStatus)
  /// The terminal has a new size (at launch and on every resize).
  case terminalResized(TerminalSize)
  /// The wall clock was read: at once when a screen starts keeping time, before every other
  /// action while it does, and on its timer (the Player, 4 times a second while playing).
  case clockRead(WallTime)
  /// Ctrl-Z: the app is about to stop (the Player pauses and saves).
  case suspended
  /// The app runs again after Ctrl-Z (`fg`), at this reading of the wall clock: a screen that
  /// keeps time starts again from it, so the time stopped counts for nothing.
  case resumed(WallTime)
  /// A signal asks the app to end (SIGTERM, SIGHUP, SIGINT): save what must be saved, then
  /// quit with this status.
  case terminationRequested(status: Int32)

  /// Whether the person did this (a key or a paste), as opposed to the world: each feature's
  /// own `isInput` says it for its actions (the one list of which actions are answers).
  package var isInput: Bool {
    switch self {
    case .getStarted(let action): action.isInput
    case .login(let action): action.isInput
    case .signup(let action): action.isInput
    case .profile(let action): action.isInput
    case .classes(let action): action.isInput
    case .lessons(let action): action.isInput
    case .images(let action): action.isInput
    case .player(let action): action.isInput
    case .sessionExpiredScreen, .logOutPressed, .logOutConfirmation, .quitPressed,
      .interruptPressed, .keysPanelToggled, .keysPanelScrolled:
      true
    case .spinnerTicked, .sessionExpired, .noticeRaised, .syncChanged, .terminalResized,
      .clockRead, .suspended, .resumed, .terminationRequested:
      false
    }
  }
}
