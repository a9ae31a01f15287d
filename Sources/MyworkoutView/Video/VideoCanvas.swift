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
  private var last: (picture: VideoPicture, mirrored: Bool, cells: [BlockCell])?
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
      quantizer: &quantizer, previous: last)
    last = (picture, region.mirrored, cells)
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    var cursor: (row: Int, column: Int)? = nil
    var foreground: UInt32? = nil
    var background: UInt32? = nil
    for row in 0..<rows {
      for column in 0..<columns {
        let cell = cells[row * columns + column]
        let index = row * columns + column
        if !shown.isEmpty, shown[index] == cell { continue }
        if out.isEmpty { out += Self.begin }
        if cursor.map({ $0.row != row || $0.column != column }) ?? true {
          // CSI row ; column H
          out += [0x1B, 0x5B]
          Self.append(region.rect.y + row + 1, to: &out)
          out.append(0x3B)
          Self.append(region.rect.x + column + 1, to: &out)
          out.append(0x48)
        }
        if colors != .shades {
          let needsForeground = cell.glyph != 0 && cell.foreground != foreground
          let needsBackground = cell.background != background
          if needsForeground || needsBackground {
            out += [0x1B, 0x5B]
            if needsForeground {
              appendCode(cell.foreground, layer: 38, to: &out)
              foreground = cell.foreground
            }
            if needsBackground {
              if needsForeground { out.append(0x3B) }
              appendCode(cell.background, layer: 48, to: &out)
              background = cell.background
            }
            out.append(0x6D)
          }
          out += Self.glyphBytes[Int(cell.glyph)]
        } else {
          out += Self.shadeBytes[Int(cell.glyph)]
        }
        cursor = (row, column + 1)
      }
    }
    shown = cells
    guard !out.isEmpty else { return [] }
    out += Self.end
    return out
  }

  private static let begin = Array("\u{1B}[?2026h\u{1B}7".utf8)
  private static let end = Array("\u{1B}[0m\u{1B}8\u{1B}[?2026l".utf8)
  private static let glyphBytes = QuarterBlocks.glyphs.map { Array($0.utf8) }
  private static let shadeBytes = QuarterBlocks.shades.map { Array($0.utf8) }

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
    case .basic8, .shades:
      Self.append(layer - 8 + Int(color & 7), to: &out)
    }
  }
}
