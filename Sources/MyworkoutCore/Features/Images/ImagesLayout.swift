/// Where the Images screen (SPEC §14) puts things in a terminal of a given size: the reducer
/// decodes tiles at `tile` and scrolls by `visibleRows`, and the view draws at the same places,
/// so both follow one set of numbers.
///
/// Content is the terminal less the header line (8 rows and up) and the footer (3 rows and up),
/// as `Renderer` lays screens out. In it: the heading, a blank row when there are 12 rows or
/// more, then rows of 2 tiles, each tile a picture `tile.rows` high with its caption under it,
/// rows 1 apart. The picture keeps a 4:3 box where height allows, and shrinks so that two rows
/// of tiles are in view when the pictures stay at least 4 rows high.
package struct ImagesLayout: Hashable, Sendable {
  /// Columns left of the first tile, and between the two tiles.
  package static let margin = 1
  package static let gap = 2

  /// The content rectangle's size (the terminal less the header line and footer).
  package let contentWidth: Int
  package let contentHeight: Int
  /// Rows above the grid (the heading, and a blank row when there is room).
  package let top: Int
  /// A tile's picture area.
  package let tile: TileSize
  /// A tile's rows with its caption and the blank row under it.
  package let rowHeight: Int
  /// Rows of tiles in view (at least 1).
  package let visibleRows: Int
  /// The picture area of the one image shown large.
  package let large: TileSize

  package init(terminal: TerminalSize) {
    let header = terminal.height >= 8 ? 1 : 0
    let footer = terminal.height >= 3 ? 1 : 0
    contentWidth = terminal.width
    contentHeight = max(0, terminal.height - header - footer)
    top = min(contentHeight, contentHeight >= 12 ? 2 : 1)
    let gridHeight = contentHeight - top
    let columns = max(0, (terminal.width - 2 * Self.margin - Self.gap) / 2)
    // A 4:3 picture `columns` wide is `columns * 3 / 4` pixels, half as many rows, high.
    let natural = max(1, Int((Double(columns) * 3 / 8).rounded()))
    let twoRows = (gridHeight + 1) / 2 - 2
    let rows = twoRows >= 4 ? min(natural, twoRows) : min(natural, gridHeight - 1)
    tile = TileSize(columns: columns, rows: rows)
    rowHeight = tile.rows + 2
    visibleRows = max(1, (gridHeight + 1) / rowHeight)
    large = TileSize(columns: terminal.width - 2 * Self.margin, rows: gridHeight)
  }

  /// Whether tiles are big enough to draw a picture in (otherwise none is decoded).
  package var showsPictures: Bool { tile.columns >= 2 && tile.rows >= 1 }

  /// The column where a tile of the left (0) or right (1) column starts.
  package func column(ofColumn index: Int) -> Int {
    Self.margin + index * (tile.columns + Self.gap)
  }

  /// The row (in the content rectangle) where the tile of an image starts, with `firstRow` the
  /// row of tiles at the top of the view.
  package func row(ofImage index: Int, firstRow: Int) -> Int {
    top + (index / 2 - firstRow) * rowHeight
  }
}
