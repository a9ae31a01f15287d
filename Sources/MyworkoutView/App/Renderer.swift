import MyworkoutCore

/// Turns the state into a frame for a terminal of the given size. Pure: no terminal needed.
///
/// Layout, in rectangles: the screen's content from the top, the notice (if any, wrapped), and
/// the footer with the keys on the last row. When the content does not fit, blank spacer rows
/// go first; then rows far from the focused control, keeping the focused control, any message
/// or spinner line, and the heading in view.
package enum Renderer {
  package static func render(_ state: AppState, width: Int, height: Int) -> Grid {
    var grid = Grid(width: width, height: height)
    guard width > 0, height > 0 else { return grid }
    let metrics = Metrics(width: width)
    let presentation = state.screen.presentation
    let body = presentation.body(state.spinnerFrame, metrics)

    let footerHeight = height >= 3 ? 1 : 0
    let noticeLines =
      state.notice.map { notice in
        height >= 6 ? Array(TextBlock.wrap(notice, width: width).prefix(max(1, height / 4))) : []
      } ?? []
    let parts = grid.bounds.rows([.fill(), .fixed(noticeLines.count), .fixed(footerHeight)])
    let (content, noticeArea, footer) = (parts[0], parts[1], parts[2])

    let (rows, focus) = fit(body, rows: content.height)
    for (index, row) in rows.enumerated() {
      for segment in row.segments {
        grid.put(
          segment.text, row: index, column: segment.column, in: content, style: segment.style)
      }
      if index == focus, let column = row.cursorColumn, column < width {
        grid.cursor = Position(row: content.y + index, column: column)
      }
    }
    if !noticeArea.isEmpty {
      grid.fill(noticeArea, style: .notice)
      for (index, line) in noticeLines.enumerated() {
        grid.put(line, row: index, column: 0, in: noticeArea, style: .notice)
      }
    }
    if !footer.isEmpty {
      let keys = KeyBindings.withGlobalKeys(presentation.keys)
      grid.fill(footer, style: .footer)
      grid.put(Hint.line(keys.hints, width: width), row: 0, column: 0, in: footer, style: .footer)
    }
    return grid
  }

  /// The rows that fit, and the index of the focused row among them.
  static func fit(_ body: Body, rows available: Int) -> ([Row], Int?) {
    guard available > 0 else { return ([], nil) }
    var rows = body.rows
    var focus = body.focusRow
    if rows.count > available {
      // Compact: drop spacers, art and hints, keeping the focused row's index right.
      var kept: [Row] = []
      var newFocus: Int?
      for (index, row) in rows.enumerated() where !row.isOptional || index == focus {
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
