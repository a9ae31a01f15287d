import MyworkoutCore

/// A screen as the terminal presents it: what it draws and which keys it takes.
struct ScreenPresentation {
  enum Content {
    /// Rows laid out from the top; compacted and scrolled to keep the focus in view.
    case rows(@Sendable (_ spinnerFrame: Int, _ metrics: Metrics) -> Body)
    /// Drawn straight into the content rectangle; returns where the cursor stands, if shown.
    case canvas((_ grid: inout Grid, _ area: Rect, _ spinnerFrame: Int) -> Position?)
  }

  var content: Content
  var keys: KeyMap
  /// What a mouse event at a cell means, given where the content is laid out.
  var mouse: (@Sendable (_ event: MouseEvent, _ area: Rect) -> Action?)?

  /// Rows content whose focus stops a click focuses (and, on a button, activates): `click` is
  /// the screen's action for the stop at a place in its focus order.
  init(
    rows body: @escaping @Sendable (_ spinnerFrame: Int, _ metrics: Metrics) -> Body,
    keys: KeyMap, click: (@Sendable (Int) -> Action?)? = nil
  ) {
    content = .rows(body)
    self.keys = keys
    guard let click else {
      mouse = nil
      return
    }
    mouse = { @Sendable (event: MouseEvent, area: Rect) -> Action? in
      guard event.kind == .press else { return nil }
      let drawn = body(0, Metrics(width: area.width))
      guard let stop = BodyLayout.stop(at: event.position, in: drawn, area: area) else {
        return nil
      }
      return click(stop)
    }
  }

  init(
    content: Content, keys: KeyMap,
    mouse: (@Sendable (_ event: MouseEvent, _ area: Rect) -> Action?)? = nil
  ) {
    self.content = content
    self.keys = keys
    self.mouse = mouse
  }
}

extension Screen {
  /// The one routing switch of the view side: a new screen adds its case here (its view and
  /// key map live in its feature folder).
  var presentation: ScreenPresentation {
    switch self {
    case .getStarted(let form):
      ScreenPresentation(
        rows: { GetStartedView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: GetStartedKeys.map(form), click: { .getStarted(.form(.stopClicked($0))) })
    case .login(let form):
      ScreenPresentation(
        rows: { LoginView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: LoginKeys.map(form), click: { .login(.form(.stopClicked($0))) })
    case .signup(let form):
      ScreenPresentation(
        rows: { SignupView.body(form, spinnerFrame: $0, metrics: $1) },
        keys: SignupKeys.map(form), click: { .signup(.form(.stopClicked($0))) })
    case .sessionExpired(let screen):
      ScreenPresentation(
        rows: { SessionExpiredView.body(screen, metrics: $1) },
        keys: SessionExpiredKeys.map(screen),
        click: { _ in .sessionExpiredScreen(.logInAgainPressed) })
    case .profile(let profile, let session):
      ScreenPresentation(
        rows: { ProfileView.body(profile, session: session, spinnerFrame: $0, metrics: $1) },
        keys: ProfileKeys.map(profile), click: { .profile(.form(.stopClicked($0))) })
    case .classes(let classes, let signedIn):
      ScreenPresentation(
        content: .canvas {
          ClassesView.draw(classes, signedIn: signedIn, into: &$0, area: $1, spinnerFrame: $2)
        },
        keys: ClassesKeys.map(classes, signedIn: signedIn),
        mouse: { ClassesView.action(for: $0, in: classes, area: $1) })
    case .player(let player):
      ScreenPresentation(
        content: .canvas { grid, area, _ in PlayerView.draw(player, into: &grid, area: area) },
        keys: PlayerKeys.map(player),
        mouse: { PlayerView.action(for: $0, in: player, area: $1) })
    case .lessons(let lessons):
      ScreenPresentation(
        rows: { LessonsView.body(lessons, spinnerFrame: $0, metrics: $1) },
        keys: LessonsKeys.map(lessons),
        // Its one button (Next, Start over or Try again) does what Enter does.
        click: { _ in LessonsKeys.map(lessons).action(for: .enter) })
    case .images(let images):
      ScreenPresentation(
        content: .canvas { ImagesView.draw(images, into: &$0, area: $1, spinnerFrame: $2) },
        keys: ImagesKeys.map(images), mouse: { ImagesView.action(for: $0, in: images, area: $1) })
    }
  }
}

/// Which action a key means in the current state, and the footer that tells the person: both
/// from the screen's key map, plus the keys that work everywhere.
package enum KeyBindings {
  /// The keys of the screen on top; with the terminal's size, mouse events are hit-tested
  /// against the same layout the screen is drawn with.
  package static func keyMap(for state: AppState, width: Int = 0, height: Int = 0) -> KeyMap {
    keyMap(
      for: state, presentation: state.screen.presentation,
      content: Renderer.contentArea(for: state, width: width, height: height))
  }

  /// The key map of `state`, whose screen's presentation the caller has made already, with
  /// its content laid out in `content` (worked out only when the map needs it).
  static func keyMap(
    for state: AppState, presentation: ScreenPresentation, content: @autoclosure () -> Rect
  ) -> KeyMap {
    if let confirmation = state.logOutConfirmation {
      return LogOutConfirmationView.keys(confirmation)
    }
    if state.showsKeys {
      let help = panelHelp(presentation.keys, signedIn: state.session != nil)
      return KeysPanel.keys(
        help: help, area: content(), scroll: state.keysScroll, signedIn: state.session != nil)
    }
    var map = withGlobalKeys(presentation.keys, signedIn: state.session != nil)
    if let mouse = presentation.mouse {
      let area = content()
      map.mouse = { mouse($0, area) }
    }
    return map
  }

  /// A screen's key map with the keys that work on every screen after its own: the `Keys`
  /// panel, Ctrl-O on signed-in screens (the header line names it), and Ctrl-C.
  static func withGlobalKeys(_ screenKeys: KeyMap, signedIn: Bool) -> KeyMap {
    var map = screenKeys
    map.globals = globals[(signedIn ? 2 : 0) + (screenKeys.takesText ? 1 : 0)]
    return map
  }

  /// The global keys for each of signed out and in, without and with a text field focused.
  private static let globals = [false, true].flatMap { signedIn in
    [false, true].map { takesText in globalKeys(signedIn: signedIn, takesText: takesText) }
  }

  private static func globalKeys(signedIn: Bool, takesText: Bool) -> [KeyBinding] {
    var keys: [KeyBinding] = []
    if signedIn {
      keys.append(
        KeyBinding(
          [.control("o")], .logOutPressed, help: Hint(keys: "Ctrl-O", action: "log out")))
    }
    // The footer names the panel's key on every screen (SPEC §10): `?`, or F1 while a text
    // field has the focus (`?` is typed there). Both take the same width, so that moving the
    // focus between a field and a button does not shift the rest of the footer (and redraw it).
    keys.append(
      KeyBinding(
        takesText ? [.function(1)] : [.character("?"), .function(1)],
        Hint(keys: takesText ? "F1" : "?", action: "keys", isPinned: true, width: 7),
        .keysPanelToggled,
        help: Hint(keys: "?/F1", action: "all keys (this panel; F1 in a text field)")))
    keys.append(
      KeyBinding([.control("c")], Hint(keys: "Ctrl-C", action: "quit"), .interruptPressed))
    return keys
  }

  /// What the `Keys` panel lists: the screen's keys with the global ones, and Ctrl-Z just
  /// before Ctrl-C. Ctrl-Z is no binding (the runtime takes it before the screen's keys and
  /// stops the job on every screen, SPEC §5), but it is a key of every screen all the same.
  static func panelHelp(_ screenKeys: KeyMap, signedIn: Bool) -> [Hint] {
    var help = withGlobalKeys(screenKeys, signedIn: signedIn).help
    let quit = help.firstIndex { $0.keys == "Ctrl-C" } ?? help.endIndex
    help.insert(Hint(keys: "Ctrl-Z", action: "suspend"), at: quit)
    return help
  }

  package static func action(for key: Key, in state: AppState, width: Int = 0, height: Int = 0)
    -> Action?
  {
    keyMap(for: state, width: width, height: height).action(for: key)
  }

  package static func hints(for state: AppState) -> [Hint] {
    keyMap(for: state).hints
  }
}
