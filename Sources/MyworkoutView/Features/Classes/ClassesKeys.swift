import MyworkoutCore

/// Classes' keys (SPEC §11): typing goes to the search field; ↑/↓, PgUp/PgDn, Home/End move in
/// the list; Enter opens; Esc clears the search, else goes back. Signed out, the `Log in to
/// watch` modal takes the keys while it is open.
enum ClassesKeys {
  /// Rows PgUp/PgDn move.
  static let page = 10

  static func map(_ state: ClassesState, signedIn: Bool) -> KeyMap {
    if let modal = state.modal {
      return FormKeys.map(
        .classesModal, focus: modal.form.focus.kind, busy: modal.form.phase.isRunning,
        options: .init(password: modal.form.revealsPassword, escape: "close"))
    }
    let inList = state.focus == .list
    let search: (TextEdit) -> Action = { .classes(.searchEdited($0)) }
    func help(_ keys: String, _ action: String) -> Hint { Hint(keys: keys, action: action) }
    var bindings = [
      KeyBinding(
        [.down], Hint(keys: "↑↓", action: "move", isEssential: false),
        .classes(.selectionMoved(by: 1)),
        help: help("↑/↓", "move in the list (Down from the field enters it)")),
      KeyBinding([.up], .classes(.selectionMoved(by: -1))),
      KeyBinding(
        [.enter], Hint(keys: "Enter", action: signedIn ? "open" : "watch"), .classes(.enterPressed),
        help: help("Enter", "open the selected class (from the field: the first)")),
      KeyBinding(
        [.escape], Hint(keys: "Esc", action: state.search.text.isEmpty ? "back" : "clear"),
        .classes(.escapePressed), help: help("Esc", "clear the search, else go back")),
      KeyBinding(
        [.pageDown], .classes(.selectionMoved(by: page)), help: help("PgUp/PgDn", "move a page")),
      KeyBinding([.pageUp], .classes(.selectionMoved(by: -page))),
      KeyBinding([.tab, .backTab], .classes(.focusToggled), help: help("Tab", "field ⇄ list")),
    ]
    if inList {
      bindings += [
        KeyBinding(
          [.home], .classes(.selectionMovedToEnd(last: false)),
          help: help("Home/End", "first/last class")),
        KeyBinding([.end], .classes(.selectionMovedToEnd(last: true))),
      ]
    } else {
      bindings += [
        KeyBinding([.left], search(.moveLeft), help: help("←/→ Home End", "move in the field")),
        KeyBinding([.right], search(.moveRight)),
        KeyBinding([.home, .control("a")], search(.moveToStart)),
        KeyBinding([.end, .control("e")], search(.moveToEnd)),
      ]
    }
    bindings += [
      KeyBinding(
        [.backspace], search(.deleteBackward), help: help("Backspace", "delete in the field")),
      KeyBinding([.delete], search(.deleteForward)),
      KeyBinding([.control("u")], search(.deleteToStart), help: help("Ctrl-U", "clear the field")),
    ]
    return KeyMap(
      bindings,
      typing: { character in
        // `?` on the list opens the keys panel (bound before typing); anything else searches.
        .classes(.searchEdited(.insert(String(character))))
      },
      pasting: { .classes(.searchPasted($0)) }, takesText: !inList)
  }
}
