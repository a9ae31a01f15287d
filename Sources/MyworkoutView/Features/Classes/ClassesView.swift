import MyworkoutCore

/// Classes (SPEC §11): the heading, the `Search` field, the count line (with a spinner while a
/// search runs), the list with the matches highlighted, and at 100 columns or more a preview of
/// the selected class; signed out, `Log in to watch` over it all.
enum ClassesView {
  /// Columns from which a preview stands beside the list.
  static let previewFrom = ClassesState.previewMinimumWidth
  static let previewWidth = 34

  /// Where each part of the screen goes: drawing and mouse hit-testing use the same.
  struct Layout {
    var heading, field, count, list: Rect
    var preview: Rect?

    init(_ area: Rect) {
      let roomy = area.height >= 12
      let parts = area.rows([
        .fixed(1), .fixed(roomy ? 1 : 0), .fixed(1), .fixed(1), .fixed(roomy ? 1 : 0), .fill(),
      ])
      (heading, field, count) = (parts[0], parts[2], parts[3])
      if area.width >= previewFrom {
        let columns = parts[5].columns([.fill(), .fixed(previewWidth)], gap: 2)
        (list, preview) = (columns[0], columns[1])
      } else {
        (list, preview) = (parts[5], nil)
      }
    }
  }

  /// What a mouse event means (SPEC §10): the wheel scrolls the list, a press on a row selects
  /// it, on the field focuses it, on the preview opens the class (the brief's click on the
  /// thumbnail). The modal takes no mouse.
  static func action(for event: MouseEvent, in state: ClassesState, area: Rect) -> Action? {
    if let modal = state.modal {
      guard event.kind == .press,
        let stop = LoginModal.stop(at: event.position, modal: modal, area: area)
      else { return nil }
      return .classes(.modal(.form(.stopClicked(stop))))
    }
    switch event.kind {
    case .wheelUp: return .classes(.selectionMoved(by: -3))
    case .wheelDown: return .classes(.selectionMoved(by: 3))
    case .press:
      let layout = Layout(area)
      let at = event.position
      if layout.field.contains(at) { return state.focus == .list ? .classes(.focusToggled) : nil }
      if let preview = layout.preview, preview.contains(at), state.selectedClass != nil {
        return state.focus == .list
          ? .classes(.enterPressed) : .classes(.rowClicked(state.selected))
      }
      guard let row = ClassList.row(at: at, in: layout.list, state: state) else { return nil }
      return .classes(.rowClicked(row))
    }
  }

  static func draw(
    _ state: ClassesState, signedIn: Bool, into grid: inout Grid, area: Rect, spinnerFrame: Int
  ) -> Position? {
    guard !area.isEmpty else { return nil }
    let metrics = Metrics(width: area.width)
    let layout = Layout(area)
    let (heading, field, count) = (layout.heading, layout.field, layout.count)
    grid.put(
      "Classes", row: 0, column: max(0, (area.width - 7) / 2), in: heading, style: .heading)

    var cursor: Position?
    let searchRows = TextFieldView.rows(
      label: "Search", input: state.search, masked: false, validity: .neutral,
      focused: state.focus == .search && state.modal == nil, metrics: metrics)
    // The label goes beside the field; on a narrow screen the field row alone.
    let searchRow = searchRows.last ?? Row()
    for segment in (searchRows.count == 1 ? searchRow.segments : searchRows[1].segments) {
      grid.put(segment.text, row: 0, column: segment.column, in: field, style: segment.style)
    }
    if state.focus == .search, state.modal == nil, let column = searchRow.cursorColumn {
      cursor = Position(row: field.y, column: field.x + column)
    }
    drawCount(state, into: &grid, area: count, metrics: metrics, spinnerFrame: spinnerFrame)

    if let row = ClassList.draw(state, signedIn: signedIn, into: &grid, area: layout.list),
      state.focus == .list, state.modal == nil
    {
      cursor = row
    }
    if let preview = layout.preview, let chosen = state.selectedClass {
      ClassPreview.draw(
        chosen, watched: state.watched[chosen.id], signedIn: signedIn,
        thumbnail: state.selectedThumbnail, into: &grid, area: preview)
    }
    if let modal = state.modal {
      cursor = LoginModal.draw(modal, into: &grid, area: area, spinnerFrame: spinnerFrame)
    }
    return cursor
  }

  /// The count line within `width` columns: a long query is shortened with `…` inside its
  /// quotes, so the line still reads as a quotation (`No classes match "xxxxxxx…"`).
  static func countLine(_ page: CatalogPage, width: Int) -> String {
    let (lead, quoted) = page.countLineParts
    guard let quoted else { return TextBlock.truncated(lead, width: width) }
    let room = width - DisplayWidth.of(lead) - 2
    guard room >= 1 else { return TextBlock.truncated(page.countLine, width: width) }
    return lead + "\"" + TextBlock.truncated(quoted, width: room) + "\""
  }

  private static func drawCount(
    _ state: ClassesState, into grid: inout Grid, area: Rect, metrics: Metrics, spinnerFrame: Int
  ) {
    let column = metrics.labelColumn
    let frame = ButtonRow.spinnerFrames[spinnerFrame % ButtonRow.spinnerFrames.count]
    switch state.load {
    case .loading:
      grid.put(frame, row: 0, column: column, in: area, style: .spinner)
      grid.put("Loading classes…", row: 0, column: column + 2, in: area, style: .hint)
    case .failed(let message):
      grid.put(message, row: 0, column: column, in: area, style: .error)
    case .loaded where state.moreFailed != nil:
      grid.put(
        TextBlock.truncated(state.moreFailed ?? "", width: area.width - column), row: 0,
        column: column, in: area, style: .error)
    case .searching, .loaded:
      // Two columns stay for the spinner.
      let line = state.results.map { countLine($0, width: area.width - column - 2) } ?? ""
      let end = grid.put(line, row: 0, column: column, in: area, style: .label)
      if state.load == .searching || state.pendingQuery != nil {
        grid.put(frame, row: 0, column: end + 1, in: area, style: .spinner)
      }
    }
  }
}

/// The list of classes: a header of column names, then one row per class, a page at a time so
/// the selected row is always in view.
enum ClassList {
  /// Draws the list; returns where the cursor stands (on the selected row).
  static func draw(_ state: ClassesState, signedIn: Bool, into grid: inout Grid, area: Rect)
    -> Position?
  {
    guard area.height >= 2, area.width >= 10 else { return nil }
    let classes = state.classes
    let columns = layout(width: area.width - 2, watched: signedIn)
    let parts = area.rows([.fixed(1), .fill()])
    drawCells(
      ["Title", "Instructor", "Level", "Song", signedIn ? "Seen" : ""], columns: columns,
      terms: [], style: .label, into: &grid, row: parts[0].y, x: area.x + 2)
    let rows = parts[1]
    guard !classes.isEmpty, rows.height > 0 else { return nil }
    let top = firstShown(state, rows: rows.height)
    let terms = SearchText.terms(of: state.results?.query ?? "")
    var cursor: Position?
    for (offset, index) in (top..<min(classes.count, top + rows.height)).enumerated() {
      let item = classes[index]
      let y = rows.y + offset
      let isSelected = index == state.selected
      if isSelected {
        grid.put("▸", row: y, column: area.x, style: .normal)
        cursor = Position(row: y, column: area.x)
      }
      let watched = signedIn ? state.watched[item.id].map { "\($0)%" } ?? "" : ""
      drawCells(
        [item.title, item.instructor, item.level.title, item.song, watched], columns: columns,
        terms: terms, style: isSelected ? .heading : .normal, into: &grid, row: y,
        x: area.x + 2)
    }
    return cursor
  }

  /// The first class shown: the list shows a page at a time, the page holding the selection.
  static func firstShown(_ state: ClassesState, rows: Int) -> Int {
    (state.selected / max(1, rows)) * max(1, rows)
  }

  /// The class drawn at a cell of the list's area, if any.
  static func row(at position: Position, in area: Rect, state: ClassesState) -> Int? {
    let rows = area.rows([.fixed(1), .fill()])[1]
    guard rows.contains(position) else { return nil }
    let index = firstShown(state, rows: rows.height) + position.row - rows.y
    return state.classes.indices.contains(index) ? index : nil
  }

  /// Widths of title, instructor, level, song and watched for a row of `width` columns.
  static func layout(width: Int, watched: Bool) -> [Int] {
    let fixed = Rect(width: width, height: 1).columns(
      [.fill(4), .fill(3), .fixed(width >= 50 ? 12 : 0), .fill(3), .fixed(watched ? 5 : 0)],
      gap: 1)
    return fixed.map(\.width)
  }

  /// Draws cells side by side, each cut with `…` to its width, the search's matches highlighted.
  static func drawCells(
    _ texts: [String], columns: [Int], terms: [String], style: Style, into grid: inout Grid,
    row: Int, x: Int
  ) {
    var column = x
    for (text, width) in zip(texts, columns) {
      defer { column += width + 1 }
      guard width > 0 else { continue }
      let shown = TextBlock.truncated(text, width: width)
      let highlights = terms.isEmpty ? [] : SearchText.highlights(of: terms, in: shown)
      var at = column
      for index in shown.indices {
        let matched = highlights.contains { $0.contains(index) }
        at = grid.put(String(shown[index]), row: row, column: at, style: matched ? .match : style)
      }
    }
  }
}

/// The selected class beside the list on wide terminals: its thumbnail (when there is one and
/// room for it), title and details.
enum ClassPreview {
  static func draw(
    _ item: DanceClass, watched: Int?, signedIn: Bool, thumbnail: HalfBlockPicture?,
    into grid: inout Grid, area: Rect
  ) {
    var row = 0
    let title = TextBlock.wrap(item.title, width: area.width).prefix(3)
    // Title, a blank row, 4 or 5 details, a blank row and the hint.
    let textRows = title.count + (signedIn ? 9 : 8)
    if let thumbnail, area.height >= thumbnail.rows + 1 + textRows {
      grid.draw(thumbnail, row: area.y, column: area.x, clip: area)
      row = thumbnail.rows + 1
    }
    for line in title {
      grid.put(line, row: row, column: 0, in: area, style: .heading)
      row += 1
    }
    row += 1
    var details = [
      ("Instructor", item.instructor), ("Level", item.level.title), ("Song", item.song),
      ("Duration", PlayTime.text(seconds: item.duration, hours: item.duration >= 3600)),
    ]
    if signedIn { details.append(("Watched", watched.map { "\($0)%" } ?? "not yet")) }
    for (label, value) in details {
      grid.put(label, row: row, column: 0, in: area, style: .label)
      grid.put(
        TextBlock.truncated(value, width: area.width - 12), row: row, column: 12, in: area,
        style: .normal)
      row += 1
    }
    grid.put(
      signedIn ? "Enter to open" : "Enter to log in and watch", row: row + 1, column: 0, in: area,
      style: .hint)
  }
}

/// `Log in to watch` over the list: part one's login form in a box.
enum LoginModal {
  static func draw(_ modal: ClassLoginModal, into grid: inout Grid, area: Rect, spinnerFrame: Int)
    -> Position?
  {
    let (body, box) = layout(modal, area: area, spinnerFrame: spinnerFrame)
    let inside = Frame.draw(box, title: "Log in to watch", into: &grid)
    return BodyLayout.draw(body, into: &grid, area: inside.inset(top: -1))
  }

  /// The focus stop of the modal's form at a cell, if any.
  static func stop(at position: Position, modal: ClassLoginModal, area: Rect) -> Int? {
    let (body, box) = layout(modal, area: area, spinnerFrame: 0)
    return BodyLayout.stop(
      at: position, in: body, area: box.inset(top: 2, left: 1, bottom: 1, right: 1).inset(top: -1))
  }

  /// The form's rows and the box they are drawn in, centred over the list.
  private static func layout(_ modal: ClassLoginModal, area: Rect, spinnerFrame: Int)
    -> (Body, Rect)
  {
    let width = min(area.width, 72)
    let metrics = Metrics(width: width - 2)
    let body = LoginView.body(
      modal.form, heading: nil, spinnerFrame: spinnerFrame, metrics: metrics)
    let height = min(area.height, body.rows.count + 3)
    let box = Rect(
      x: area.x + (area.width - width) / 2, y: area.y + max(0, (area.height - height) / 2),
      width: width, height: height)
    return (body, box)
  }
}
