import Synchronization

/// One terminal cell: a character (a grapheme cluster) and its style. A wide character fills
/// its own cell and a continuation cell (`text` empty) to its right.
///
/// The character's UTF-8 bytes are held in the cell itself (up to 15, which every character
/// but a long emoji sequence fits), so a cell is plain data: a frame of them is made, compared
/// and thrown away with no reference counting. Every key builds and compares a whole frame,
/// and `String` cells took a fifth of a key's time in making, comparing and freeing them.
package struct Cell: Equatable, Sendable {
  /// Bytes 0–7 of the character's UTF-8, the first in the lowest byte.
  private var low: UInt64
  /// Bytes 8–14, and in the top byte their count (0 for a continuation cell), or `long`.
  private var high: UInt64
  /// The style's `Style.code`: a cell is three words with no padding between, compared as
  /// words (a frame's 1,920 cells are compared on every key).
  private var styleCode: UInt64

  package var style: Style {
    get { Style(code: styleCode) }
    set { styleCode = newValue.code }
  }

  /// The count byte of a character longer than a cell holds: `low` is its number in `LongCharacters`.
  private static let long: UInt64 = 0xFF

  /// A terminal cell shows at most five scalars of a character (ncurses' `CCHARW_MAX`): a
  /// base and four marks, or an emoji sequence's first five. A cell keeps those.
  package static let scalarLimit = 5

  package init(_ text: String = " ", style: Style = .normal) {
    styleCode = style.code
    // The length in bytes of the first `scalarLimit` scalars, and of as many of them as fit
    // 15 bytes (a scalar starts at each byte that is not a continuation byte, 10xxxxxx).
    var length = 0
    var fitting = 0
    var scalars = 0
    for byte in text.utf8 {
      if byte & 0xC0 != 0x80 {
        if length <= 15 { fitting = length }
        scalars += 1
        if scalars > Self.scalarLimit { break }
      }
      length += 1
    }
    if length <= 15 {
      (low, high) = Self.packed(text.utf8.prefix(length))
      return
    }
    if let number = LongCharacters.number(of: Array(text.utf8.prefix(length))) {
      low = number
      high = Self.long << 56
      return
    }
    // The table is full: the scalars that fit.
    (low, high) = Self.packed(text.utf8.prefix(fitting))
  }

  /// A cell holding one ASCII character.
  init(ascii: UInt8, style: Style) {
    styleCode = style.code
    low = UInt64(ascii)
    high = 1 << 56
  }

  /// A cell holding a character of one scalar, from its UTF-8 bytes (`count`, at most 4) packed
  /// with the first in the lowest byte.
  init(utf8 packed: UInt64, count: Int, style: Style) {
    styleCode = style.code
    low = packed
    high = UInt64(count) << 56
  }

  /// Up to 15 bytes as `low` and `high` hold them, their count in `high`'s top byte.
  private static func packed(_ bytes: some Collection<UInt8>) -> (low: UInt64, high: UInt64) {
    var low: UInt64 = 0
    var high = UInt64(bytes.count) << 56
    for (index, byte) in bytes.enumerated() {
      if index < 8 {
        low |= UInt64(byte) << (8 * index)
      } else {
        high |= UInt64(byte) << (8 * (index - 8))
      }
    }
    return (low, high)
  }

  package static let blank = Cell()
  /// A cell is its three words and nothing else (no padding), and two cells are equal exactly
  /// when their words are: frames may be compared as bytes.
  static let isPlainWords =
    MemoryLayout<Cell>.size == 3 * MemoryLayout<UInt64>.size
    && MemoryLayout<Cell>.stride == MemoryLayout<Cell>.size
  package var isContinuation: Bool { high >> 56 == 0 }
  /// The character's byte when it is one ASCII character (most cells), else nil.
  package var asciiByte: UInt8? {
    high == 1 << 56 && low < 0x80 ? UInt8(truncatingIfNeeded: low) : nil
  }

  /// Whether the cell holds a space alone (in any style).
  var isSpace: Bool { low == 0x20 && high == 1 << 56 }

  /// The character (empty for a continuation cell).
  package var text: String {
    var bytes: [UInt8] = []
    appendUTF8(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the character's UTF-8 bytes.
  package func appendUTF8(to bytes: inout [UInt8]) {
    let count = Int(high >> 56)
    guard count != Self.long else {
      bytes += LongCharacters.bytes(of: low)
      return
    }
    for index in 0..<count {
      let word = index < 8 ? low : high
      bytes.append(UInt8(truncatingIfNeeded: word >> (8 * (index % 8))))
    }
  }
}

/// The characters longer than a cell holds inline (emoji of three or more joined with U+200D),
/// numbered in the order first drawn, by their bytes. A number stands for the same bytes for
/// the life of the table, so cells compare by it. It holds at most `capacity` of them (20
/// bytes each at most, as a cell keeps five scalars); past that, `number(of:)` answers nil.
package struct LongCharacterTable: Sendable {
  package let capacity: Int
  private var numbers: [[UInt8]: UInt64] = [:]
  private var characters: [[UInt8]] = []

  package init(capacity: Int) { self.capacity = capacity }

  package mutating func number(of bytes: [UInt8]) -> UInt64? {
    if let number = numbers[bytes] { return number }
    guard characters.count < capacity else { return nil }
    let number = UInt64(characters.count)
    characters.append(bytes)
    numbers[bytes] = number
    return number
  }

  package func bytes(of number: UInt64) -> [UInt8] { characters[Int(number)] }
}

/// The process's table of long characters; past its capacity a cell keeps what fits inline.
private enum LongCharacters {
  private static let table = Mutex(LongCharacterTable(capacity: 4_096))

  static func number(of bytes: [UInt8]) -> UInt64? { table.withLock { $0.number(of: bytes) } }
  static func bytes(of number: UInt64) -> [UInt8] { table.withLock { $0.bytes(of: number) } }
}

package struct Position: Equatable, Sendable {
  package var row: Int
  package var column: Int

  package init(row: Int, column: Int) {
    self.row = row
    self.column = column
  }
}

/// A frame to show: what every cell holds and where the cursor stands (nil hides it).
/// Rendering builds one; the terminal adapter draws it. Tests compare its text.
package struct Grid: Equatable, Sendable {
  package let width: Int
  package let height: Int
  package private(set) var cells: [Cell]
  package var cursor: Position?
  /// Where the Player's video goes (the app draws it there itself; the cells stay blank).
  package var video: VideoRegion?

  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: .blank, count: self.width * self.height)
  }

  package subscript(row: Int, column: Int) -> Cell {
    cells[row * width + column]
  }

  /// Writes text from a position, clipped at the right edge; returns the column after it.
  /// A wide character that would straddle the edge is not drawn.
  @discardableResult
  package mutating func put(_ text: String, row: Int, column: Int, style: Style) -> Int {
    put(text, row: row, column: column, from: 0, to: width, style: style)
  }

  /// Writes text on `row` from `column`, drawing only what lies within columns
  /// `left..<right` and the grid: a character past `right` ends the text, one before `left`
  /// takes its columns undrawn. Returns the column after the text.
  package mutating func put(
    _ text: String, row: Int, column: Int, from left: Int, to right: Int, style: Style
  ) -> Int {
    guard row >= 0, row < height else { return column }
    let right = min(right, width)
    let left = max(left, 0)
    // Nearly all a screen draws is scalars that join no neighbour and take one column (ASCII,
    // accented letters, box drawing, the focus marker): a scalar is a character, drawn from
    // the string's own UTF-8 without finding grapheme breaks (read a byte at a time from the
    // string, or a scalar at a time, it cost several times more). Each is drawn once the
    // scalar after it is known not to join it; at one that may, the text is drawn by
    // characters below, over the same cells. Controls take no column (as `DisplayWidth` says)
    // and join nothing but each other (CR LF).
    let start = row * width
    let drawn = text.utf8.withContiguousStorageIfAvailable { bytes in
      cells.withUnsafeMutableBufferPointer { cells -> Int? in
        var col = column
        if bytes.allSatisfy({ $0 < 0x80 }) {
          // ASCII alone (most texts): no scalar can join another but CR LF, both controls.
          for byte in bytes where byte >= 0x20 && byte < 0x7F {
            guard col < right else { break }
            if col >= left { cells[start + col] = Cell(ascii: byte, style: style) }
            col += 1
          }
          return col
        }
        var waiting: Cell?
        var index = 0
        while index < bytes.count {
          let lead = bytes[index]
          let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
          var packed = UInt64(lead)
          var value = UInt32(lead)
          if length > 1 {
            value &= 0x7F >> length
            for offset in 1..<length {
              let byte = bytes[index + offset]
              packed |= UInt64(byte) << (8 * offset)
              value = value << 6 | UInt32(byte & 0x3F)
            }
          }
          index += length
          let isControl = value < 0x20 || value == 0x7F
          guard isControl || DisplayWidth.standsAlone(value: value) else { return nil }
          if let cell = waiting {
            if col >= left { cells[start + col] = cell }
            col += 1
            waiting = nil
          }
          if isControl { continue }
          guard col < right else { return col }
          waiting = Cell(utf8: packed, count: length, style: style)
        }
        if let cell = waiting {
          if col >= left { cells[start + col] = cell }
          col += 1
        }
        return col
      }
    }
    if let drawn, let drawn { return drawn }
    var col = column
    for character in text {
      let cellWidth = DisplayWidth.of(character)
      if cellWidth == 0 { continue }
      guard col + cellWidth <= right else { break }
      if col >= left {
        cells[row * width + col] = Cell(String(character), style: style)
        if cellWidth == 2 { cells[row * width + col + 1] = Cell("", style: style) }
      }
      col += cellWidth
    }
    return col
  }

  /// Fills a run of cells with spaces in a style.
  package mutating func fill(row: Int, from column: Int, count: Int, style: Style) {
    let start = max(0, column)
    let end = min(width, column + count)
    guard row >= 0, row < height, start < end else { return }
    for col in start..<end {
      cells[row * width + col] = Cell(ascii: 0x20, style: style)
    }
  }

  /// The frame as lines of text, trailing spaces removed: what a person reads on screen.
  package var lines: [String] {
    (0..<height).map { row in
      var line: [UInt8] = []
      // The line's length without its trailing blank cells (a cell holding a space alone).
      var kept = 0
      for col in 0..<width {
        let cell = self[row, col]
        cell.appendUTF8(to: &line)
        if !cell.isContinuation, !cell.isSpace { kept = line.count }
      }
      return String(decoding: line.prefix(kept), as: UTF8.self)
    }
  }

  package var text: String { lines.joined(separator: "\n") }
}
