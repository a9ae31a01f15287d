/// One terminal cell: a character (a grapheme cluster) and its style. A wide character fills
/// its own cell and a continuation cell (`text` empty) to its right.
package struct Cell: Equatable, Sendable {
  package var text: String
  package var style: Style

  package init(_ text: String = " ", style: Style = .normal) {
    self.text = text
    self.style = style
  }

  package static let blank = Cell()
  package var isContinuation: Bool { text.isEmpty }
}

package struct Position: Equatable, Sendable {
  package var row: Int
  package var column: Int

  package init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }
}

/// A frame to show: what every cell holds and where the cursor stands (nil hides it).
/// Rendering builds one; the terminal adapter draws it. Tests compare its text.
package struct Grid: Equatable, Sendable {
  package let width: Int
  package let height: Int
  package private(set) var cells: [Cell]
  package var cursor: Position?
  /// Where the Player's video goes (the app draws it there itself; the cells stay blank).
  package var video: VideoRegion?

  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: .blank, count: self.width * self.height)
  }

  package subscript(row: Int, column: Int) -> Cell {
    cells[row * width + column]
  }

  /// Writes text from a position, clipped at the right edge; returns the column after it.
  /// A wide character that would straddle the edge is not drawn.
  @discardableResult
  package mutating func put(_ text: String, row: Int, column: Int, style: Style) -> Int {
    put(text, row: row, column: column, from: 0, to: width, style: style)
  }

  /// Writes text on `row` from `column`, drawing only what lies within columns
  /// `left..<right` and the grid: a character past `right` ends the text, one before `left`
  /// takes its columns undrawn. Returns the column after the text.
  package mutating func put(
    _ text: String, row: Int, column: Int, from left: Int, to right: Int, style: Style
  ) -> Int {
    guard row >= 0, row < height else { return column }
    let right = min(right, width)
    let left = max(left, 0)
    var col = column
    for character in text {
      let cellWidth = DisplayWidth.of(character)
      if cellWidth == 0 { continue }
      guard col + cellWidth <= right else { break }
      if col >= left {
        cells[row * width + col] = Cell(String(character), style: style)
        if cellWidth == 2 { cells[row * width + col + 1] = Cell("", style: style) }
      }
      col += cellWidth
    }
    return col
  }

  /// Fills a run of cells with spaces in a style.
  package mutating func fill(row: Int, from column: Int, count: Int, style: Style) {
    let start = max(0, column)
    let end = min(width, column + count)
    guard row >= 0, row < height, start < end else { return }
    for col in start..<end {
      cells[row * width + col] = Cell(" ", style: style)
    }
  }

  /// The frame as lines of text, trailing spaces removed: what a person reads on screen.
  package var lines: [String] {
    (0..<height).map { row in
      var line = ""
      for col in 0..<width where !self[row, col].isContinuation {
        line += self[row, col].text
      }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  package var text: String { lines.joined(separator: "\n") }
}
