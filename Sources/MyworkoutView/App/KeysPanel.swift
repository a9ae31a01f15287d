import MyworkoutCore

/// The `Keys` panel (SPEC §10): every key of the current screen, over its content; `?`, F1 or
/// Esc close it.
enum KeysPanel {
  static let keys = KeyMap([
    KeyBinding(
      [.escape, .character("?"), .function(1), .enter], Hint(keys: "Esc", action: "close"),
      .keysPanelToggled),
    KeyBinding([.control("c")], Hint(keys: "Ctrl-C", action: "quit"), .interruptPressed),
  ])

  static func draw(_ help: [Hint], into grid: inout Grid, area: Rect) {
    guard area.width >= 12, area.height >= 4 else { return }
    let keyWidth = min(16, help.map { DisplayWidth.of($0.keys) }.max() ?? 0)
    let textWidth = help.map { DisplayWidth.of($0.action) }.max() ?? 0
    let width = min(area.width, keyWidth + textWidth + 7)
    let height = min(area.height, help.count + 4)
    let box = Rect(
      x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width,
      height: height)
    let inside = Frame.draw(box, title: "Keys", into: &grid)
    for (index, hint) in help.prefix(inside.height).enumerated() {
      grid.put(hint.keys, row: index, column: 1, in: inside, style: .heading)
      grid.put(hint.action, row: index, column: keyWidth + 3, in: inside, style: .normal)
    }
  }
}

/// A box drawn with line characters, its title in the top border; returns the inside, with a
/// blank row under the title.
enum Frame {
  static func draw(_ box: Rect, title: String, into grid: inout Grid) -> Rect {
    guard box.width >= 2, box.height >= 2 else { return Rect(width: 0, height: 0) }
    grid.fill(box, style: .normal)
    let horizontal = String(repeating: "─", count: box.width - 2)
    grid.put("┌" + horizontal + "┐", row: box.y, column: box.x, style: .border)
    grid.put("└" + horizontal + "┘", row: box.maxY - 1, column: box.x, style: .border)
    for row in (box.y + 1)..<(box.maxY - 1) {
      grid.put("│", row: row, column: box.x, style: .border)
      grid.put("│", row: row, column: box.maxX - 1, style: .border)
    }
    grid.put(" \(title) ", row: box.y, column: box.x + 2, style: .heading)
    return box.inset(top: 2, left: 1, bottom: 1, right: 1)
  }
}
