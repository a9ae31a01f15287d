import MyworkoutCore

/// The keys every form shares (SPEC §5), wrapped into the screen's own actions. A screen names
/// only what differs: the word for Enter, whether it has a password and a way back.
enum FormKeys {
  /// The forms, each with the screen action its form actions travel in.
  enum Form: Hashable, Sendable {
    case getStarted, login, signup, profileDialog, classesModal

    var wrap: @Sendable (FormAction) -> Action {
      switch self {
      case .getStarted: { .getStarted(.form($0)) }
      case .login: { .login(.form($0)) }
      case .signup: { .signup(.form($0)) }
      case .profileDialog: { .profile(.form($0)) }
      case .classesModal: { .classes(.modal(.form($0))) }
      }
    }
  }

  struct Options: Hashable, Sendable {
    /// The footer's word for Enter: `next` on Get started, `select` elsewhere.
    var enter = "select"
    /// Whether a password field can be revealed, and whether it is now.
    var password: Bool?
    /// The footer's word for Esc at rest (`back`, `close`), or nil when Esc only cancels.
    var escape: String?
  }

  /// What a form's key map is made from: nothing else (not the text typed), so that a map once
  /// made serves every later key with the same focus, which is most keys.
  private struct Inputs: Hashable, Sendable {
    var form: Form
    var focus: ControlKind
    var busy: Bool
    var options: Options
  }

  /// The maps made so far: a handful (forms × focus kinds × busy × options).
  private static let made = Remembered<Inputs, KeyMap>()

  static func map(_ form: Form, focus: ControlKind, busy: Bool, options: Options) -> KeyMap {
    made.value(for: Inputs(form: form, focus: focus, busy: busy, options: options)) {
      make(focus: focus, busy: busy, options: options, form.wrap)
    }
  }

  private static func make(
    focus: ControlKind, busy: Bool, options: Options,
    _ wrap: @escaping @Sendable (FormAction) -> Action
  ) -> KeyMap {
    /// A binding whose hint shows in the footer only at rest (while a request runs, only Esc
    /// and quitting do anything, and the footer says so); the `Keys` panel always lists it.
    func binding(_ keys: [Key], _ hint: Hint, _ action: FormAction, help: Hint? = nil)
      -> KeyBinding
    {
      KeyBinding(keys, busy ? nil : hint, wrap(action), help: help ?? hint)
    }
    func help(_ keys: String, _ action: String) -> Hint { Hint(keys: keys, action: action) }
    var map = KeyMap(
      [
        // The footer's `Tab/↑↓ move` stands for both ways; the panel lists moving back on its
        // own line, so it names ↑ only there.
        binding(
          [.tab, .down], Hint(keys: "Tab/↑↓", action: "move", isEssential: false),
          .focusMoved(.forward), help: help("Tab/↓", "move")),
        KeyBinding(
          [.backTab, .up], wrap(.focusMoved(.backward)), help: help("Shift-Tab/↑", "move back")),
        binding(
          [.enter],
          Hint(keys: "Enter", action: options.enter, isEssential: options.enter != "select"),
          .enterPressed),
      ],
      typing: { character in
        switch focus {
        case .text, .secureText: wrap(.textEdited(.insert(String(character))))
        case .picker: character == " " ? wrap(.pickerStepped(.forward)) : nil
        case .button: character == " " ? wrap(.enterPressed) : nil
        }
      },
      pasting: { wrap(.pasted($0)) }, takesText: focus == .text || focus == .secureText)
    if focus == .picker {
      map.append(binding([.right], Hint(keys: "←/→", action: "gender"), .pickerStepped(.forward)))
      map.append(KeyBinding([.left], wrap(.pickerStepped(.backward))))
    } else {
      map.append(
        KeyBinding([.left], wrap(.textEdited(.moveLeft)), help: help("←/→", "move the cursor")))
      map.append(KeyBinding([.right], wrap(.textEdited(.moveRight))))
    }
    if let revealed = options.password {
      map.append(
        binding(
          [.control("r")],
          Hint(
            keys: "Ctrl-R", action: revealed ? "hide password" : "show password",
            shortAction: revealed ? "hide" : "show"),
          .revealToggled))
    }
    let escape: Hint? =
      busy
      ? Hint(keys: "Esc", action: "cancel request")
      : options.escape.map { Hint(keys: "Esc", action: $0) }
    map.append(
      KeyBinding(
        [.escape], escape, wrap(.escapePressed), help: escape ?? help("Esc", "cancel a request")))
    map.bindings += [
      KeyBinding(
        [.backspace], wrap(.textEdited(.deleteBackward)), help: help("Backspace", "delete back")),
      KeyBinding(
        [.delete], wrap(.textEdited(.deleteForward)), help: help("Delete", "delete forward")),
      KeyBinding(
        [.home, .control("a")], wrap(.textEdited(.moveToStart)),
        help: help("Home/Ctrl-A", "start of field")),
      KeyBinding(
        [.end, .control("e")], wrap(.textEdited(.moveToEnd)),
        help: help("End/Ctrl-E", "end of field")),
      KeyBinding(
        [.control("u")], wrap(.textEdited(.deleteToStart)),
        help: help("Ctrl-U", "clear to the start")),
    ]
    return map
  }
}
