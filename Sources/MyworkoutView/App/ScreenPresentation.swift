import MyworkoutCore

/// A screen as the terminal presents it: what it draws and which keys it takes.
struct ScreenPresentation {
  enum Content {
    /// Rows laid out from the top; compacted and scrolled to keep the focus in view.
    case rows((_ spinnerFrame: Int, _ metrics: Metrics) -> Body)
    /// Drawn straight into the content rectangle; returns where the cursor stands, if shown.
    case canvas((_ grid: inout Grid, _ area: Rect, _ spinnerFrame: Int) -> Position?)
  }

  var content: Content
  var keys: KeyMap
}

extension Screen {
  /// The one routing switch of the view side: a new screen adds its case here (its view and
  /// key map live in its feature folder).
  var presentation: ScreenPresentation {
    switch self {
    case .getStarted(let form):
      ScreenPresentation(
        content: .rows { GetStartedView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: GetStartedKeys.map(form))
    case .login(let form):
      ScreenPresentation(
        content: .rows { LoginView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: LoginKeys.map(form))
    case .signup(let form):
      ScreenPresentation(
        content: .rows { SignupView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: SignupKeys.map(form))
    case .sessionExpired(let screen):
      ScreenPresentation(
        content: .rows { SessionExpiredView.body(screen, metrics: $1) },
        keys: SessionExpiredKeys.map(screen))
    case .profile(let profile, let session):
      ScreenPresentation(
        content: .rows {
          ProfileView.body(profile, session: session, spinnerFrame: $0, metrics: $1)
        },
        keys: ProfileKeys.map(profile))
    case .classes(let classes, let signedIn):
      ScreenPresentation(
        content: .canvas {
          ClassesView.draw(classes, signedIn: signedIn, into: &$0, area: $1, spinnerFrame: $2)
        },
        keys: ClassesKeys.map(classes, signedIn: signedIn))
    case .classPage(let page):
      ScreenPresentation(
        content: .rows { ClassPageView.body(page, metrics: $1) }, keys: ClassPageKeys.map(page))
    case .lessons(let lessons):
      ScreenPresentation(
        content: .rows { LessonsView.body(lessons, spinnerFrame: $0, metrics: $1) },
        keys: LessonsKeys.map(lessons))
    }
  }
}

/// Which action a key means in the current state, and the footer that tells the person: both
/// from the screen's key map, plus the keys that work everywhere.
package enum KeyBindings {
  package static func keyMap(for state: AppState) -> KeyMap {
    if state.showsKeys { return KeysPanel.keys }
    return withGlobalKeys(state.screen.presentation.keys, signedIn: state.session != nil)
  }

  /// A screen's key map with the keys that work on every screen after its own: the `Keys`
  /// panel, Ctrl-O on signed-in screens (the header line names it), and Ctrl-C.
  static func withGlobalKeys(_ screenKeys: KeyMap, signedIn: Bool) -> KeyMap {
    var map = screenKeys
    if signedIn {
      map.append(
        KeyBinding(
          [.control("o")], .logOutPressed, help: Hint(keys: "Ctrl-O", action: "log out")))
    }
    map.append(
      KeyBinding(
        screenKeys.takesText ? [.function(1)] : [.character("?"), .function(1)],
        Hint(keys: screenKeys.takesText ? "F1" : "?", action: "keys", isEssential: false),
        .keysPanelToggled, help: Hint(keys: "?/F1", action: "all keys (this panel)")))
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
