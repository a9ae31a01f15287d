import MyworkoutCore

extension Grid {
  /// Draws a picture with its top-left cell at a position, clipped to `clip` (the whole grid
  /// when nil). A colour cell is `▀` in `Style.pixels` (foreground = upper pixel, background =
  /// lower); when both halves are the same colour it is a space in that background, which looks
  /// the same and costs the terminal fewer bytes. A shade cell is its character in `.normal`.
  package mutating func draw(_ picture: HalfBlockPicture, row: Int, column: Int, clip: Rect? = nil)
  {
    let bounds = clip ?? self.bounds
    let top = max(row, bounds.y, 0)
    let bottom = min(row + picture.rows, bounds.maxY, height)
    let left = max(column, bounds.x, 0)
    let right = min(column + picture.columns, bounds.maxX, width)
    // Nothing lands inside (a range whose ends crossed would trap).
    guard top < bottom, left < right else { return }
    let rows = top..<bottom
    let columns = left..<right
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
