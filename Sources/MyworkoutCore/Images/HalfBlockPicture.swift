/// A picture ready to draw in terminal cells: each cell shows two pixels, the upper one as the
/// foreground of `▀` and the lower one as its background, in palette indices; or, without
/// colour, one shade of ` ░▒▓█` for the cell's lightness. Small (a few bytes a cell) and
/// `Equatable`, so a tile can keep it and tests can compare it.
package struct HalfBlockPicture: Hashable, Sendable {
  package enum Cell: Hashable, Sendable {
    /// Upper and lower pixel as xterm palette indices (0–7 for `basic8`, else 16–255).
    case colors(upper: UInt8, lower: UInt8)
    /// Lightness level 0 (darkest) to 4, an index into `HalfBlockPicture.shades`.
    case shade(UInt8)
  }

  /// From dark to light, for a light-on-dark terminal (the usual; the shade is the ink).
  package static let shades: [Character] = [" ", "░", "▒", "▓", "█"]

  package let columns: Int
  package let rows: Int
  /// `columns * rows` cells, row after row.
  package let cells: [Cell]

  package init(columns: Int, rows: Int, cells: [Cell]) {
    precondition(columns >= 0 && rows >= 0 && cells.count == columns * rows)
    self.columns = columns
    self.rows = rows
    self.cells = cells
  }

  package subscript(row: Int, column: Int) -> Cell {
    cells[row * columns + column]
  }
}
