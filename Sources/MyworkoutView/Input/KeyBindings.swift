public import MyworkoutCore

/// Which action a key means on the current screen, and the footer that tells the person.
public enum KeyBindings {
  public static func action(for key: Key, in state: AppState) -> Action? {
    let control = state.focusedControl
    switch key {
    case .tab, .down: return .focusMoved(.forward)
    case .backTab, .up: return .focusMoved(.backward)
    case .enter: return .enterPressed
    case .escape: return .escapePressed
    case .backspace: return .textEdited(.deleteBackward)
    case .delete: return .textEdited(.deleteForward)
    case .home: return .textEdited(.moveToStart)
    case .end: return .textEdited(.moveToEnd)
    case .left: return control == .picker ? .pickerStepped(.backward) : .textEdited(.moveLeft)
    case .right: return control == .picker ? .pickerStepped(.forward) : .textEdited(.moveRight)
    case .paste(let text): return .pasted(text)
    case .control(let letter): return controlAction(letter)
    case .character(let character):
      if state.lettersAreCommands { return letterCommand(character) }
      switch control {
      case .text, .secureText: return .textEdited(.insert(String(character)))
      case .picker: return character == " " ? .pickerStepped(.forward) : nil
      case .button: return character == " " ? .enterPressed : nil
      }
    }
  }

  private static func controlAction(_ letter: Character) -> Action? {
    switch letter {
    case "r": .revealToggled
    case "a": .textEdited(.moveToStart)
    case "e": .textEdited(.moveToEnd)
    case "u": .textEdited(.deleteToStart)
    default: nil
    }
  }

  private static func letterCommand(_ character: Character) -> Action? {
    switch character {
    case "e", "E": .editNumberPressed
    case "l", "L": .logOutPressed
    case "q", "Q": .quitPressed
    case " ": .enterPressed
    default: nil
    }
  }

  /// The keys that work on the current screen, for the footer line.
  public static func hints(for state: AppState) -> [Hint] {
    let move = Hint(keys: "Tab/↑↓", action: "move", isEssential: false)
    let select = Hint(keys: "Enter", action: "select", isEssential: false)
    let quit = Hint(keys: "Ctrl-C", action: "quit")
    if state.isBusy {
      return [Hint(keys: "Esc", action: "cancel request"), quit]
    }
    switch state.screen {
    case .getStarted:
      return [move, Hint(keys: "Enter", action: "next"), quit]
    case .login:
      return [
        move, select, Hint(keys: "Ctrl-R", action: "show password"),
        Hint(keys: "Esc", action: "back"), quit,
      ]
    case .signup(let form):
      var hints = [move, select]
      if form.focus == .gender { hints.append(Hint(keys: "←/→", action: "gender")) }
      hints += [
        Hint(keys: "Ctrl-R", action: "show password"), Hint(keys: "Esc", action: "back"), quit,
      ]
      return hints
    case .profile(let profile):
      if profile.dialog != nil {
        return [
          move, select, Hint(keys: "Esc", action: "close"), quit,
        ]
      }
      if profile.session == nil {
        return [Hint(keys: "Enter", action: "log in again"), Hint(keys: "q", action: "quit")]
      }
      return [
        Hint(keys: "e", action: "edit number"), Hint(keys: "l", action: "log out"),
        Hint(keys: "q", action: "quit"), move, select,
      ]
    }
  }
}

public struct Hint: Equatable, Sendable {
  public var keys: String
  public var action: String
  /// Hints that are not essential are left out first when the footer does not fit.
  public var isEssential: Bool

  public init(keys: String, action: String, isEssential: Bool = true) {
    self.keys = keys
    self.action = action
    self.isEssential = isEssential
  }

  /// The footer line: every hint that fits, leaving out the non-essential ones from the end.
  public static func line(_ hints: [Hint], width: Int) -> String {
    var shown = hints
    func text() -> String { " " + shown.map { "\($0.keys) \($0.action)" }.joined(separator: "  ") }
    while DisplayWidth.of(text()) > width, let index = shown.lastIndex(where: { !$0.isEssential }) {
      shown.remove(at: index)
    }
    return text()
  }
}
