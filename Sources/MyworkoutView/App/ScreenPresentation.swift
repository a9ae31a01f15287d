import MyworkoutCore

/// A screen as the terminal presents it: what it draws and which keys it takes.
struct ScreenPresentation {
  var body: (_ spinnerFrame: Int, _ metrics: Metrics) -> Body
  var keys: KeyMap
}

extension Screen {
  /// The one routing switch of the view side: a new screen adds its case here (its view and
  /// key map live in its feature folder).
  var presentation: ScreenPresentation {
    switch self {
    case .getStarted(let form):
      ScreenPresentation(
        body: { GetStartedView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: GetStartedKeys.map(form))
    case .login(let form):
      ScreenPresentation(
        body: { LoginView.body(form, spinnerFrame: $0, metrics: $1) }, keys: LoginKeys.map(form))
    case .signup(let form):
      ScreenPresentation(
        body: { SignupView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: SignupKeys.map(form))
    case .sessionExpired(let screen):
      ScreenPresentation(
        body: { SessionExpiredView.body(screen, metrics: $1) },
        keys: SessionExpiredKeys.map(screen))
    case .profile(let profile, let session):
      ScreenPresentation(
        body: {
          ProfileView.body(profile, session: session, spinnerFrame: $0, metrics: $1)
        },
        keys: ProfileKeys.map(profile))
    }
  }
}

/// Which action a key means in the current state, and the footer that tells the person: both
/// from the screen's key map, plus the keys that work everywhere.
package enum KeyBindings {
  package static func keyMap(for state: AppState) -> KeyMap {
    withGlobalKeys(state.screen.presentation.keys)
  }

  /// A screen's key map with the keys that work on every screen after its own.
  static func withGlobalKeys(_ screenKeys: KeyMap) -> KeyMap {
    var map = screenKeys
    map.append(KeyBinding([.control("c")], Hint(keys: "Ctrl-C", action: "quit"), .interruptPressed))
    return map
  }

  package static func action(for key: Key, in state: AppState) -> Action? {
    keyMap(for: state).action(for: key)
  }

  package static func hints(for state: AppState) -> [Hint] {
    keyMap(for: state).hints
  }
}
