import MyworkoutCore

/// Images' keys (SPEC §14): the arrows move the selection (←/→ between the columns), PgUp/PgDn
/// a screenful, Home/End to the first/last image, Enter shows it large; Esc or Backspace go
/// back (the large image to the grid, the grid to Profile), and so does ← from the large image.
enum ImagesKeys {
  static func map(_ state: ImagesState) -> KeyMap {
    func help(_ keys: String, _ action: String) -> Hint { Hint(keys: keys, action: action) }
    let back = Action.images(.backPressed)
    if state.isOpen {
      return KeyMap([
        KeyBinding(
          [.escape], Hint(keys: "Esc", action: "back to the grid"), back,
          help: help("Esc/Backspace/←", "back to the grid")),
        KeyBinding([.backspace, .left], back),
      ])
    }
    func move(_ move: ImagesAction.Move) -> Action { .images(.moved(move)) }
    return KeyMap([
      KeyBinding(
        [.left], Hint(keys: "←→↑↓", action: "move", isEssential: false), move(.left),
        help: help("←/→", "the other column")),
      KeyBinding([.right], move(.right)),
      KeyBinding([.up], move(.up), help: help("↑/↓", "a row up/down")),
      KeyBinding([.down], move(.down)),
      KeyBinding([.pageUp], move(.pageUp), help: help("PgUp/PgDn", "a screenful")),
      KeyBinding([.pageDown], move(.pageDown)),
      KeyBinding([.home], move(.first), help: help("Home/End", "first/last image")),
      KeyBinding([.end], move(.last)),
      KeyBinding(
        [.enter], Hint(keys: "Enter", action: "show large"), .images(.enterPressed),
        help: help("Enter", "show the selected image large")),
      KeyBinding(
        [.escape], Hint(keys: "Esc", action: "back"), back,
        help: help("Esc/Backspace", "back to Profile")),
      KeyBinding([.backspace], back),
    ])
  }
}
