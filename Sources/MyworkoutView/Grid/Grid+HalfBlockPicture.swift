import MyworkoutCore

extension Grid {
  /// Draws a picture with its top-left cell at a position, clipped to `clip` (the whole grid
  /// when nil). A colour cell is `▀` in `Style.pixels` (foreground = upper pixel, background =
  /// lower); when both halves are the same colour it is a space in that background, which looks
  /// the same and costs the terminal fewer bytes. A shade cell is its character in `.normal`.
  package mutating func draw(_ picture: HalfBlockPicture, row: Int, column: Int, clip: Rect? = nil)
  {
    let bounds = clip ?? self.bounds
    let rows = max(row, bounds.y, 0)..<min(row + picture.rows, bounds.maxY, height)
    let columns = max(column, bounds.x, 0)..<min(column + picture.columns, bounds.maxX, width)
    guard !rows.isEmpty, !columns.isEmpty else { return }
    for y in rows {
      for x in columns {
        switch picture[y - row, x - column] {
        case .colors(let upper, let lower) where upper == lower:
          put(" ", row: y, column: x, style: .pixels(foreground: upper, background: lower))
        case .colors(let upper, let lower):
          put("▀", row: y, column: x, style: .pixels(foreground: upper, background: lower))
        case .shade(let level):
          let character = HalfBlockPicture.shades[Int(min(level, 4))]
          put(String(character), row: y, column: x, style: .normal)
        }
      }
    }
  }
}
