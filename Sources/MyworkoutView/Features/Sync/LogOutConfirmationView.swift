import MyworkoutCore

/// The question asked before logging out with changes not yet on the server (SPEC §18), in a
/// box over the screen like the `Keys` panel: the question, wrapped, and two buttons, the
/// focused one marked `▸`. Either answer keeps the changes.
enum LogOutConfirmationView {
  /// The box, centred in `area`, and the question's lines.
  struct Layout {
    var box: Rect
    var lines: [String]
    /// The buttons, one row each when they do not fit side by side.
    var stacked: Bool

    init(_ confirmation: LogOutConfirmation, area: Rect) {
      let width = min(area.width, 56)
      let room = max(1, width - 4)
      lines = TextBlock.wrap(confirmation.question, width: room)
      let buttons = LogOutConfirmationView.labels.map { DisplayWidth.of($0) + 1 }
      stacked = buttons.reduce(0, +) + 2 > room
      // Border, blank under the title, the lines, a blank, the buttons, border.
      let height = min(area.height, lines.count + (stacked ? 2 : 1) + 4)
      box = Rect(
        x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
        width: width, height: height)
    }
  }

  static let labels = [
    "[ \(LogOutConfirmation.logOutTitle) ]", "[ \(LogOutConfirmation.stayTitle) ]",
  ]

  static func draw(_ confirmation: LogOutConfirmation, into grid: inout Grid, area: Rect) {
    guard area.width >= 12, area.height >= 4 else { return }
    let layout = Layout(confirmation, area: area)
    let inside = Frame.draw(layout.box, title: LogOutConfirmation.logOutTitle, into: &grid)
    // On a short terminal the buttons keep their place and the question gives way.
    let buttonRows = layout.stacked ? 2 : 1
    let room = max(0, inside.height - buttonRows - 1)
    for (index, line) in layout.lines.prefix(room).enumerated() {
      grid.put(" " + line, row: index, column: 0, in: inside, style: .normal)
    }
    let first = min(layout.lines.count, room) + (inside.height > buttonRows ? 1 : 0)
    let focused: [LogOutConfirmation.Button] = [.logOut, .stay]
    var column = 1
    for (index, label) in labels.enumerated() {
      let row = layout.stacked ? first + index : first
      if layout.stacked { column = 1 }
      if focused[index] == confirmation.focus {
        grid.put("▸", row: row, column: column - 1, in: inside, style: .normal)
      }
      column = grid.put(label, row: row, column: column, in: inside, style: .button) + 2
    }
  }

  /// Its keys: Tab and ←/→ move between the buttons, Enter presses the focused one, `y` logs
  /// out, `n` and Esc stay; Ctrl-C still quits (the changes stay in the outbox).
  static func keys(_ confirmation: LogOutConfirmation) -> KeyMap {
    KeyMap([
      KeyBinding(
        [.enter], Hint(keys: "Enter", action: "choose"),
        .logOutConfirmation(.pressed(confirmation.focus))),
      KeyBinding(
        [.tab, .backTab, .left, .right], Hint(keys: "Tab", action: "other button"),
        .logOutConfirmation(.focusMoved)),
      KeyBinding([.character("y")], .logOutConfirmation(.pressed(.logOut))),
      KeyBinding(
        [.escape, .character("n")], Hint(keys: "Esc", action: "stay logged in"),
        .logOutConfirmation(.pressed(.stay))),
      KeyBinding([.control("c")], Hint(keys: "Ctrl-C", action: "quit"), .interruptPressed),
    ])
  }
}
