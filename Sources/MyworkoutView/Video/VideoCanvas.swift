/// The video's cells as the terminal shows them, and the bytes that bring it to the next
/// picture: only the cells that changed, the cursor moved only where a run breaks, a colour
/// sent only when it changes, all in one synchronized update (`CSI ?2026h`…`l`) between a save
/// and a restore of the cursor and attributes (so ncurses finds both as it left them). An
/// identical picture sends nothing.
package struct VideoCanvas: Sendable {
  private var shown: [BlockCell] = []
  private var region: VideoRegion?
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
      quantizer: &quantizer)
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
        if out.isEmpty { out += Array("\u{1B}[?2026h\u{1B}7".utf8) }
        if cursor.map({ $0.row != row || $0.column != column }) ?? true {
          out += Array("\u{1B}[\(region.rect.y + row + 1);\(region.rect.x + column + 1)H".utf8)
        }
        if colors != .shades {
          let needsForeground = cell.glyph != 0 && cell.foreground != foreground
          let needsBackground = cell.background != background
          if needsForeground || needsBackground {
            var codes: [String] = []
            if needsForeground {
              codes.append(code(cell.foreground, layer: 38))
              foreground = cell.foreground
            }
            if needsBackground {
              codes.append(code(cell.background, layer: 48))
              background = cell.background
            }
            out += Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
          }
          out += Array(QuarterBlocks.glyphs[Int(cell.glyph)].utf8)
        } else {
          out += Array(QuarterBlocks.shades[Int(cell.glyph)].utf8)
        }
        cursor = (row, column + 1)
      }
    }
    shown = cells
    guard !out.isEmpty else { return [] }
    out += Array("\u{1B}[0m\u{1B}8\u{1B}[?2026l".utf8)
    return out
  }

  private func code(_ color: UInt32, layer: Int) -> String {
    switch colors {
    case .direct:
      "\(layer);2;\(color >> 16 & 255);\(color >> 8 & 255);\(color & 255)"
    case .palette256:
      "\(layer);5;\(color)"
    case .basic8, .shades:
      "\(layer - 8 + Int(color & 7))"
    }
  }
}
