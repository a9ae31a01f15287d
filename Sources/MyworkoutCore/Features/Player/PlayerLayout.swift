/// Where the Player's parts go in a terminal of a size (SPEC §12), shared by the reducer (the
/// picture is decoded for its area) and the view (which draws into the same rectangles).
package enum PlayerLayout {
  /// Rows the Player always needs besides its picture: heading, details, a blank, then below
  /// the picture a blank, the state line, the times, the bar, the watched line.
  package static let fixedRows = 8
  /// Columns of margin on each side.
  package static let margin = 2

  /// The content's height: the terminal less the header line and the footer.
  package static func contentHeight(for size: TerminalSize) -> Int {
    size.height - Chrome.headerRows(signedIn: true, height: size.height)
      - Chrome.footerRows(height: size.height)
  }

  /// The progress bar's width: the terminal's less the margins.
  package static func barWidth(for size: TerminalSize) -> Int {
    max(0, size.width - 2 * margin)
  }

  /// The picture area: what the fixed rows leave (nothing under 3 rows).
  package static func pictureTile(for size: TerminalSize) -> TileSize {
    let rows = pictureRows(contentHeight: contentHeight(for: size)).picture
    guard rows >= 3 else { return TileSize(columns: 0, rows: 0) }
    return TileSize(columns: size.width - 2 * margin, rows: rows)
  }

  /// The rows of the picture and of the blank rows above and below it, in a content area
  /// `height` rows high: the picture takes what the six other rows leave, from 3 rows up, and
  /// a blank row goes above it (then one below) only when the picture keeps 3 rows. So a short
  /// terminal gets a picture before blank rows (at 40x12 four rows stood blank with no
  /// picture), and a taller one never gets a smaller picture.
  package static func pictureRows(contentHeight height: Int) -> (
    picture: Int, above: Int, below: Int
  ) {
    let free = height - (fixedRows - 2)
    guard free >= 3 else { return (0, 0, 0) }
    let blanks = min(2, free - 3)
    return (free - blanks, min(1, blanks), blanks - min(1, blanks))
  }
}
