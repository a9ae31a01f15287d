import MyworkoutCore

/// Lessons' keys: with a blank, typing goes into it (←/→, Home/End, Backspace, Delete, Ctrl-U
/// edit it) and Enter is Next; without one Enter or Space is Next; on Done they start over;
/// after a failed load they try again. Esc goes back to Profile from everywhere.
enum LessonsKeys {
  static func map(_ state: LessonsState) -> KeyMap {
    let back = KeyBinding(
      [.escape], Hint(keys: "Esc", action: "back"), .lessons(.escapePressed),
      help: Hint(keys: "Esc", action: "back to Profile"))
    switch state.stage {
    case .loading:
      return KeyMap([
        KeyBinding(
          [.escape], Hint(keys: "Esc", action: "back"), .lessons(.escapePressed),
          help: Hint(keys: "Esc", action: "stop loading, back to Profile"))
      ])
    case .failed:
      return KeyMap([
        KeyBinding(
          [.enter, .character(" ")], Hint(keys: "Enter", action: "try again"),
          .lessons(.retryPressed)),
        back,
      ])
    case .done:
      return KeyMap([
        KeyBinding(
          [.enter, .character(" ")], Hint(keys: "Enter", action: "start over"),
          .lessons(.startOverPressed)),
        back,
      ])
    case .lesson:
      guard state.currentLesson?.hasInput == true else {
        return KeyMap([
          KeyBinding(
            [.enter, .character(" ")], Hint(keys: "Enter", action: "next"),
            .lessons(.nextPressed)),
          back,
        ])
      }
      return blankKeys(back: back)
    }
  }

  /// A lesson with a blank: the keys of a text field, and Enter for Next.
  private static func blankKeys(back: KeyBinding) -> KeyMap {
    let edit: (TextEdit) -> Action = { .lessons(.answerEdited($0)) }
    func help(_ keys: String, _ action: String) -> Hint { Hint(keys: keys, action: action) }
    return KeyMap(
      [
        KeyBinding(
          [.enter], Hint(keys: "Enter", action: "next"), .lessons(.nextPressed),
          help: help("Enter", "check the answer (Next)")),
        back,
        KeyBinding([.left], edit(.moveLeft), help: help("←/→", "move the cursor")),
        KeyBinding([.right], edit(.moveRight)),
        KeyBinding([.home, .control("a")], edit(.moveToStart), help: help("Home/Ctrl-A", "start")),
        KeyBinding([.end, .control("e")], edit(.moveToEnd), help: help("End/Ctrl-E", "end")),
        KeyBinding([.backspace], edit(.deleteBackward), help: help("Backspace", "delete back")),
        KeyBinding([.delete], edit(.deleteForward), help: help("Delete", "delete forward")),
        KeyBinding([.control("u")], edit(.deleteToStart), help: help("Ctrl-U", "clear to start")),
      ],
      typing: { .lessons(.answerEdited(.insert(String($0)))) },
      pasting: { .lessons(.answerPasted($0)) }, takesText: true)
  }
}
