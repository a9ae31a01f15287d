public import MyworkoutCore

/// Turns the state into a frame for a terminal of the given size. Pure: no terminal needed.
///
/// Layout: the screen's content from the top, a notice line (if any), and the footer with the
/// keys on the last row. When the content does not fit, blank spacer rows go first; then the
/// content scrolls so that the focused control stays in view.
public enum Renderer {
  public static func render(_ state: AppState, width: Int, height: Int) -> Grid {
    var grid = Grid(width: width, height: height)
    guard width > 0, height > 0 else { return grid }
    let metrics = Metrics(width: width)
    let body = self.body(state, metrics: metrics)

    var reserved = height >= 3 ? 1 : 0
    if state.notice != nil, height >= 6 { reserved += 1 }
    let available = height - reserved
    let (rows, focus) = fit(body, rows: available)
    for (index, row) in rows.enumerated() {
      for segment in row.segments {
        grid.put(segment.text, row: index, column: segment.column, style: segment.style)
      }
      if index == focus, let column = row.cursorColumn, column < width {
        grid.cursor = Position(row: index, column: column)
      }
    }
    if let notice = state.notice, height >= 6 {
      grid.fill(row: height - 2, from: 0, count: width, style: .notice)
      grid.put(notice, row: height - 2, column: 0, style: .notice)
    }
    if reserved > 0 {
      grid.fill(row: height - 1, from: 0, count: width, style: .footer)
      grid.put(
        Hint.line(KeyBindings.hints(for: state), width: width), row: height - 1, column: 0,
        style: .footer)
    }
    return grid
  }

  static func body(_ state: AppState, metrics: Metrics) -> Body {
    switch state.screen {
    case .getStarted(let form):
      GetStartedView.body(form, spinnerFrame: state.spinnerFrame, metrics: metrics)
    case .login(let form):
      LoginView.body(form, spinnerFrame: state.spinnerFrame, metrics: metrics)
    case .signup(let form):
      SignupView.body(form, spinnerFrame: state.spinnerFrame, metrics: metrics)
    case .profile(let profile):
      ProfileView.body(profile, spinnerFrame: state.spinnerFrame, metrics: metrics)
    }
  }

  /// The rows that fit, and the index of the focused row among them.
  static func fit(_ body: Body, rows available: Int) -> ([Row], Int?) {
    guard available > 0 else { return ([], nil) }
    var rows = body.rows
    var focus = body.focusRow
    if rows.count > available {
      // Compact: drop spacers, keeping the focused row's index right.
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
    // Scroll: keep the focused row in view, as low as needed and no lower.
    let target = focus ?? 0
    let start = min(max(0, target - available + 2), rows.count - available)
    let window = Array(rows[start..<(start + available)])
    return (window, focus.map { $0 - start })
  }
}
