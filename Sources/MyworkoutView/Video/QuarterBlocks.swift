import MyworkoutCore

#if canImport(Glibc)
  import Glibc
#endif

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
  /// The shades for NO_COLOR, dark to light.
  package static let shades: [String] = [" ", "░", "▒", "▓", "█"]

  /// Which of the four pixels (top-left 1, top-right 2, bottom-left 4, bottom-right 8) each
  /// glyph draws in the foreground colour, by glyph index: 0, 1, 2, 4, 8, 5, 9, 12. Four bits
  /// each, index 0 in the lowest, so the search reads no array.
  private static let packedMasks: UInt32 = 0xC958_4210

  /// A picture as it was drawn: how, in how many columns and rows, and its cells.
  package struct Drawn: Sendable {
    package var picture: VideoPicture
    package var mirrored: Bool
    package var columns: Int
    package var rows: Int
    package var cells: [BlockCell]

    package init(
      picture: VideoPicture, mirrored: Bool, columns: Int, rows: Int, cells: [BlockCell]
    ) {
      self.picture = picture
      self.mirrored = mirrored
      self.columns = columns
      self.rows = rows
      self.cells = cells
    }
  }

  /// The cells of `picture` for a region of `columns`x`rows` (the picture is drawn from its
  /// top-left; pixels past its edge are black). With `previous` (the last picture drawn), a
  /// cell whose four pixels are the same as then keeps its cell: a still background costs a
  /// comparison, not a search. Only a picture of the same size drawn the same way in the same
  /// columns and rows is used (the same number of cells in another shape is other cells).
  package static func cells(
    _ picture: VideoPicture, columns: Int, rows: Int, mirrored: Bool, colors: VideoColors,
    quantizer: inout VideoQuantizer, previous: Drawn? = nil
  ) -> [BlockCell] {
    var changed: [Int] = []
    return cells(
      picture, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
      quantizer: &quantizer, previous: previous, changed: &changed)
  }

  /// As above; `changed` is emptied and then lists, in order, the cells not kept from
  /// `previous` (every cell without it): the others are exactly the cells drawn last time.
  package static func cells(
    _ picture: VideoPicture, columns: Int, rows: Int, mirrored: Bool, colors: VideoColors,
    quantizer: inout VideoQuantizer, previous: Drawn?, changed: inout [Int]
  ) -> [BlockCell] {
    changed.removeAll(keepingCapacity: true)
    let width = picture.width
    let height = picture.height
    guard picture.rgb.count >= width * height * 3 else {
      changed.append(contentsOf: 0..<columns * rows)
      return [BlockCell](
        repeating: BlockCell(glyph: 0, foreground: 0, background: 0), count: columns * rows)
    }
    let kept = previous.flatMap {
      $0.picture.width == width && $0.picture.height == height
        && $0.picture.rgb.count == picture.rgb.count && $0.mirrored == mirrored
        && $0.columns == columns && $0.rows == rows && $0.cells.count == columns * rows
        ? $0 : nil
    }
    // Laid over the picture drawn last, with what changed said: only those cells are looked at.
    if let kept, let changes = picture.changes, picture.serial != 0,
      kept.picture.serial == changes.base
    {
      return patched(
        picture, runs: changes.runs, over: kept, colors: colors, quantizer: &quantizer,
        changed: &changed)
    }
    let keptRGB = kept?.picture.rgb ?? []
    let keptCells = kept?.cells ?? []
    // Every cell is written below (kept, or searched): none is filled first.
    return [BlockCell](unsafeUninitializedCapacity: columns * rows) { out, count in
      count = columns * rows
      picture.rgb.withUnsafeBufferPointer { rgb in
        keptRGB.withUnsafeBufferPointer { old in
          let rowBytes = width * 3
          for row in 0..<rows {
            let top = row * 2
            // Both rows of pixels as they were (most rows of a still background): the row of
            // cells as it was.
            if !old.isEmpty, top + 1 < height,
              memcmp(
                rgb.baseAddress! + top * rowBytes, old.baseAddress! + top * rowBytes, 2 * rowBytes)
                == 0
            {
              keptCells.withUnsafeBufferPointer { kept in
                (out.baseAddress! + row * columns).initialize(
                  from: kept.baseAddress! + row * columns, count: columns)
              }
              continue
            }
            let firstRow = row * columns
            // The search for one cell from its four pixels' offsets.
            @inline(__always) func search(_ index: Int, _ offsets: Four) {
              changed.append(index)
              out.initializeElement(
                at: index, to: searched(rgb, offsets, colors: colors, quantizer: &quantizer))
            }
            // The cells whose four pixels are all inside the picture (nearly all): each pair of
            // pixels is six bytes side by side (mirrored, the right pixel's first), compared in
            // two loads.
            let inside = top + 1 < height ? min(columns, width / 2) : 0
            for column in 0..<inside {
              let left = top * rowBytes + (mirrored ? width - 2 - 2 * column : 2 * column) * 3
              let index = firstRow + column
              if !old.isEmpty, sameSix(rgb, old, left), sameSix(rgb, old, left + rowBytes) {
                out.initializeElement(at: index, to: keptCells[index])
                continue
              }
              let (o0, o1) = mirrored ? (left + 3, left) : (left, left + 3)
              search(index, (o0, o1, o0 + rowBytes, o1 + rowBytes))
            }
            // The rest, at the picture's right and bottom edges: a pixel past it is black.
            for column in inside..<columns {
              let pixels = offsets(
                column: column, top: top, width: width, height: height, mirrored: mirrored)
              let index = firstRow + column
              if !old.isEmpty, unchanged(rgb, old, pixels) {
                out.initializeElement(at: index, to: keptCells[index])
                continue
              }
              search(index, pixels)
            }
          }
        }
      }
    }
  }

  /// The cells of `picture` from `previous`'s (drawn for the picture its changes are laid
  /// over, in the same shape): of the cells its runs of changed pixels fall in, those whose
  /// pixels changed are searched again, the others are kept. `changed` lists the searched ones,
  /// in order.
  private static func patched(
    _ picture: VideoPicture, runs: [VideoPicture.Run], over previous: Drawn, colors: VideoColors,
    quantizer: inout VideoQuantizer, changed: inout [Int]
  ) -> [BlockCell] {
    var cells = previous.cells
    let (width, height) = (picture.width, picture.height)
    let (columns, rows, mirrored) = (previous.columns, previous.rows, previous.mirrored)
    picture.rgb.withUnsafeBufferPointer { rgb in
      previous.picture.rgb.withUnsafeBufferPointer { old in
        for run in runs where run.band >= 0 && run.band < rows && run.from < run.to {
          let top = run.band * 2
          // The columns its pixels fall in (mirrored, counted from the right).
          let first = max(0, mirrored ? (width - run.to) / 2 : run.from / 2)
          let last = min(columns - 1, mirrored ? (width - 1 - run.from) / 2 : (run.to - 1) / 2)
          guard first <= last else { continue }
          for column in first...last {
            let pixels = offsets(
              column: column, top: top, width: width, height: height, mirrored: mirrored)
            // A run spans whole bands: most of its cells' pixels are as they were.
            if unchanged(rgb, old, pixels) { continue }
            let index = run.band * columns + column
            changed.append(index)
            cells[index] = searched(rgb, pixels, colors: colors, quantizer: &quantizer)
          }
        }
      }
    }
    return cells
  }

  /// The offsets of the four pixels of cell `column` in the band whose first row is `top`
  /// (mirrored: counted from the right); -1 for a pixel past the picture (black).
  @inline(__always)
  private static func offsets(column: Int, top: Int, width: Int, height: Int, mirrored: Bool)
    -> Four
  {
    var x0 = column * 2
    var x1 = x0 + 1
    if mirrored {
      x0 = width - 1 - x0
      x1 = width - 1 - x1
    }
    return (
      offset(x0, top, width, height), offset(x1, top, width, height),
      offset(x0, top + 1, width, height), offset(x1, top + 1, width, height)
    )
  }

  /// The cell of the four pixels at `offsets`: its shade, or its best shape and colours.
  @inline(__always)
  private static func searched(
    _ rgb: UnsafeBufferPointer<UInt8>, _ offsets: Four, colors: VideoColors,
    quantizer: inout VideoQuantizer
  ) -> BlockCell {
    let (r0, g0, b0) = pixel(rgb, offsets.0)
    let (r1, g1, b1) = pixel(rgb, offsets.1)
    let (r2, g2, b2) = pixel(rgb, offsets.2)
    let (r3, g3, b3) = pixel(rgb, offsets.3)
    return colors == .shades
      ? shade(red: r0 + r1 + r2 + r3, green: g0 + g1 + g2 + g3, blue: b0 + b1 + b2 + b3)
      : best(
        (r0, r1, r2, r3), (g0, g1, g2, g3), (b0, b1, b2, b3), colors: colors,
        quantizer: &quantizer)
  }

  /// Whether the four pixels at `offsets` are as they were in `old`.
  @inline(__always)
  private static func unchanged(
    _ rgb: UnsafeBufferPointer<UInt8>, _ old: UnsafeBufferPointer<UInt8>, _ offsets: Four
  ) -> Bool {
    same(rgb, old, offsets.0) && same(rgb, old, offsets.1) && same(rgb, old, offsets.2)
      && same(rgb, old, offsets.3)
  }

  @inline(__always)
  private static func offset(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Int {
    x >= 0 && x < width && y < height ? (y * width + x) * 3 : -1
  }

  @inline(__always)
  private static func pixel(_ rgb: UnsafeBufferPointer<UInt8>, _ offset: Int) -> (Int, Int, Int) {
    offset < 0 ? (0, 0, 0) : (Int(rgb[offset]), Int(rgb[offset + 1]), Int(rgb[offset + 2]))
  }

  @inline(__always)
  private static func same(
    _ rgb: UnsafeBufferPointer<UInt8>, _ old: UnsafeBufferPointer<UInt8>, _ offset: Int
  ) -> Bool {
    offset < 0
      || (rgb[offset] == old[offset] && rgb[offset + 1] == old[offset + 1]
        && rgb[offset + 2] == old[offset + 2])
  }

  /// Whether the six bytes (two pixels) at `offset` are as they were.
  @inline(__always)
  private static func sameSix(
    _ rgb: UnsafeBufferPointer<UInt8>, _ old: UnsafeBufferPointer<UInt8>, _ offset: Int
  ) -> Bool {
    let new = UnsafeRawPointer(rgb.baseAddress! + offset)
    let was = UnsafeRawPointer(old.baseAddress! + offset)
    return new.loadUnaligned(as: UInt32.self) == was.loadUnaligned(as: UInt32.self)
      && new.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        == was.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
  }

  private typealias Four = (Int, Int, Int, Int)

  /// Of the eight shapes, the one whose two averaged colours lose the least (the first of equals).
  private static func best(
    _ r: Four, _ g: Four, _ b: Four, colors: VideoColors, quantizer: inout VideoQuantizer
  ) -> BlockCell {
    // Channel sums of at most four pixels (0...1020) and their squares: the arithmetic below
    // cannot overflow, so it wraps (no checks in the search's loop).
    let totalR = r.0 &+ r.1 &+ r.2 &+ r.3
    let totalG = g.0 &+ g.1 &+ g.2 &+ g.3
    let totalB = b.0 &+ b.1 &+ b.2 &+ b.3
    var bestIndex = 0
    var bestError = Int.max
    var bestColors = ((0, 0, 0), (0, 0, 0))
    for index in 0..<8 {
      let mask = Int(packedMasks >> UInt32(index &* 4) & 15)
      let in0 = mask & 1 != 0
      let in1 = mask & 2 != 0
      let in2 = mask & 4 != 0
      let in3 = mask & 8 != 0
      let inCount = mask.nonzeroBitCount
      var sumR = 0
      var sumG = 0
      var sumB = 0
      if in0 { (sumR, sumG, sumB) = (sumR &+ r.0, sumG &+ g.0, sumB &+ b.0) }
      if in1 { (sumR, sumG, sumB) = (sumR &+ r.1, sumG &+ g.1, sumB &+ b.1) }
      if in2 { (sumR, sumG, sumB) = (sumR &+ r.2, sumG &+ g.2, sumB &+ b.2) }
      if in3 { (sumR, sumG, sumB) = (sumR &+ r.3, sumG &+ g.3, sumB &+ b.3) }
      let outCount = 4 &- inCount
      let fg =
        inCount > 0
        ? (divide(sumR, by: inCount), divide(sumG, by: inCount), divide(sumB, by: inCount))
        : (0, 0, 0)
      let bg = (
        divide(totalR &- sumR, by: outCount), divide(totalG &- sumG, by: outCount),
        divide(totalB &- sumB, by: outCount)
      )
      @inline(__always) func loss(_ inside: Bool, _ r: Int, _ g: Int, _ b: Int) -> Int {
        let c = inside ? fg : bg
        let dr = r &- c.0
        let dg = g &- c.1
        let db = b &- c.2
        return dr &* dr &+ dg &* dg &+ db &* db
      }
      let error =
        loss(in0, r.0, g.0, b.0) &+ loss(in1, r.1, g.1, b.1) &+ loss(in2, r.2, g.2, b.2)
        &+ loss(in3, r.3, g.3, b.3)
      if error < bestError {
        bestError = error
        bestIndex = index
        bestColors = (fg, bg)
        if error == 0 { break }
      }
    }
    return cell(
      shape: bestIndex, foreground: bestColors.0, background: bestColors.1, colors: colors,
      quantizer: &quantizer)
  }

  /// `value / count` for a sum of one to four channel values (0...1020) and a count of 1 to 4,
  /// without a division instruction (six of them for each of eight shapes were a third of the
  /// search's time): a third is a multiplication by 2^17/3 rounded up, exact below 2^15.
  @inline(__always)
  static func divide(_ value: Int, by count: Int) -> Int {
    switch count {
    case 1: value
    case 2: value >> 1
    case 3: (value &* 0xAAAB) >> 17
    default: value >> 2
    }
  }

  /// The NO_COLOR cell of four pixels, from their channels' sums: a shade by their lightness.
  static func shade(red: Int, green: Int, blue: Int) -> BlockCell {
    let light = red * 299 + green * 587 + blue * 114
    let level = min(4, light * 5 / (4 * 255 * 1000 + 1))
    return BlockCell(glyph: UInt8(level), foreground: 0, background: 0)
  }

  /// The cell of glyph `shape` (0: a space) drawn in its two averaged colours, as `colors` has
  /// them.
  static func cell(
    shape: Int, foreground: (Int, Int, Int), background: (Int, Int, Int), colors: VideoColors,
    quantizer: inout VideoQuantizer
  ) -> BlockCell {
    let ink = UInt32(foreground.0) << 16 | UInt32(foreground.1) << 8 | UInt32(foreground.2)
    let paper = UInt32(background.0) << 16 | UInt32(background.1) << 8 | UInt32(background.2)
    switch colors {
    case .direct:
      return BlockCell(
        glyph: UInt8(shape), foreground: shape == 0 ? paper : ink, background: paper)
    default:
      let bg = UInt32(quantizer.index(paper, colors: colors))
      let fg = shape == 0 ? bg : UInt32(quantizer.index(ink, colors: colors))
      // Two halves that come out the same colour are a space.
      return BlockCell(glyph: fg == bg ? 0 : UInt8(shape), foreground: fg, background: bg)
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
      [.palette256, .basic16, .basic8].contains(colors)
      ? [UInt16](repeating: .max, count: 32_768) : []
    quantizer =
      switch colors {
      case .basic8: ColorQuantizer(.basic8)
      case .basic16: ColorQuantizer(indices: 0...15)
      default: ColorQuantizer(.xterm256)
      }
  }

  mutating func index(_ color: UInt32, colors: VideoColors) -> UInt8 {
    let r = UInt8(truncatingIfNeeded: color >> 16)
    let g = UInt8(truncatingIfNeeded: color >> 8)
    let b = UInt8(truncatingIfNeeded: color)
    let key = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    guard key < table.count else { return quantizer.index(for: RGB(r, g, b)) }
    if table[key] != .max { return UInt8(truncatingIfNeeded: table[key]) }
    // The middle of the 15-bit bucket stands for it (whichever colour of the bucket comes
    // first: `r | 4` alone made the answer depend on that, and a colour could change index
    // from one picture to the next).
    let index = quantizer.index(for: RGB(r & 0xF8 | 4, g & 0xF8 | 4, b & 0xF8 | 4))
    table[key] = UInt16(index)
    return index
  }
}
