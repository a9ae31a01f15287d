/// The video's cells as the terminal shows them, and the bytes that bring it to the next
/// picture: only the cells that changed, the cursor moved only where a run breaks, a colour
/// sent only when it changes, all in one synchronized update (`CSI ?2026h`…`l`) between a save
/// and a restore of the cursor and attributes (so ncurses finds both as it left them). An
/// identical picture sends nothing.
package struct VideoCanvas: Sendable {
  private var shown: [BlockCell] = []
  private var region: VideoRegion?
  /// The last picture painted and its cells (for the region as it is): a cell whose pixels did
  /// not change keeps its cell.
  private var last: QuarterBlocks.Drawn?
  /// The cells the last picture did not keep (reused from picture to picture).
  private var changed: [Int] = []
  private var colors: VideoColors
  private var quantizer: VideoQuantizer

  package init(colors: VideoColors) {
    self.colors = colors
    quantizer = VideoQuantizer(colors: colors)
  }

  /// The terminal's cells under the region are unknown (ncurses drew there, or a resize): the
  /// next picture is sent whole.
  package mutating func invalidate() {
    shown = []
  }

  /// The bytes that show `picture` in `region` (empty when nothing changed).
  package mutating func paint(_ picture: VideoPicture, in region: VideoRegion) -> [UInt8] {
    let columns = region.rect.width
    let rows = region.rect.height
    guard columns > 0, rows > 0 else { return [] }
    if self.region != region || shown.count != columns * rows {
      shown = []
      self.region = region
    }
    let cells = QuarterBlocks.cells(
      picture, columns: columns, rows: rows, mirrored: region.mirrored, colors: colors,
      quantizer: &quantizer, previous: last, changed: &changed)
    last = QuarterBlocks.Drawn(
      picture: picture, mirrored: region.mirrored, columns: columns, rows: rows, cells: cells)
    // A cell kept from the last picture is the cell compared or sent then: it looks like what
    // the screen shows. Only the others are visited, unless the screen is unknown (all are).
    let everything = shown.isEmpty
    if everything { shown = cells }
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    var cursor: (row: Int, column: Int)? = nil
    var foreground: UInt32? = nil
    var background: UInt32? = nil
    let visits = everything ? cells.count : changed.count
    for visit in 0..<visits {
      let index = everything ? visit : changed[visit]
      let (row, column) = index.quotientAndRemainder(dividingBy: columns)
      let cell = cells[index]
      if !everything, Self.looksTheSame(shown[index], cell, colors: colors) { continue }
      if out.isEmpty { out += Self.begin }
      if let cursor, cursor.row == row, cursor.column < column {
        // Further along the same row: CSI n C (3 to 5 bytes, where CSI row ; column H
        // takes 6 to 9).
        out += [0x1B, 0x5B]
        if column - cursor.column > 1 { Self.append(column - cursor.column, to: &out) }
        out.append(0x43)
      } else if cursor.map({ $0.row != row || $0.column != column }) ?? true {
        // CSI row ; column H
        out += [0x1B, 0x5B]
        Self.append(region.rect.y + row + 1, to: &out)
        out.append(0x3B)
        Self.append(region.rect.x + column + 1, to: &out)
        out.append(0x48)
      }
      if colors != .shades {
        // A colour within `colourTolerance` of the one in force is drawn in that one (the
        // cell records what is shown): no sequence for a colour the eye cannot tell apart.
        func matches(_ colour: UInt32, _ current: UInt32?) -> Bool {
          guard let current else { return false }
          return colour == current || (colors == .direct && Self.close(colour, current))
        }
        // A shape's complement with the colours swapped looks the same (`▄` red on blue is
        // `▀` blue on red): of the two, the one that needs fewer colours sent.
        let plain =
          (cell.glyph != 0 && !matches(cell.foreground, foreground) ? 1 : 0)
          + (matches(cell.background, background) ? 0 : 1)
        let swapped =
          cell.glyph == 0
          ? 3
          : (matches(cell.background, foreground) ? 0 : 1)
            + (matches(cell.foreground, background) ? 0 : 1)
        let (ink, paper, glyph) =
          swapped < plain
          ? (cell.background, cell.foreground, Self.complementBytes[Int(cell.glyph)])
          : (cell.foreground, cell.background, Self.glyphBytes[Int(cell.glyph)])
        let needsForeground = cell.glyph != 0 && !matches(ink, foreground)
        let needsBackground = !matches(paper, background)
        if needsForeground || needsBackground {
          out += [0x1B, 0x5B]
          if needsForeground {
            appendCode(ink, layer: 38, to: &out)
            foreground = ink
          }
          if needsBackground {
            if needsForeground { out.append(0x3B) }
            appendCode(paper, layer: 48, to: &out)
            background = paper
          }
          out.append(0x6D)
        }
        out += glyph
        let shownInk = cell.glyph != 0 ? foreground ?? ink : 0
        let shownPaper = background ?? paper
        shown[index] =
          cell.glyph == 0
          ? BlockCell(glyph: 0, foreground: shownPaper, background: shownPaper)
          : swapped < plain
            ? BlockCell(glyph: cell.glyph, foreground: shownPaper, background: shownInk)
            : BlockCell(glyph: cell.glyph, foreground: shownInk, background: shownPaper)
      } else {
        out += Self.shadeBytes[Int(cell.glyph)]
        shown[index] = cell
      }
      cursor = (row, column + 1)
    }
    guard !out.isEmpty else { return [] }
    out += Self.end
    return out
  }

  private static let begin = Array("\u{1B}[?2026h\u{1B}7".utf8)
  private static let end = Array("\u{1B}[0m\u{1B}8\u{1B}[?2026l".utf8)
  private static let glyphBytes = QuarterBlocks.glyphs.map { Array($0.utf8) }
  /// Each glyph's complement (the quarters it leaves out): drawn with the colours swapped.
  private static let complementBytes = [" ", "▟", "▙", "▜", "▛", "▐", "▞", "▀"].map {
    Array($0.utf8)
  }
  private static let shadeBytes = QuarterBlocks.shades.map { Array($0.utf8) }

  /// How far (per channel, of 255) a 24-bit colour may move before its cell is sent again: the
  /// decoder's noise moves still parts of a picture by 1 or 2, and sending them cost a third of
  /// the bytes at 200x60 (measured on the shipped clip: 94 % of cells' pixels unchanged, 96 %
  /// within 3). The shown colour is the one compared with, so a slow fade is sent as it
  /// accumulates.
  static let colourTolerance: UInt32 = 3

  /// Whether `new` would look like `old` on the screen: the same glyph and, in 24-bit colour,
  /// colours within `colourTolerance` (palette indices must be equal).
  private static func looksTheSame(_ old: BlockCell, _ new: BlockCell, colors: VideoColors)
    -> Bool
  {
    guard old.glyph == new.glyph else { return false }
    guard colors == .direct else { return old == new }
    return close(old.background, new.background)
      && (new.glyph == 0 || close(old.foreground, new.foreground))
  }

  private static func close(_ a: UInt32, _ b: UInt32) -> Bool {
    for shift: UInt32 in [0, 8, 16] {
      let x = a >> shift & 255
      let y = b >> shift & 255
      if (x > y ? x - y : y - x) > colourTolerance { return false }
    }
    return true
  }

  /// `value` (not negative) in decimal.
  private static func append(_ value: Int, to out: inout [UInt8]) {
    if value >= 10 { append(value / 10, to: &out) }
    out.append(0x30 + UInt8(value % 10))
  }

  /// The SGR parameters of `color` as a foreground (38) or background (48).
  private func appendCode(_ color: UInt32, layer: Int, to out: inout [UInt8]) {
    switch colors {
    case .direct:
      Self.append(layer, to: &out)
      out += [0x3B, 0x32, 0x3B]  // ;2;
      Self.append(Int(color >> 16 & 255), to: &out)
      out.append(0x3B)
      Self.append(Int(color >> 8 & 255), to: &out)
      out.append(0x3B)
      Self.append(Int(color & 255), to: &out)
    case .palette256:
      Self.append(layer, to: &out)
      out += [0x3B, 0x35, 0x3B]  // ;5;
      Self.append(Int(color), to: &out)
    case .basic16 where color & 15 >= 8:
      // Bright: 90–97 ink, 100–107 paper.
      Self.append(layer + 52 + Int(color & 7), to: &out)
    case .basic8, .basic16, .shades:
      Self.append(layer - 8 + Int(color & 7), to: &out)
    }
  }
}
