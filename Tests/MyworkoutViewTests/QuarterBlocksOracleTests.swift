import Foundation
import Testing

@testable import MyworkoutCore
@testable import MyworkoutView

/// The quarter-block cells are computed fast (no arrays per cell, a cell whose four pixels did
/// not change since the last picture keeps its cell): they must stay exactly what the plain
/// computation gives. The oracle below is that plain search, kept as it first shipped (the
/// last step, a shape and its two colours to a cell, is shared with the code under test).
@Suite struct QuarterBlocksOracleTests {
  /// A picture with flat areas, edges and noise (seeded, so a failure replays).
  static func randomPicture(width: Int, height: Int, seed: inout UInt64) -> VideoPicture {
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for index in rgb.indices {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let pixel = index / 3
      // Half the pixels noise, a quarter one flat colour, a quarter another.
      switch (seed >> 40) % 4 {
      case 0, 1: rgb[index] = UInt8(truncatingIfNeeded: seed >> 33)
      case 2: rgb[index] = pixel % 7 == 0 ? 200 : 10
      default: rgb[index] = 128
      }
    }
    return VideoPicture(width: width, height: height, rgb: rgb)
  }

  @Test(arguments: [VideoColors.direct, .palette256, .basic16, .basic8, .shades])
  func theCellsAreThoseOfThePlainComputation(colors: VideoColors) {
    let seed: UInt64 = 1129
    var state = seed
    var fast = VideoQuantizer(colors: colors)
    var plain = VideoQuantizer(colors: colors)
    var previous: QuarterBlocks.Drawn?
    for round in 0..<12 {
      // Two rounds to a size: the second may keep cells of the first.
      let width = [8, 9, 16, 3][round / 2 % 4]
      let height = [6, 5, 8, 4][round / 2 % 4]
      var picture = Self.randomPicture(width: width, height: height, seed: &state)
      // Every other picture changes only some pixels of the one before (the case kept cells
      // serve), when it has the same size.
      if round % 2 == 1, let last = previous?.picture, last.width == width, last.height == height {
        picture = last
        // A few pixels all over, or one pixel in the top rows only (the others' cells kept
        // whole rows at a time).
        let changed =
          round % 4 == 1
          ? [width * 3 + 4] : Array(stride(from: round, to: picture.rgb.count, by: 17))
        for index in changed { picture.rgb[index] &+= 40 }
      }
      let columns = width / 2 + round / 2 % 2  // sometimes past the picture's edge
      let rows = height / 2 + round / 2 % 3 / 2
      let mirrored = round % 3 == 0
      let expected = Oracle.cells(
        picture, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
        quantizer: &plain)
      let cells = QuarterBlocks.cells(
        picture, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
        quantizer: &fast)
      #expect(cells == expected, "seed \(seed), round \(round)")
      let kept = QuarterBlocks.cells(
        picture, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
        quantizer: &fast, previous: previous)
      #expect(kept == expected, "seed \(seed), round \(round), with the last picture's cells")
      previous = QuarterBlocks.Drawn(
        picture: picture, mirrored: mirrored, columns: columns, rows: rows, cells: cells)
    }
  }

  /// A picture that says what changed since the one before (the player's patches): only the
  /// cells its runs touch are searched, and the cells are still exactly the plain computation's,
  /// mirrored or not, in regions wider or taller than the picture, with runs wider than the
  /// change (several patches read in one turn are joined). Said against another picture, the
  /// runs are not used.
  @Test(arguments: [VideoColors.direct, .palette256, .shades])
  func thePixelsSaidToHaveChangedAreTheOnlyOnesLookedAt(colors: VideoColors) {
    let seed =
      ProcessInfo.processInfo.environment["MYWORKOUT_BLOCKS_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 1...UInt64.max)
    var state = seed
    var fast = VideoQuantizer(colors: colors)
    var plain = VideoQuantizer(colors: colors)
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for round in 0..<60 {
      let (width, height) = (1 + next(21), 1 + next(13))
      let columns = (width + 1) / 2 + next(2)
      let rows = (height + 1) / 2 + next(2)
      let mirrored = next(2) == 0
      let first = Self.randomPicture(width: width, height: height, seed: &state)
      var picture = first
      for _ in 0..<next(4) {
        let (x, y) = (next(width), next(height))
        for dy in 0..<min(height - y, 1 + next(3)) {
          for dx in 0..<min(width - x, 1 + next(5)) {
            picture.rgb[((y + dy) * width + x + dx) * 3 + next(3)] &+= UInt8(1 + next(250))
          }
        }
      }
      // The runs: from the first to the last changed pixel of each band, sometimes wider.
      var runs: [VideoPicture.Run] = []
      for band in 0..<(height + 1) / 2 {
        let pixels = (2 * band..<min(height, 2 * band + 2)).flatMap { y in
          (0..<width).filter { x in
            (0..<3).contains {
              picture.rgb[(y * width + x) * 3 + $0] != first.rgb[(y * width + x) * 3 + $0]
            }
          }
        }
        guard var from = pixels.min(), var to = pixels.max().map({ $0 + 1 }) else { continue }
        if next(3) == 0 { (from, to) = (max(0, from - next(3)), min(width, to + next(3))) }
        runs.append(VideoPicture.Run(band: band, from: from, to: to))
      }
      let before = QuarterBlocks.Drawn(
        picture: VideoPicture(width: width, height: height, rgb: first.rgb, serial: 7),
        mirrored: mirrored, columns: columns, rows: rows,
        cells: QuarterBlocks.cells(
          first, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
          quantizer: &fast))
      let expected = Oracle.cells(
        picture, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
        quantizer: &plain)
      for base in [7, 6] {
        let said = VideoPicture(
          width: width, height: height, rgb: picture.rgb, serial: 8,
          changes: VideoPicture.Changes(base: base, runs: runs))
        var changed: [Int] = []
        let cells = QuarterBlocks.cells(
          said, columns: columns, rows: rows, mirrored: mirrored, colors: colors,
          quantizer: &fast, previous: before, changed: &changed)
        #expect(cells == expected, "seed \(seed), round \(round), base \(base)")
        #expect(changed == changed.sorted(), "seed \(seed), round \(round)")
        // Every cell that differs from the last is among those looked at.
        let differing = cells.indices.filter { cells[$0] != before.cells[$0] }
        #expect(Set(differing).isSubset(of: changed), "seed \(seed), round \(round)")
        if base == 7 {
          let touched = runs.reduce(0) { $0 + ($1.to - $1.from + 2) / 2 }
          #expect(changed.count <= touched, "seed \(seed), round \(round): only the runs' cells")
        }
      }
    }
  }

  /// A colour's palette index does not depend on the colours asked for before it (found by the
  /// patch test's random pictures: the bucket's first colour stood for it, so one colour took
  /// two indices).
  @Test(arguments: [VideoColors.palette256, .basic16, .basic8])
  func aColoursIndexDoesNotDependOnTheColoursBefore(colors: VideoColors) {
    var used = VideoQuantizer(colors: colors)
    var state: UInt64 = 99
    for _ in 0..<2_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let color = UInt32(truncatingIfNeeded: state >> 40) & 0xFF_FFFF
      var fresh = VideoQuantizer(colors: colors)
      #expect(
        used.index(color, colors: colors) == fresh.index(color, colors: colors),
        "0x\(String(color, radix: 16))")
    }
  }

  /// The search divides without a division instruction: every sum it can meet, every count.
  @Test func theDivisionIsExactForEverySumOfFourChannelValues() {
    for count in 1...4 {
      let wrong = (0...1020).filter { QuarterBlocks.divide($0, by: count) != $0 / count }
      #expect(wrong.isEmpty, "by \(count): \(wrong.prefix(3))")
    }
  }

  /// The same picture in a region of the same number of cells but another shape (a resize,
  /// full view): the cells of the other shape are not kept (found by the canvas's model test).
  @Test func cellsOfAnotherShapeAreNotKept() {
    var state: UInt64 = 7
    let picture = Self.randomPicture(width: 8, height: 8, seed: &state)
    var quantizer = VideoQuantizer(colors: .direct)
    let wide = QuarterBlocks.cells(
      picture, columns: 4, rows: 2, mirrored: false, colors: .direct, quantizer: &quantizer)
    let drawn = QuarterBlocks.Drawn(
      picture: picture, mirrored: false, columns: 4, rows: 2, cells: wide)
    let tall = QuarterBlocks.cells(
      picture, columns: 2, rows: 4, mirrored: false, colors: .direct, quantizer: &quantizer,
      previous: drawn)
    var plain = VideoQuantizer(colors: .direct)
    #expect(
      tall
        == Oracle.cells(
          picture, columns: 2, rows: 4, mirrored: false, colors: .direct, quantizer: &plain))
  }

  /// The plain computation: arrays for the four pixels, each shape tried in turn.
  enum Oracle {
    static let masks: [Int] = [0, 1, 2, 4, 8, 5, 9, 12]

    static func cells(
      _ picture: VideoPicture, columns: Int, rows: Int, mirrored: Bool, colors: VideoColors,
      quantizer: inout VideoQuantizer
    ) -> [BlockCell] {
      var cells = [BlockCell](
        repeating: BlockCell(glyph: 0, foreground: 0, background: 0), count: columns * rows)
      let width = picture.width
      let height = picture.height
      let rgb = picture.rgb
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
          if colors == .shades {
            cells[row * columns + column] = QuarterBlocks.shade(
              red: r.reduce(0, +), green: g.reduce(0, +), blue: b.reduce(0, +))
          } else {
            cells[row * columns + column] = best(r, g, b, colors: colors, quantizer: &quantizer)
          }
        }
      }
      return cells
    }

    static func best(
      _ r: [Int], _ g: [Int], _ b: [Int], colors: VideoColors, quantizer: inout VideoQuantizer
    ) -> BlockCell {
      var bestIndex = 0
      var bestError = Int.max
      var bestColors = ((0, 0, 0), (0, 0, 0))
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
          bestColors = (fg, bg)
          if error == 0 { break }
        }
      }
      // The cell from the shape and its colours is shared: what is held here is the search.
      return QuarterBlocks.cell(
        shape: bestIndex, foreground: bestColors.0, background: bestColors.1, colors: colors,
        quantizer: &quantizer)
    }
  }
}
