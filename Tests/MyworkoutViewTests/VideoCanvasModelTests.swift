import Foundation
import Testing

@testable import MyworkoutCore
@testable import MyworkoutView

/// The canvas sends only what changed, and decides that from what it believes the terminal
/// shows. A seeded model test holds that belief to a terminal that reads the bytes: after
/// random sequences of what a video does (small changes, noise, whole new pictures, a mirror,
/// ncurses drawing over the region, the region moving), every cell of the region must look
/// like the picture's cell as computed afresh (the same glyph, or its complement with the
/// colours swapped; 24-bit colours within the canvas's tolerance, palette indices exact), and a
/// picture painted twice sends nothing the second time.
@Suite struct VideoCanvasModelTests {
  /// A terminal that understands what the canvas writes: moves, SGR colours, glyphs, the
  /// cursor saved and restored, synchronized output.
  struct Screen {
    struct Cell: Equatable {
      var glyph: String
      var foreground: UInt32?
      var background: UInt32?
    }
    let width: Int
    let height: Int
    var cells: [Cell]
    var row = 0
    var column = 0
    var saved = (0, 0)
    var foreground: UInt32?
    var background: UInt32?
    var synchronized = false

    static let unknown = Cell(glyph: "?", foreground: nil, background: nil)

    init(width: Int, height: Int) {
      self.width = width
      self.height = height
      cells = Array(repeating: Self.unknown, count: width * height)
    }

    /// What ncurses (or a resize) leaves: nothing the canvas may count on.
    mutating func scribble() {
      cells = Array(repeating: Self.unknown, count: width * height)
    }

    mutating func apply(_ bytes: [UInt8]) throws {
      let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
      var index = 0
      while index < text.count {
        let scalar = text[index]
        guard scalar == "\u{1B}" else {
          try put(String(scalar))
          index += 1
          continue
        }
        index += 1
        guard index < text.count else { throw Failure("a cut escape sequence") }
        switch text[index] {
        case "7":
          saved = (row, column)
          index += 1
        case "8":
          (row, column) = saved
          index += 1
        case "[":
          index += 1
          var parameters = ""
          while index < text.count, !(0x40...0x7E).contains(text[index].value) {
            parameters.unicodeScalars.append(text[index])
            index += 1
          }
          guard index < text.count else { throw Failure("a cut CSI") }
          try csi(parameters, final: text[index])
          index += 1
        default:
          throw Failure("ESC \(text[index]) is not one the canvas sends")
        }
      }
    }

    private mutating func csi(_ parameters: String, final: Unicode.Scalar) throws {
      let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map {
        Int($0) ?? 0
      }
      switch (parameters.first == "?", final) {
      case (true, "h"), (true, "l"):
        guard parameters == "?2026" else { throw Failure("mode \(parameters)") }
        synchronized = final == "h"
      case (false, "H"):
        guard numbers.count == 2 else { throw Failure("CSI \(parameters) H") }
        (row, column) = (numbers[0] - 1, numbers[1] - 1)
      case (false, "C"):
        column += parameters.isEmpty ? 1 : numbers[0]
      case (false, "m"):
        var at = 0
        while at < numbers.count {
          let code = numbers[at]
          switch code {
          case 0:
            (foreground, background) = (nil, nil)
            at += 1
          case 38, 48:
            guard at + 1 < numbers.count else { throw Failure("SGR \(parameters)") }
            let colour: UInt32
            if numbers[at + 1] == 2, at + 4 < numbers.count {
              colour =
                UInt32(numbers[at + 2]) << 16 | UInt32(numbers[at + 3]) << 8
                | UInt32(numbers[at + 4])
              at += 5
            } else if numbers[at + 1] == 5, at + 2 < numbers.count {
              colour = UInt32(numbers[at + 2])
              at += 3
            } else {
              throw Failure("SGR \(parameters)")
            }
            if code == 38 { foreground = colour } else { background = colour }
          case 30...37:
            foreground = UInt32(code - 30)
            at += 1
          case 40...47:
            background = UInt32(code - 40)
            at += 1
          case 90...97:
            foreground = UInt32(code - 90 + 8)
            at += 1
          case 100...107:
            background = UInt32(code - 100 + 8)
            at += 1
          default:
            throw Failure("SGR \(code)")
          }
        }
      default:
        throw Failure("CSI \(parameters) \(final)")
      }
    }

    private mutating func put(_ glyph: String) throws {
      guard synchronized else { throw Failure("a glyph outside synchronized output") }
      guard row >= 0, row < height, column >= 0, column < width else {
        throw Failure("a glyph outside the screen at \(row),\(column)")
      }
      cells[row * width + column] = Cell(
        glyph: glyph, foreground: foreground, background: background)
      column += 1
    }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// The glyph index and colours a screen cell stands for (a complement glyph is its shape with
  /// the colours swapped), or nil.
  static func meaning(_ cell: Screen.Cell, colors: VideoColors) -> BlockCell? {
    if colors == .shades {
      guard let level = QuarterBlocks.shades.firstIndex(of: cell.glyph) else { return nil }
      return BlockCell(glyph: UInt8(level), foreground: 0, background: 0)
    }
    guard let paper = cell.background else { return nil }
    if cell.glyph == " " { return BlockCell(glyph: 0, foreground: paper, background: paper) }
    guard let ink = cell.foreground else { return nil }
    if let shape = QuarterBlocks.glyphs.firstIndex(of: cell.glyph) {
      return BlockCell(glyph: UInt8(shape), foreground: ink, background: paper)
    }
    let complements = [" ", "▟", "▙", "▜", "▛", "▐", "▞", "▀"]
    if let shape = complements.firstIndex(of: cell.glyph), shape > 0 {
      return BlockCell(glyph: UInt8(shape), foreground: paper, background: ink)
    }
    return nil
  }

  static func looksLike(_ shown: BlockCell, _ wanted: BlockCell, colors: VideoColors) -> Bool {
    guard shown.glyph == wanted.glyph else { return false }
    guard colors == .direct else {
      return colors == .shades
        || (shown.background == wanted.background
          && (wanted.glyph == 0 || shown.foreground == wanted.foreground))
    }
    func close(_ a: UInt32, _ b: UInt32) -> Bool {
      [0, 8, 16].allSatisfy { shift in
        let x = Int(a >> UInt32(shift) & 255)
        let y = Int(b >> UInt32(shift) & 255)
        return abs(x - y) <= Int(VideoCanvas.colourTolerance)
      }
    }
    return close(shown.background, wanted.background)
      && (wanted.glyph == 0 || close(shown.foreground, wanted.foreground))
  }

  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test(arguments: [VideoColors.direct, .palette256, .basic16, .basic8, .shades])
  func theScreenAlwaysShowsThePicture(colors: VideoColors) throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["CANVAS_SEED"] ?? "") ?? 20_261_126
    var random = Random(state: seed)
    var screen = Screen(width: 40, height: 16)
    var canvas = VideoCanvas(colors: colors)
    var fresh = VideoQuantizer(colors: colors)
    var region = VideoRegion(rect: Rect(x: 3, y: 2, width: 12, height: 6), mirrored: false)
    var picture = QuarterBlocksOracleTests.randomPicture(width: 24, height: 12, seed: &random.state)
    for step in 0..<400 {
      let context = "seed \(seed) (CANVAS_SEED), \(colors), step \(step)"
      var repeated = false
      switch random.next(20) {
      case 0..<8:
        // A figure moves: a rectangle of the picture takes a new colour.
        let (x, y) = (random.next(picture.width), random.next(picture.height))
        let (w, h) = (1 + random.next(6), 1 + random.next(4))
        let colour = [random.next(256), random.next(256), random.next(256)].map(UInt8.init)
        for row in y..<min(picture.height, y + h) {
          for column in x..<min(picture.width, x + w) {
            for channel in 0..<3 {
              picture.rgb[(row * picture.width + column) * 3 + channel] = colour[channel]
            }
          }
        }
      case 8..<12:
        // The decoder's noise: a few values move by 1 to 5.
        for _ in 0..<(1 + random.next(40)) {
          let index = random.next(picture.rgb.count)
          let move = random.next(11) - 5
          picture.rgb[index] = UInt8(clamping: Int(picture.rgb[index]) + move)
        }
      case 12:
        let width = [24, 23, 20, 30][random.next(4)]
        let height = [12, 11, 8, 14][random.next(4)]
        picture = QuarterBlocksOracleTests.randomPicture(
          width: width, height: height, seed: &random.state)
      case 13:
        region.mirrored.toggle()
      case 14:
        // ncurses drew over the region (a dialog, a redraw): the app says so.
        screen.scribble()
        canvas.invalidate()
      case 15:
        region.rect = Rect(
          x: random.next(8), y: random.next(6), width: 6 + random.next(10),
          height: 3 + random.next(6))
        // What the region covers now was drawn by ncurses.
        screen.scribble()
      default:
        repeated = true
      }
      let bytes = canvas.paint(picture, in: region)
      if repeated {
        let again = canvas.paint(picture, in: region)
        #expect(again.isEmpty, "the same picture twice sent \(again.count) bytes; \(context)")
      }
      try screen.apply(bytes)
      #expect(!screen.synchronized, "synchronized output left on; \(context)")
      let wanted = QuarterBlocks.cells(
        picture, columns: region.rect.width, rows: region.rect.height,
        mirrored: region.mirrored, colors: colors, quantizer: &fresh)
      var wrong: [String] = []
      for row in 0..<region.rect.height {
        for column in 0..<region.rect.width {
          let cell = screen.cells[(region.rect.y + row) * screen.width + region.rect.x + column]
          let expected = wanted[row * region.rect.width + column]
          let shown = Self.meaning(cell, colors: colors)
          if shown.map({ Self.looksLike($0, expected, colors: colors) }) != true {
            wrong.append("\(row),\(column): \(cell) for \(expected)")
          }
        }
      }
      #expect(wrong.isEmpty, "\(context): \(wrong.count) cells wrong, first \(wrong.prefix(2))")
      if !wrong.isEmpty { return }
    }
  }
}
