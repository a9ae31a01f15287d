/// The whole state of the app. The screen is an enum carrying its own form and request phase,
/// so no combination of loose flags can disagree with what is shown.
public struct AppState: Equatable, Sendable {
  public var screen: Screen
  /// A one-line notice from the app itself (a damaged file moved aside, a save that failed).
  public var notice: String?
  /// Advances while a request runs; the spinner's frame is derived from it.
  public var spinnerFrame = 0

  public init(screen: Screen, notice: String? = nil) {
    self.screen = screen
    self.notice = notice
  }

  /// The state at launch: Profile at once for a saved session, no service call and no delay.
  public static func launch(with restored: RestoredSession, notice: String? = nil) -> AppState {
    switch restored {
    case .none: AppState(screen: .getStarted(GetStartedForm()), notice: notice)
    case .valid(let session):
      AppState(screen: .profile(ProfileScreen(content: .signedIn(session))), notice: notice)
    case .invalid: AppState(screen: .profile(ProfileScreen(content: .expired)), notice: notice)
    }
  }

  /// True while any request runs: the only time the app wakes up by itself (the spinner).
  public var isBusy: Bool {
    switch screen {
    case .getStarted(let form): form.phase.isRunning
    case .login(let form): form.phase.isRunning
    case .signup(let form): form.phase.isRunning
    case .profile(let profile): profile.dialog?.phase.isRunning ?? false
    }
  }
}

public enum Screen: Equatable, Sendable {
  case getStarted(GetStartedForm)
  case login(LoginForm)
  case signup(SignupForm)
  case profile(ProfileScreen)

  /// Which screen this is, without its data.
  public var kind: ScreenKind {
    switch self {
    case .getStarted: .getStarted
    case .login: .login
    case .signup: .signup
    case .profile: .profile
    }
  }
}

public enum ScreenKind: Equatable, Sendable {
  case getStarted, login, signup, profile
}

/// What the session store found at launch.
public enum RestoredSession: Equatable, Sendable {
  /// No session: start on Get started.
  case none
  case valid(Session)
  /// A session was there but was expired, tampered with or unreadable.
  case invalid
}
