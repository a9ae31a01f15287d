import MyworkoutCore

/// One cell of a video picture: a quarter-block glyph with two colours (24-bit RGB, or palette
/// indices in the low byte).
package struct BlockCell: Equatable, Sendable {
  package var glyph: UInt8
  package var foreground: UInt32
  package var background: UInt32

  package init(glyph: UInt8, foreground: UInt32, background: UInt32) {
    self.glyph = glyph
    self.foreground = foreground
    self.background = background
  }
}

/// Turns 2x2 pixels into one cell (as timg does): of a space and the seven quarter-block shapes
/// (`▘▝▖▗▌▚▄`, whose complements cover every split of four pixels in two), the one whose two
/// averaged colours lose the least.
package enum QuarterBlocks {
  /// The glyphs by index: 0 is a space (one colour, the background).
  package static let glyphs: [String] = [" ", "▘", "▝", "▖", "▗", "▌", "▚", "▄"]
  /// Which of the four pixels (top-left 1, top-right 2, bottom-left 4, bottom-right 8) each
  /// glyph draws in the foreground colour.
  static let masks: [Int] = [0, 1, 2, 4, 8, 5, 9, 12]
  /// The shades for NO_COLOR, dark to light.
  package static let shades: [String] = [" ", "░", "▒", "▓", "█"]

  /// The cells of `picture` for a region of `columns`x`rows` (the picture is drawn from its
  /// top-left; pixels past its edge are black).
  package static func cells(
    _ picture: VideoPicture, columns: Int, rows: Int, mirrored: Bool, colors: VideoColors,
    quantizer: inout VideoQuantizer
  ) -> [BlockCell] {
    var cells = [BlockCell](
      repeating: BlockCell(glyph: 0, foreground: 0, background: 0), count: columns * rows)
    let width = picture.width
    let height = picture.height
    guard picture.rgb.count >= width * height * 3 else { return cells }
    picture.rgb.withUnsafeBufferPointer { rgb in
      var r = [Int](repeating: 0, count: 4)
      var g = [Int](repeating: 0, count: 4)
      var b = [Int](repeating: 0, count: 4)
      for row in 0..<rows {
        for column in 0..<columns {
          for quadrant in 0..<4 {
            var x = column * 2 + quadrant % 2
            let y = row * 2 + quadrant / 2
            if mirrored { x = width - 1 - x }
            if x >= 0, x < width, y < height {
              let offset = (y * width + x) * 3
              r[quadrant] = Int(rgb[offset])
              g[quadrant] = Int(rgb[offset + 1])
              b[quadrant] = Int(rgb[offset + 2])
            } else {
              (r[quadrant], g[quadrant], b[quadrant]) = (0, 0, 0)
            }
          }
          let cell: BlockCell
          if colors == .shades {
            let light =
              (r[0] + r[1] + r[2] + r[3]) * 299 + (g[0] + g[1] + g[2] + g[3]) * 587
              + (b[0] + b[1] + b[2] + b[3]) * 114
            let level = min(4, light * 5 / (4 * 255 * 1000 + 1))
            cell = BlockCell(glyph: UInt8(level), foreground: 0, background: 0)
          } else {
            cell = best(r, g, b, colors: colors, quantizer: &quantizer)
          }
          cells[row * columns + column] = cell
        }
      }
    }
    return cells
  }

  private static func best(
    _ r: [Int], _ g: [Int], _ b: [Int], colors: VideoColors, quantizer: inout VideoQuantizer
  ) -> BlockCell {
    var bestIndex = 0
    var bestError = Int.max
    var bestColors = (0, 0, 0, 0, 0, 0)
    for (index, mask) in masks.enumerated() {
      var sums = (0, 0, 0, 0, 0, 0)
      var inCount = 0
      for quadrant in 0..<4 {
        if mask & (1 << quadrant) != 0 {
          sums.0 += r[quadrant]
          sums.1 += g[quadrant]
          sums.2 += b[quadrant]
          inCount += 1
        } else {
          sums.3 += r[quadrant]
          sums.4 += g[quadrant]
          sums.5 += b[quadrant]
        }
      }
      let outCount = 4 - inCount
      let fg =
        inCount > 0 ? (sums.0 / inCount, sums.1 / inCount, sums.2 / inCount) : (0, 0, 0)
      let bg = (sums.3 / outCount, sums.4 / outCount, sums.5 / outCount)
      var error = 0
      for quadrant in 0..<4 {
        let c = mask & (1 << quadrant) != 0 ? fg : bg
        let dr = r[quadrant] - c.0
        let dg = g[quadrant] - c.1
        let db = b[quadrant] - c.2
        error += dr * dr + dg * dg + db * db
      }
      if error < bestError {
        bestError = error
        bestIndex = index
        bestColors = (fg.0, fg.1, fg.2, bg.0, bg.1, bg.2)
        if error == 0 { break }
      }
    }
    let c = bestColors
    let foreground = UInt32(c.0) << 16 | UInt32(c.1) << 8 | UInt32(c.2)
    let background = UInt32(c.3) << 16 | UInt32(c.4) << 8 | UInt32(c.5)
    switch colors {
    case .direct:
      return BlockCell(
        glyph: UInt8(bestIndex), foreground: bestIndex == 0 ? background : foreground,
        background: background)
    default:
      let bg = UInt32(quantizer.index(background, colors: colors))
      let fg = bestIndex == 0 ? bg : UInt32(quantizer.index(foreground, colors: colors))
      // Two halves that come out the same colour are a space.
      return BlockCell(glyph: fg == bg ? 0 : UInt8(bestIndex), foreground: fg, background: bg)
    }
  }
}

/// Palette indices for 24-bit colours, remembered at 15 bits (a video has few colours that
/// differ by less than that, and the palette's steps are far coarser).
package struct VideoQuantizer: Sendable {
  private var table: [UInt16]
  private var quantizer: ColorQuantizer

  package init(colors: VideoColors) {
    table =
      colors == .palette256 || colors == .basic8 ? [UInt16](repeating: .max, count: 32_768) : []
    quantizer = ColorQuantizer(colors == .basic8 ? .basic8 : .xterm256)
  }

  mutating func index(_ color: UInt32, colors: VideoColors) -> UInt8 {
    let r = UInt8(truncatingIfNeeded: color >> 16)
    let g = UInt8(truncatingIfNeeded: color >> 8)
    let b = UInt8(truncatingIfNeeded: color)
    let key = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    guard key < table.count else { return quantizer.index(for: RGB(r, g, b)) }
    if table[key] != .max { return UInt8(truncatingIfNeeded: table[key]) }
    // The middle of the 15-bit bucket stands for it.
    let index = quantizer.index(for: RGB(r | 4, g | 4, b | 4))
    table[key] = UInt16(index)
    return index
  }
}
