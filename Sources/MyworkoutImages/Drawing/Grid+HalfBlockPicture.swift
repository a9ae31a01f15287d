import MyworkoutView

extension Grid {
  /// Draws a picture with its top-left cell at a position, clipped at the grid's edges.
  /// A colour cell is `▀` in `Style.pixels` (foreground = upper pixel, background = lower);
  /// when both halves are the same colour it is a space in that background, which looks the
  /// same and costs the terminal fewer bytes. A shade cell is its character in `.normal`.
  package mutating func draw(_ picture: HalfBlockPicture, row: Int, column: Int) {
    for y in 0..<picture.rows where row + y >= 0 && row + y < height {
      for x in 0..<picture.columns where column + x >= 0 && column + x < width {
        switch picture[y, x] {
        case .colors(let upper, let lower) where upper == lower:
          put(
            " ", row: row + y, column: column + x,
            style: .pixels(foreground: upper, background: lower))
        case .colors(let upper, let lower):
          put(
            "▀", row: row + y, column: column + x,
            style: .pixels(foreground: upper, background: lower))
        case .shade(let level):
          let character = HalfBlockPicture.shades[Int(min(level, 4))]
          put(String(character), row: row + y, column: column + x, style: .normal)
        }
      }
    }
  }
}
