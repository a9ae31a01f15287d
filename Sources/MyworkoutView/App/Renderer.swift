import MyworkoutCore

/// Turns the state into a frame for a terminal of the given size. Pure: no terminal needed.
///
/// Layout, in rectangles: on signed-in screens the header line (the section, the email,
/// `Ctrl-O log out`); the screen's content; the notice (if any, wrapped); and the footer with
/// the keys on the last row. The `Keys` panel, when open, is drawn over the content.
package enum Renderer {
  /// Where the screen's content is drawn (what mouse events are hit-tested against).
  static func contentArea(for state: AppState, width: Int, height: Int) -> Rect {
    if showsFullScreen(state) { return Rect(width: width, height: height) }
    return areas(state, width: width, height: height)[1]
  }

  /// Whether the Player's full view covers the whole terminal (no panel or question over it).
  private static func showsFullScreen(_ state: AppState) -> Bool {
    guard let player = state.player else { return false }
    return player.fullScreen && !state.showsKeys && state.logOutConfirmation == nil
  }

  /// The header line, the content, the notice and the footer.
  private static func areas(_ state: AppState, width: Int, height: Int) -> [Rect] {
    let headerHeight = Chrome.headerRows(signedIn: state.session != nil, height: height)
    let footerHeight = Chrome.footerRows(height: height)
    let notice = noticeLines(state, width: width, height: height).count
    return Rect(width: width, height: height).rows([
      .fixed(headerHeight), .fill(), .fixed(notice), .fixed(footerHeight),
    ])
  }

  private static func noticeLines(_ state: AppState, width: Int, height: Int) -> [String] {
    guard let notice = state.notice, height >= 6 else { return [] }
    return Array(TextBlock.wrap(notice, width: width).prefix(max(1, height / 4)))
  }

  package static func render(_ state: AppState, width: Int, height: Int) -> Grid {
    frame(state, width: width, height: height).grid
  }

  /// The frame of `state`, and the key map its footer was made from (nil when there is no
  /// footer): while the state stays as drawn, the next key means what that map says, and the
  /// runtime need not make it again (it was a sixth of a key's work).
  package static func frame(_ state: AppState, width: Int, height: Int) -> (
    grid: Grid, keys: KeyMap?
  ) {
    var grid = Grid(width: width, height: height)
    guard width > 0, height > 0 else { return (grid, nil) }
    let presentation = state.screen.presentation
    if let player = state.player, showsFullScreen(state) {
      PlayerView.drawFullScreen(player, into: &grid, area: Rect(width: width, height: height))
      return (grid, nil)
    }

    let noticeLines = Self.noticeLines(state, width: width, height: height)
    let parts = Self.areas(state, width: width, height: height)
    let (header, content, noticeArea, footer) = (parts[0], parts[1], parts[2], parts[3])

    if let session = state.session, !header.isEmpty {
      HeaderLine.draw(
        section: state.screen.kind.section, email: session.profile.email, sync: state.syncText,
        into: &grid, area: header)
    }
    switch presentation.content {
    case .rows(let body):
      grid.cursor = BodyLayout.draw(
        body(state.spinnerFrame, Metrics(width: width)), into: &grid, area: content)
    case .canvas(let draw):
      grid.cursor = draw(&grid, content, state.spinnerFrame)
    }
    if !noticeArea.isEmpty {
      grid.fill(noticeArea, style: .notice)
      for (index, line) in noticeLines.enumerated() {
        grid.put(line, row: index, column: 0, in: noticeArea, style: .notice)
      }
    }
    if state.showsKeys || state.logOutConfirmation != nil {
      // Nothing draws the video over a panel.
      grid.video = nil
    }
    if state.showsKeys {
      let help = KeyBindings.panelHelp(presentation.keys, signedIn: state.session != nil)
      KeysPanel.draw(help, scroll: state.keysScroll, into: &grid, area: content)
      grid.cursor = nil
    }
    if let confirmation = state.logOutConfirmation {
      LogOutConfirmationView.draw(confirmation, into: &grid, area: content)
      grid.cursor = nil
    }
    guard !footer.isEmpty else { return (grid, nil) }
    // The frame's own layout: the full view returned above, so the content is `content`.
    let keys = KeyBindings.keyMap(for: state, presentation: presentation, content: content)
    grid.fill(footer, style: .footer)
    grid.put(Hint.line(keys.hints, width: width), row: 0, column: 0, in: footer, style: .footer)
    return (grid, keys)
  }
}

/// Lays out a `Body`'s rows in a rectangle. When they do not fit, blank spacer rows go first;
/// then rows far from the focused control, keeping the focused control, any message or spinner
/// line, and the heading in view.
enum BodyLayout {
  /// Draws the rows that fit and returns where the cursor stands (the focused row's), if any.
  static func draw(_ body: Body, into grid: inout Grid, area: Rect) -> Position? {
    let (rows, focus) = fit(body, rows: area.height)
    var cursor: Position?
    for (index, row) in rows.enumerated() {
      for segment in row.segments {
        grid.put(segment.text, row: index, column: segment.column, in: area, style: segment.style)
      }
      if index == focus, let column = row.cursorColumn, column < area.width {
        cursor = Position(row: area.y + index, column: area.x + column)
      }
    }
    return cursor
  }

  /// The focus stop (its place in the focus order) drawn at a cell, if any: what a click hits.
  static func stop(at position: Position, in body: Body, area: Rect) -> Int? {
    guard area.contains(position) else { return nil }
    let (rows, _) = fit(body, rows: area.height)
    let index = position.row - area.y
    guard rows.indices.contains(index) else { return nil }
    let column = position.column - area.x
    return rows[index].zones.first { $0.columns.contains(column) }?.stop
  }

  /// The optional rows to leave out so that `excess` fewer rows remain (or all of them, when
  /// that is not enough): spacers from the bottom, then groups of adjacent optional rows from
  /// the top.
  private static func droppable(_ rows: [Row], focus: Int?, excess: Int) -> Set<Int> {
    let optional = rows.indices.filter { rows[$0].isOptional && $0 != focus }
    var dropped = Set<Int>()
    for index in optional.reversed() where rows[index].segments.isEmpty {
      guard dropped.count < excess else { return dropped }
      dropped.insert(index)
    }
    var groups: [[Int]] = []
    for index in optional where !rows[index].segments.isEmpty {
      if let last = groups.last?.last, last == index - 1 {
        groups[groups.count - 1].append(index)
      } else {
        groups.append([index])
      }
    }
    for group in groups {
      guard dropped.count < excess else { return dropped }
      dropped.formUnion(group)
    }
    return dropped
  }

  /// The rows that fit, and the index of the focused row among them.
  static func fit(_ body: Body, rows available: Int) -> ([Row], Int?) {
    guard available > 0 else { return ([], nil) }
    var rows = body.rows
    var focus = body.focusRow
    if rows.count > available {
      // Compact only as much as needed: blank spacers first (from the bottom up), then art and
      // hints, each a whole group at a time from the top (a logo, a wrapped hint); never half
      // of one. The focused row's index follows.
      let dropped = droppable(rows, focus: focus, excess: rows.count - available)
      var kept: [Row] = []
      var newFocus: Int?
      for (index, row) in rows.enumerated() where !dropped.contains(index) {
        if index == focus { newFocus = kept.count }
        kept.append(row)
      }
      rows = kept
      focus = newFocus
    }
    guard rows.count > available else { return (rows, focus) }
    // Keep the focused row and the pinned ones (messages, spinner), then the heading, then the
    // rows nearest the focus, in screen order.
    let target = focus ?? 0
    var keep = Set(rows.indices.filter { $0 == target || rows[$0].isPinned })
    if keep.count < available { keep.insert(0) }
    let others = rows.indices.filter { !keep.contains($0) }.sorted {
      (abs($0 - target), $0) < (abs($1 - target), $1)
    }
    for index in others where keep.count < available { keep.insert(index) }
    var chosen = keep.sorted()
    if chosen.count > available {
      // Not even the must-haves fit: the focused row and the pinned rows after it, from the top.
      chosen = Array(chosen.filter { $0 >= target }.prefix(available))
    }
    return (chosen.map { rows[$0] }, chosen.firstIndex(of: target))
  }
}

/// The header line of signed-in screens (brief 002's navigation header): the section's name,
/// the signed-in email, and `Ctrl-O log out`; in remote mode, before `Ctrl-O`, the outbox's
/// state when it is not plain (`offline — 3 changes waiting`, `syncing…`). When the line is
/// short the email gives way first: the sync state says something the person must know.
enum HeaderLine {
  static func draw(
    section: String, email: String, sync: String? = nil, into grid: inout Grid, area: Rect
  ) {
    grid.fill(area, style: .header)
    let logOut = "Ctrl-O log out "
    let logOutColumn = area.width - DisplayWidth.of(logOut)
    let end = grid.put(" \(section)", row: 0, column: 0, in: area, style: .header)
    // What is drawn right of the section: the sync state (if any) and `Ctrl-O log out`, or the
    // state alone when both do not fit; the email takes the room left between.
    var right = logOutColumn
    if let sync {
      let syncWidth = DisplayWidth.of(sync)
      if logOutColumn - 2 - syncWidth > end {
        right = logOutColumn - 2 - syncWidth
        grid.put(sync, row: 0, column: right, in: area, style: .header)
      } else if area.width - 1 - syncWidth > end {
        // No room for both: the state stays, `Ctrl-O log out` goes (the footer and `?` say it).
        grid.put(sync, row: 0, column: area.width - 1 - syncWidth, in: area, style: .header)
        return
      }
    }
    let emailWidth = right - end - 4
    if emailWidth >= 5 {
      grid.put(
        TextBlock.truncated(email, width: emailWidth), row: 0, column: end + 2, in: area,
        style: .hint)
    }
    if logOutColumn > end { grid.put(logOut, row: 0, column: logOutColumn, in: area, style: .hint) }
  }
}
