import MyworkoutView

/// An estimate of the bytes a terminal receives for a full redraw of a grid's picture cells,
/// modelled on what ncurses sends for xterm-256color: one cursor move per run of cells, a
/// colour change (`ESC[38;5;Nm`, `ESC[48;5;Nm`, or `ESC[3Nm`/`ESC[4Nm` below 8) only where the
/// colour differs from the cell before, and each character's UTF-8. Other cells count their
/// characters only. A model for comparing pictures, not a measurement of a real terminal.
enum GridBytes {
  static func estimate(_ grid: Grid) -> Int {
    var total = 0
    for row in 0..<grid.height {
      var foreground: UInt8?
      var background: UInt8?
      var contiguous = false
      for column in 0..<grid.width {
        let cell = grid[row, column]
        guard case .pixels(let fg, let bg) = cell.style else {
          if cell.text != " " {
            total += (contiguous ? 0 : move(row, column)) + cell.text.utf8.count
            contiguous = true
          } else {
            contiguous = false
          }
          foreground = nil
          background = nil
          continue
        }
        if !contiguous { total += move(row, column) }
        contiguous = true
        if cell.text != " ", fg != foreground {  // a space shows no foreground
          total += color(fg)
          foreground = fg
        }
        if bg != background {
          total += color(bg)
          background = bg
        }
        total += cell.text.utf8.count
      }
    }
    return total
  }

  /// `ESC[row;columnH`.
  private static func move(_ row: Int, _ column: Int) -> Int {
    4 + String(row + 1).count + String(column + 1).count
  }

  /// `ESC[3Nm` for 0–7, else `ESC[38;5;NNNm` (and 4 for backgrounds).
  private static func color(_ index: UInt8) -> Int {
    index < 8 ? 5 : 7 + String(index).count
  }
}
