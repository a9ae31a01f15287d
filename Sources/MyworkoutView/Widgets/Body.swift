/// A run of text at a column.
struct Segment: Equatable {
  var column: Int
  var text: String
  var style: Style
}

/// One line of a screen's content before it is placed on the grid.
struct Row: Equatable {
  var segments: [Segment] = []
  /// Where the terminal cursor stands when this row holds the focused text field.
  var cursorColumn: Int?
  /// A blank line for air; dropped first when the terminal is short.
  var isSpacer = false

  static let spacer = Row(isSpacer: true)

  init(segments: [Segment] = [], cursorColumn: Int? = nil, isSpacer: Bool = false) {
    self.segments = segments
    self.cursorColumn = cursorColumn
    self.isSpacer = isSpacer
  }

  init(_ text: String, column: Int, style: Style) {
    self.init(segments: [Segment(column: column, text: text, style: style)])
  }
}

/// A screen's content as rows, with the row that must stay visible (the focused control).
struct Body {
  private(set) var rows: [Row] = []
  private(set) var focusRow: Int?

  mutating func add(_ row: Row, focused: Bool = false) {
    if focused { focusRow = rows.count }
    rows.append(row)
  }

  mutating func add(_ newRows: [Row], focused: Bool = false) {
    if focused, !newRows.isEmpty {
      focusRow = rows.count + (newRows.firstIndex { $0.cursorColumn != nil } ?? 0)
    }
    rows += newRows
  }

  mutating func spacer() { rows.append(.spacer) }
}
