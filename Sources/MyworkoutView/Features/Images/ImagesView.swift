import MyworkoutCore

/// Images (SPEC §14): the heading and a grid of 2 columns of pictures, each with its caption
/// under it (`▸` marks the selected one), laid out by `ImagesLayout`; or the selected image as
/// large as the terminal allows, its caption as the heading. A tile reads `Loading…` until its
/// picture is ready, and `Can't show this image` when it cannot be made.
enum ImagesView {
  static func draw(_ state: ImagesState, into grid: inout Grid, area: Rect, spinnerFrame: Int)
    -> Position?
  {
    guard !area.isEmpty else { return nil }
    let layout = state.layout
    if state.isOpen, let image = state.selectedImage {
      heading(image.caption, position: position(of: state), into: &grid, area: area)
      let box = Rect(
        x: area.x + ImagesLayout.margin, y: area.y + layout.top, width: layout.large.columns,
        height: layout.large.rows)
      drawTile(state.largePicture, box: box, into: &grid, area: area)
      return nil
    }
    heading(
      "Images", position: state.images.isEmpty ? nil : position(of: state), into: &grid,
      area: area)
    let column = Metrics(width: area.width).labelColumn
    switch state.load {
    case .loading:
      let frame = ButtonRow.spinnerFrames[spinnerFrame % ButtonRow.spinnerFrames.count]
      grid.put(frame, row: layout.top, column: column, in: area, style: .spinner)
      grid.put(
        ImagesState.loadingText, row: layout.top, column: column + 2, in: area, style: .hint)
      return nil
    case .failed(let message):
      for (index, line) in TextBlock.wrap(message, width: area.width - column).enumerated() {
        grid.put(line, row: layout.top + index, column: column, in: area, style: .error)
      }
      return nil
    case .loaded where state.images.isEmpty:
      grid.put(ImagesState.emptyText, row: layout.top, column: column, in: area, style: .hint)
      return nil
    case .loaded:
      return drawGrid(state, into: &grid, area: area)
    }
  }

  /// What a mouse event means (SPEC §10, §14): the wheel moves the selection a row, a click on a
  /// tile (its picture or its caption) shows that image large; on the large image a click goes
  /// back to the grid.
  static func action(for event: MouseEvent, in state: ImagesState, area: Rect) -> Action? {
    switch event.kind {
    case .wheelUp: return state.isOpen ? nil : .images(.moved(.up))
    case .wheelDown: return state.isOpen ? nil : .images(.moved(.down))
    case .press:
      if state.isOpen { return area.contains(event.position) ? .images(.backPressed) : nil }
      guard state.load == .loaded else { return nil }
      let layout = state.layout
      for index in state.visible {
        let box = Rect(
          x: area.x + layout.column(ofColumn: index % 2),
          y: area.y + layout.row(ofImage: index, firstRow: state.firstRow),
          width: layout.tile.columns, height: layout.tile.rows + 1)  // the caption too
        if box.contains(event.position) { return .images(.tileClicked(index)) }
      }
      return nil
    }
  }

  /// `3 of 12`: where the selection stands.
  private static func position(of state: ImagesState) -> String {
    "\(state.selected + 1) of \(state.images.count)"
  }

  /// The heading centred on the first row, the position at its right when there is room.
  private static func heading(
    _ text: String, position: String?, into grid: inout Grid, area: Rect
  ) {
    let shown = TextBlock.truncated(text, width: max(1, area.width - 2))
    let width = DisplayWidth.of(shown)
    let start = max(0, (area.width - width) / 2)
    grid.put(shown, row: 0, column: start, in: area, style: .heading)
    guard let position else { return }
    let at = area.width - DisplayWidth.of(position) - 1
    if at > start + width + 1 { grid.put(position, row: 0, column: at, in: area, style: .hint) }
  }

  private static func drawGrid(_ state: ImagesState, into grid: inout Grid, area: Rect)
    -> Position?
  {
    let layout = state.layout
    var cursor: Position?
    for index in state.visible {
      let box = Rect(
        x: area.x + layout.column(ofColumn: index % 2),
        y: area.y + layout.row(ofImage: index, firstRow: state.firstRow),
        width: layout.tile.columns, height: layout.tile.rows)
      if layout.showsPictures { drawTile(state.tile(index), box: box, into: &grid, area: area) }
      let selected = index == state.selected
      let caption = TextBlock.truncated(state.images[index].caption, width: box.width - 2)
      let captionRow = box.maxY
      guard captionRow >= area.y, captionRow < area.maxY else { continue }
      grid.put(
        selected ? "▸" : " ", row: captionRow, column: box.x, style: selected ? .heading : .label)
      grid.put(
        caption, row: captionRow, column: box.x + 2, style: selected ? .heading : .label)
      if selected { cursor = Position(row: captionRow, column: box.x) }
    }
    return cursor
  }

  /// A picture centred in its box, or the words for a picture not ready.
  private static func drawTile(
    _ tile: TilePicture?, box: Rect, into grid: inout Grid, area: Rect
  ) {
    // The part of the box inside the content area (a notice can take rows from the bottom).
    let top = max(box.y, area.y)
    let visible = Rect(
      x: box.x, y: top, width: box.width, height: max(0, min(box.maxY, area.maxY) - top))
    switch tile {
    case .ready(let picture)?:
      grid.draw(
        picture, row: box.y + (box.height - picture.rows) / 2,
        column: box.x + (box.width - picture.columns) / 2, clip: visible)
    case .failed?:
      words(TilePicture.failedText, style: .error, box: box, visible: visible, into: &grid)
    case .loading?, nil:
      words(TilePicture.loadingText, style: .hint, box: box, visible: visible, into: &grid)
    }
  }

  /// Text centred in a box, wrapped to its width.
  private static func words(
    _ text: String, style: Style, box: Rect, visible: Rect, into grid: inout Grid
  ) {
    let lines = TextBlock.wrap(text, width: box.width)
    let top = box.y + max(0, (box.height - lines.count) / 2)
    for (index, line) in lines.enumerated() {
      let row = top + index
      guard row >= visible.y, row < visible.maxY else { continue }
      grid.put(
        line, row: row, column: box.x + max(0, (box.width - DisplayWidth.of(line)) / 2),
        style: style)
    }
  }
}
