import MyworkoutCore

/// The keys every form shares (SPEC §5), wrapped into the screen's own actions. A screen names
/// only what differs: the word for Enter, whether it has a password and a way back.
enum FormKeys {
  struct Options {
    /// The footer's word for Enter: `next` on Get started, `select` elsewhere.
    var enter = "select"
    /// Whether a password field can be revealed, and whether it is now.
    var password: Bool?
    /// The footer's word for Esc at rest (`back`, `close`), or nil when Esc only cancels.
    var escape: String?
  }

  static func map(
    focus: ControlKind, busy: Bool, options: Options,
    _ wrap: @escaping @Sendable (FormAction) -> Action
  ) -> KeyMap {
    // While a request runs only Esc (and quitting) do anything: the footer says so.
    func hint(_ keys: String, _ action: String, essential: Bool = true) -> Hint? {
      busy ? nil : Hint(keys: keys, action: action, isEssential: essential)
    }
    var map = KeyMap(
      [
        KeyBinding(
          [.tab, .down], hint("Tab/↑↓", "move", essential: false), wrap(.focusMoved(.forward))),
        KeyBinding([.backTab, .up], wrap(.focusMoved(.backward))),
        KeyBinding(
          [.enter], hint("Enter", options.enter, essential: options.enter != "select"),
          wrap(.enterPressed)),
      ],
      typing: { character in
        switch focus {
        case .text, .secureText: wrap(.textEdited(.insert(String(character))))
        case .picker: character == " " ? wrap(.pickerStepped(.forward)) : nil
        case .button: character == " " ? wrap(.enterPressed) : nil
        }
      },
      pasting: { wrap(.pasted($0)) })
    if focus == .picker {
      map.append(KeyBinding([.right], hint("←/→", "gender"), wrap(.pickerStepped(.forward))))
      map.append(KeyBinding([.left], wrap(.pickerStepped(.backward))))
    } else {
      map.append(KeyBinding([.left], wrap(.textEdited(.moveLeft))))
      map.append(KeyBinding([.right], wrap(.textEdited(.moveRight))))
    }
    if let revealed = options.password {
      map.append(
        KeyBinding(
          [.control("r")], hint("Ctrl-R", revealed ? "hide password" : "show password"),
          wrap(.revealToggled)))
    }
    let escape: Hint? =
      busy
      ? Hint(keys: "Esc", action: "cancel request")
      : options.escape.map { Hint(keys: "Esc", action: $0) }
    map.append(KeyBinding([.escape], escape, wrap(.escapePressed)))
    map.bindings += [
      KeyBinding([.backspace], wrap(.textEdited(.deleteBackward))),
      KeyBinding([.delete], wrap(.textEdited(.deleteForward))),
      KeyBinding([.home, .control("a")], wrap(.textEdited(.moveToStart))),
      KeyBinding([.end, .control("e")], wrap(.textEdited(.moveToEnd))),
      KeyBinding([.control("u")], wrap(.textEdited(.deleteToStart))),
    ]
    return map
  }
}
