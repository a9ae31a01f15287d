import Testing

@testable import MyworkoutCore
@testable import MyworkoutView

/// Drawing where nothing of it lands (past an edge of the grid or of its clip, at any size down
/// to none) draws nothing and never stops the app: a range whose ends cross traps in Swift, and a
/// class's pattern in a narrow area did (a walk-through's follow-up looked for the others).
@Suite struct GridEdgeTests {
  static let picture = HalfBlockPicture(
    columns: 3, rows: 2, cells: Array(repeating: .colors(upper: 1, lower: 4), count: 6))

  @Test func fillingPastTheEdgesDrawsNothing() {
    var grid = Grid(width: 10, height: 4)
    let blank = grid
    for (row, column, count) in [(0, 12, 3), (0, 10, 1), (1, -5, 2), (2, 3, -4), (5, 0, 3)] {
      grid.fill(row: row, from: column, count: count, style: .button)
    }
    #expect(grid == blank)
    grid.fill(Rect(x: 20, y: 1, width: 3, height: 2), style: .button)
    #expect(grid == blank)
  }

  @Test func aPictureOutsideTheGridOrItsClipDrawsNothing() {
    for (row, column) in [(0, 12), (6, 0), (-5, 0), (0, -9), (3, 9)] {
      var grid = Grid(width: 10, height: 4)
      grid.draw(Self.picture, row: row, column: column)
      grid.draw(Self.picture, row: 0, column: 0, clip: Rect(x: 12, y: 0, width: 2, height: 2))
      grid.draw(Self.picture, row: 0, column: 0, clip: Rect(x: 0, y: 5, width: 2, height: 2))
      let drawn = grid.text.filter { $0 != " " && $0 != "\n" }.count
      #expect(drawn <= 1, "at \(row),\(column): only what lands inside")
    }
  }
}

/// The Player in each of its looks, drawn at sizes from none to a small terminal: every size
/// draws (the class pattern trapped in a narrow full view while a video loaded).
@Suite struct PlayerAtEverySizeTests {
  static func with(_ state: AppState, _ change: (inout PlayerState) -> Void) -> AppState {
    var state = state
    guard case .signedIn(var signedIn) = state.root, case .player(var player)? = signedIn.path.last
    else { return state }
    change(&player)
    signedIn.path[signedIn.path.count - 1] = .player(player)
    state.root = .signedIn(signedIn)
    return state
  }

  @Test func everyLookDrawsAtEverySize() {
    let base = PlayerSnapshotTests.state(stored: ClassProgress(lastPosition: 65_000))
    let fit = VideoFit(tile: TileSize(columns: 40, rows: 12), videoWidth: 320, videoHeight: 180)
    let looks: [(String, AppState)] = [
      ("the clock over the pattern", base),
      (
        "loading, full view, a loop from A",
        Self.with(base) {
          $0.video = .loading
          $0.fullScreen = true
          $0.loop = LoopMarks(start: 10_000)
        }
      ),
      (
        "showing, full view, mirrored, a loop",
        Self.with(base) {
          $0.video = .showing
          $0.videoFit = fit
          $0.fullScreen = true
          $0.mirrored = true
          $0.loop = LoopMarks(start: 10_000, end: 20_000)
        }
      ),
      (
        "showing in the page",
        Self.with(base) {
          $0.video = .showing
          $0.videoFit = fit
          $0.playback = .playing
          $0.soundNote = "no sound: no server or device"
          $0.volumeNote = 1
        }
      ),
      ("buffering", Self.with(base) { $0.video = .buffering }),
      ("failed", Self.with(base) { $0.video = .failed("the stream stopped (no connection)") }),
      (
        "finished",
        Self.with(base) {
          $0.playback = .finished
          $0.position = $0.duration
        }
      ),
    ]
    drawAtEverySize(looks)
  }
}

/// Every other screen drawn at sizes from none to a small terminal: Get started, Profile,
/// Lessons with a lesson, the Images grid with tiles and one opened, the Classes list and its
/// thumbnail preview.
@Suite struct ScreensAtEverySizeTests {
  @Test func everyScreenDrawsAtEverySize() {
    var classes = PlayerSnapshotTests.state(stored: ClassProgress())
    _ = reduce(&classes, .player(.backPressed))
    let screens: [(String, AppState)] = [
      ("Get started", AppState.launch(with: .none)),
      ("Profile", AppState.launch(with: .valid(ScreenSnapshotTests.session))),
      ("Lessons", LessonsSnapshotTests.state()),
      (
        "Images",
        ImagesSnapshotTests.state { layout in
          [
            0: .ready(
              ImagesSnapshotTests.picture(columns: layout.tile.columns, rows: layout.tile.rows))
          ]
        }
      ),
      (
        "an image opened",
        ImagesSnapshotTests.state(open: true) { layout in
          [
            0: .ready(
              ImagesSnapshotTests.picture(columns: layout.large.columns, rows: layout.large.rows))
          ]
        }
      ),
      ("Classes", classes),
    ]
    drawAtEverySize(screens)
  }
}

/// Draws each named state at every size from none to 40x14 (narrow widths closely): each
/// draws, at its size.
func drawAtEverySize(_ states: [(String, AppState)]) {
  let widths = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 17, 20, 24, 30, 40]
  for (name, state) in states {
    for width in widths {
      for height in 0...14 {
        let grid = Renderer.render(state, width: width, height: height)
        #expect(grid.width == width && grid.height == height, "\(name) at \(width)x\(height)")
      }
    }
  }
}

/// `Grid.put` within columns (a rectangle's clip, or the grid's edge) draws what the character
/// rule draws, for text mixing ASCII, controls, accents, combining marks, wide characters and
/// emoji: a rectangle's text was put a character at a time through a second put, each
/// character measured twice.
@Suite struct GridPutTests {
  /// The rule itself, written out again: the cells
  /// of a `width`x`height` grid of blanks after it, and the column after the text.
  static func reference(
    _ text: String, width: Int, height: Int, row: Int, column: Int, from left: Int,
    to right: Int, style: Style
  ) -> (cells: [Cell], end: Int) {
    var cells = Array(repeating: Cell.blank, count: width * height)
    guard row >= 0, row < height else { return (cells, column) }
    var col = column
    for character in text {
      let cellWidth = DisplayWidth.of(character)
      if cellWidth == 0 { continue }
      guard col + cellWidth <= min(right, width) else { break }
      if col >= max(left, 0) {
        cells[row * width + col] = Cell(String(character), style: style)
        if cellWidth == 2 { cells[row * width + col + 1] = Cell("", style: style) }
      }
      col += cellWidth
    }
    return (cells, col)
  }

  @Test func everyTextIsDrawnAsTheCharacterRuleDrawsIt() {
    let seed = UInt64.random(in: 1...UInt64.max)
    print("GridPutTests seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let pieces = [
      "a", "Z", " ", "~", "\t", "\n", "\r\n", "\u{7F}", "é", "e\u{301}", "世", "🙂", "❤️", "▶", "─",
      "x\u{200D}", "\u{FE0F}",
      // The edges of the characters drawn without grapheme breaking (`DisplayWidth.standsAlone`)
      // and what joins them; a family, longer than a cell holds inline.
      "\u{A0}", "\u{AD}", "\u{2FF}", "\u{300}", "\u{2500}", "\u{25FC}", "\u{25FD}",
      "\u{200F}", "\u{2010}", "\u{2027}", "\u{2028}", "\u{2190}", "\u{21FF}", "\u{2713}",
      "\u{2714}", "\u{2717}", "\u{275A}", "\u{2800}", "\u{28FF}",
      "👨‍👩‍👧‍👦",
    ]
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...12, using: &random)
      let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
      let ascii = text.utf8.allSatisfy { $0 < 0x80 }
      let row = Int.random(in: -1...3, using: &random)
      let column = Int.random(in: -4...10, using: &random)
      let left = Int.random(in: -2...6, using: &random)
      let right = Int.random(in: 0...12, using: &random)
      var grid = Grid(width: 10, height: 3)
      let end = grid.put(text, row: row, column: column, from: left, to: right, style: .button)
      let expected = Self.reference(
        text, width: 10, height: 3, row: row, column: column, from: left, to: right,
        style: .button)
      #expect(
        end == expected.end && grid.cells == expected.cells,
        "seed \(seed): \(text.debugDescription) at \(row),\(column) in \(left)..<\(right)\(ascii ? " (ASCII)" : "")"
      )
    }
  }
}

/// A cell keeps its character's first five scalars (what a terminal cell shows), whatever
/// their length, and cells are equal exactly when those bytes and their styles are: `é` and
/// `e` with a combining accent, equal as Swift strings, are different cells (the terminal is
/// sent other bytes), and so are two canonically equal characters too long to keep inline.
@Suite struct CellTests {
  static let characters = [
    " ", "a", "é", "e\u{301}", "▸", "世", "🙂", "❤️", "👩‍💻", "👨‍👩‍👧", "🏳️‍🌈", "",
    // U+1D15E is U+1D157 U+1D165: the same text to Swift, 16 and 20 bytes.
    "\u{1D15E}\u{1D15E}\u{1D15E}\u{1D15E}", "\u{1D157}\u{1D165}\u{1D15E}\u{1D15E}\u{1D15E}",
  ]

  @Test func aCellGivesBackItsCharacter() {
    for character in Self.characters {
      #expect(Cell(character, style: .hint).text == character, "\(character.debugDescription)")
      var bytes: [UInt8] = []
      Cell(character).appendUTF8(to: &bytes)
      #expect(bytes == Array(character.utf8), "\(character.debugDescription)")
    }
  }

  /// A cell made from one scalar's packed UTF-8 (as `Grid.put` packs it) is the cell made from
  /// its text, at the edges of each UTF-8 length and at random scalars between.
  @Test func aScalarsCellIsItsTextsCell() {
    var values: [UInt32] = [0x20, 0x7E, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x2500, 0xFFFD, 0x10000]
    values += [0x1F642, 0x10FFFF]
    var random = SeededGenerator(seed: 0xCE11)
    values += (0..<2_000).map { _ in UInt32.random(in: 0...0x10FFFF, using: &random) }
    func packed(_ scalar: Unicode.Scalar) -> UInt64 {
      String(scalar).utf8.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }
    for scalar in values.compactMap(Unicode.Scalar.init) {
      #expect(
        Cell(utf8: packed(scalar), count: String(scalar).utf8.count, style: .hint)
          == Cell(String(scalar), style: .hint),
        "U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
  }

  @Test func spacesAreWrittenInPlace() {
    #expect(String.spaces(0) == "" && String.spaces(-3) == "")
    #expect(String.spaces(1) == " " && String.spaces(40) == String(repeating: " ", count: 40))
  }

  /// Frames are compared as bytes (`GridDiff`): a cell is its three words, with no padding.
  @Test func aCellIsThreeWords() {
    #expect(Cell.isPlainWords)
    #expect(MemoryLayout<Cell>.stride == 24)
  }

  @Test func anASCIICellSaysItsByte() {
    #expect(Cell("a").asciiByte == 0x61 && Cell(" ", style: .footer).asciiByte == 0x20)
    for character in Self.characters where character.utf8.count != 1 {
      #expect(Cell(character).asciiByte == nil, "\(character.debugDescription)")
    }
  }

  @Test func aCellKeepsFiveScalars() {
    #expect(
      Cell("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}").text == "e\u{301}\u{302}\u{303}\u{304}")
    #expect(Cell("👨‍👩‍👧‍👦").text == "👨‍👩‍👧")
    #expect(Cell("👨‍👩‍👧‍👦") == Cell("👨‍👩‍👧‍👧"))
  }

  @Test func cellsAreEqualWhenTheirCharactersAndStylesAre() {
    for first in Self.characters {
      for second in Self.characters {
        let same = Array(first.utf8) == Array(second.utf8)
        #expect((Cell(first) == Cell(second)) == same, "\(first.debugDescription) \(second)")
      }
      #expect(Cell(first, style: .hint) != Cell(first, style: .button))
    }
    #expect(Cell(" ") == .blank)
    #expect(Cell(" ", style: .pixels(foreground: 3, background: 4)) != .blank)
    #expect(Cell("").isContinuation && !Cell("👨‍👩‍👧‍👦").isContinuation)
  }

  @Test func theLongCharactersTableStopsAtItsCapacity() {
    var table = LongCharacterTable(capacity: 2)
    let first = table.number(of: Array("👨‍👩‍👧".utf8))
    let second = table.number(of: Array("👩‍👩‍👧".utf8))
    #expect(first != nil && second != nil && first != second)
    #expect(table.number(of: Array("👨‍👩‍👧".utf8)) == first)
    #expect(table.number(of: Array("👨‍👨‍👧".utf8)) == nil)
    #expect(table.bytes(of: second!) == Array("👩‍👩‍👧".utf8))
  }

  @Test func aLineEndsAtItsLastCellThatIsNotASpace() {
    var grid = Grid(width: 6, height: 1)
    grid.put("x\u{D4E} ", row: 0, column: 0, style: .normal)
    grid.put(" ", row: 0, column: 4, style: .footer)
    #expect(grid.lines == ["x\u{D4E} "])
  }
}

/// Every style survives a cell: its number gives it back, and no two styles share one.
@Suite struct StyleCodeTests {
  @Test func everyStyleComesBackFromItsCode() {
    let bytes = Array(UInt8.min...UInt8.max)
    var styles: [Style] = [
      .normal, .heading, .label, .hint, .field, .valid, .invalid, .button, .buttonDisabled,
      .error, .success, .notice, .footer, .spinner, .border, .match, .header, .blank,
    ]
    styles += bytes.map(Style.avatar) + bytes.map(Style.colored)
    styles += bytes.flatMap { foreground in
      [0, 1, 7, 16, 128, 255].map { Style.pixels(foreground: foreground, background: $0) }
    }
    for style in styles {
      #expect(Style(code: style.code) == style, "\(style)")
      #expect(Cell("x", style: style).style == style, "\(style)")
    }
    #expect(Set(styles.map(\.code)).count == styles.count)
  }
}

/// SplitMix64, so that a seed printed by a failure replays it.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
