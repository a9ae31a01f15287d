import MyworkoutCore

/// The `Keys` panel (SPEC §10): every key of the current screen, over its content; `?`, F1 or
/// Esc close it. Descriptions wrap at words to the panel's width, and when the lines do not
/// all fit, the panel scrolls like every list (↑/↓, PgUp/PgDn, Home/End, the wheel) and its
/// border says there is more.
enum KeysPanel {
  /// One line of the panel: the keys on the first line of their description.
  struct Line: Equatable {
    var keys: String?
    var text: String
  }

  /// Where the panel stands in `area`, and its lines as they wrap there.
  struct Layout {
    var box: Rect
    var inside: Rect
    var keyWidth: Int
    var lines: [Line]

    /// The lines in view at once.
    var visible: Int { max(0, inside.height) }
    /// The last useful first line.
    var lastScroll: Int { max(0, lines.count - visible) }

    init(_ help: [Hint], area: Rect) {
      keyWidth = min(16, help.map { DisplayWidth.of($0.keys) }.max() ?? 0)
      let textWidth = help.map { DisplayWidth.of($0.action) }.max() ?? 0
      let width = min(area.width, keyWidth + textWidth + 7)
      // Inside the border: a space, the keys, two spaces, the text, a space.
      let room = max(1, width - 2 - keyWidth - 4)
      lines = help.flatMap { hint in
        TextBlock.wrap(hint.action, width: room).enumerated().map { index, text in
          Line(keys: index == 0 ? hint.keys : nil, text: text)
        }
      }
      let height = min(area.height, lines.count + 4)
      box = Rect(
        x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
        width: width, height: height)
      inside = box.inset(top: 2, left: 1, bottom: 1, right: 1)
    }

    /// `scroll` kept within the lines.
    func clamped(_ scroll: Int) -> Int { min(max(0, scroll), lastScroll) }
  }

  /// The panel's keys: close, quit, scrolling to a line worked out from its layout in `area`
  /// (the screen's content) for the screen's `help`, and, on a signed-in screen, Ctrl-O: it
  /// logs out from any signed-in screen (SPEC §10), so the panel does not stand in its way.
  static func keys(help: [Hint], area: Rect, scroll: Int, signedIn: Bool) -> KeyMap {
    let layout = Layout(help, area: area)
    let now = layout.clamped(scroll)
    let page = max(1, layout.visible - 1)
    var bindings = [
      KeyBinding(
        [.escape, .character("?"), .function(1), .enter], Hint(keys: "Esc", action: "close"),
        .keysPanelToggled)
    ]
    if layout.lastScroll > 0 {
      bindings += [
        KeyBinding(
          [.down], Hint(keys: "↑↓", action: "scroll"),
          .keysPanelScrolled(to: layout.clamped(now + 1))),
        KeyBinding([.up], .keysPanelScrolled(to: layout.clamped(now - 1))),
        KeyBinding(
          [.pageDown, .character(" ")], .keysPanelScrolled(to: layout.clamped(now + page))),
        KeyBinding([.pageUp], .keysPanelScrolled(to: layout.clamped(now - page))),
        KeyBinding([.home], .keysPanelScrolled(to: 0)),
        KeyBinding([.end], .keysPanelScrolled(to: layout.lastScroll)),
      ]
    }
    if signedIn { bindings.append(KeyBinding([.control("o")], .logOutPressed)) }
    bindings.append(
      KeyBinding([.control("c")], Hint(keys: "Ctrl-C", action: "quit"), .interruptPressed))
    var map = KeyMap(bindings)
    if layout.lastScroll > 0 {
      map.mouse = { event in
        switch event.kind {
        case .wheelDown: .keysPanelScrolled(to: layout.clamped(now + 3))
        case .wheelUp: .keysPanelScrolled(to: layout.clamped(now - 3))
        case .press: nil
        }
      }
    }
    return map
  }

  static func draw(_ help: [Hint], scroll: Int, into grid: inout Grid, area: Rect) {
    guard area.width >= 12, area.height >= 4 else { return }
    let layout = Layout(help, area: area)
    let first = layout.clamped(scroll)
    let inside = Frame.draw(layout.box, title: "Keys", into: &grid)
    for (index, line) in layout.lines.dropFirst(first).prefix(layout.visible).enumerated() {
      if let keys = line.keys {
        grid.put(
          TextBlock.truncated(keys, width: layout.keyWidth), row: index, column: 1, in: inside,
          style: .heading)
      }
      grid.put(line.text, row: index, column: layout.keyWidth + 3, in: inside, style: .normal)
    }
    // The border says when there is more above or below.
    let box = layout.box
    if first > 0, box.width >= 14 {
      grid.put(" ↑ more ", row: box.y, column: box.maxX - 10, style: .hint)
    }
    if first < layout.lastScroll, box.width >= 14 {
      grid.put(" ↓ more ", row: box.maxY - 1, column: box.maxX - 10, style: .hint)
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
