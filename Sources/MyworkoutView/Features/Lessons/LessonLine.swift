import MyworkoutCore

/// A lesson's text laid out in rows: its segments in their colours, with the blank (what was
/// typed, underlined, then `_` for the room left) where the input range is. Wraps by display
/// width at the edge and at a newline in the text; the cursor stands in the blank.
enum LessonLine {
  /// One cell-sized piece of the line before it is placed.
  private enum Piece {
    case text(Character, Style)
    case lineBreak
    /// Where the cursor stands: before the next piece.
    case cursor
  }

  /// The rows from `column`, `width` columns wide in all; the row holding the cursor has its
  /// `cursorColumn` set when `answer` is given and the lesson has an input.
  static func rows(_ lesson: Lesson, answer: TextInput?, column: Int, width: Int) -> [Row] {
    place(pieces(lesson, answer: answer), column: column, width: max(1, width - column))
  }

  private static func pieces(_ lesson: Lesson, answer: TextInput?) -> [Piece] {
    var colors = LessonColors()
    var pieces: [Piece] = []
    func add(_ segments: [Lesson.Segment]) {
      for segment in segments {
        let style = colors.style(for: segment.colour)
        for character in segment.text {
          switch character {
          case "\n", "\r\n": pieces.append(.lineBreak)
          case "\t": pieces += Array(repeating: .text(" ", style), count: 4)
          default: pieces.append(.text(character, style))
          }
        }
      }
    }
    guard let answer, lesson.hasInput else {
      add(lesson.segments)
      return pieces
    }
    let parts = lesson.parts
    add(parts.before)
    let typed = Array(answer.text)
    for (index, character) in typed.enumerated() {
      if index == answer.cursor { pieces.append(.cursor) }
      pieces.append(.text(character, .blank))
    }
    if answer.cursor >= typed.count { pieces.append(.cursor) }
    let room = max(1, DisplayWidth.of(parts.expected)) - DisplayWidth.of(answer.text)
    pieces += Array(repeating: .text("_", .hint), count: max(0, room))
    add(parts.after)
    return pieces
  }

  private static func place(_ pieces: [Piece], column: Int, width: Int) -> [Row] {
    let breaks = wrapPoints(pieces, width: width)
    var rows: [Row] = [Row()]
    var used = 0
    var cursorPending = false
    func newRow() {
      rows.append(Row())
      used = 0
    }
    func markCursor() {
      rows[rows.count - 1].cursorColumn = column + used
      cursorPending = false
    }
    for (index, piece) in pieces.enumerated() {
      if breaks.contains(index) { newRow() }
      switch piece {
      case .lineBreak:
        if cursorPending, used < width { markCursor() }
        newRow()
        if cursorPending { markCursor() }
      case .cursor:
        cursorPending = true
      case .text(let character, let style):
        let cells = DisplayWidth.of(character)
        guard cells > 0 else { continue }
        if used + cells > width, used > 0 { newRow() }
        if cursorPending { markCursor() }
        var row = rows[rows.count - 1]
        if var last = row.segments.last, last.style == style,
          last.column + DisplayWidth.of(last.text) == column + used
        {
          last.text.append(character)
          row.segments[row.segments.count - 1] = last
        } else {
          row.segments.append(Segment(column: column + used, text: String(character), style: style))
        }
        rows[rows.count - 1] = row
        used += cells
      }
    }
    if cursorPending {
      if used >= width { newRow() }
      markCursor()
    }
    return rows
  }

  /// The pieces that start a new row: after the last space that fits, or where a word longer
  /// than the row is cut.
  private static func wrapPoints(_ pieces: [Piece], width: Int) -> Set<Int> {
    var breaks: Set<Int> = []
    var used = 0
    var rowStart = 0
    /// The first piece after the last space in this row, where a word starts.
    var wordStart: Int?
    for (index, piece) in pieces.enumerated() {
      switch piece {
      case .lineBreak:
        used = 0
        rowStart = index + 1
        wordStart = nil
      case .cursor:
        break
      case .text(let character, _):
        let cells = DisplayWidth.of(character)
        guard cells > 0 else { continue }
        if used + cells > width, used > 0 {
          if let start = wordStart, start > rowStart {
            breaks.insert(start)
            rowStart = start
            used = pieces[start..<index].reduce(0) { sum, piece in
              guard case .text(let character, _) = piece else { return sum }
              return sum + DisplayWidth.of(character)
            }
          }
          if used + cells > width {
            breaks.insert(index)
            rowStart = index
            used = 0
          }
          wordStart = nil
        }
        used += cells
        if character == " " { wordStart = index + 1 }
      }
    }
    return breaks
  }
}
