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
  /// Whether the focused control (a button) is on this row.
  var holdsFocus = false
  /// A blank line for air, art or a hint: dropped first when the terminal is short.
  var isOptional = false
  /// A message or spinner line that must stay in view with the focused control.
  var isPinned = false
  /// The columns of the focus stops on this row (a field, a button), left to right; `Body`
  /// numbers them in screen order, which is the form's focus order, for mouse clicks.
  var zones: [Zone] = []

  struct Zone: Equatable {
    var columns: Range<Int>
    /// The stop's place in the screen's focus order (set when the row joins a `Body`).
    var stop = 0
  }

  static let spacer = Row(isOptional: true)

  /// The same row, marked as one that may be dropped on a short terminal.
  var optional: Row {
    var copy = self
    copy.isOptional = true
    return copy
  }

  init(segments: [Segment] = [], cursorColumn: Int? = nil, isOptional: Bool = false) {
    self.segments = segments
    self.cursorColumn = cursorColumn
    self.isOptional = isOptional
  }

  init(_ text: String, column: Int, style: Style) {
    self.init(segments: [Segment(column: column, text: text, style: style)])
  }
}

/// A screen's content as rows, with the row that must stay visible (the focused control).
struct Body: Equatable {
  private(set) var rows: [Row]
  private(set) var focusRow: Int?
  /// How many focus stops the rows so far hold.
  private var stops = 0

  init() {
    // Room for a form's rows, so that adding them does not move them again and again.
    rows = []
    rows.reserveCapacity(24)
  }

  mutating func add(_ row: Row, focused: Bool = false) {
    if focused { focusRow = rows.count }
    append(row)
  }

  /// Appends a row, numbering its focus stops after those already there.
  private mutating func append(_ row: Row) {
    var numbered = row
    for index in numbered.zones.indices {
      numbered.zones[index].stop = stops
      stops += 1
    }
    rows.append(numbered)
  }

  /// Adds rows; when `focused`, the row to keep in view is the one holding the cursor, else the
  /// one marked `holdsFocus`, else the first.
  mutating func add(_ newRows: [Row], focused: Bool = false) {
    if focused, !newRows.isEmpty {
      let index =
        newRows.firstIndex { $0.cursorColumn != nil } ?? newRows.firstIndex(where: \.holdsFocus)
        ?? 0
      focusRow = rows.count + index
    }
    newRows.forEach { append($0) }
  }

  mutating func spacer() { rows.append(.spacer) }

  /// Rows that must stay in view together with the focused control (an error, a spinner).
  mutating func addPinned(_ newRows: [Row]) {
    rows += newRows.map { row in
      var pinned = row
      pinned.isPinned = true
      return pinned
    }
  }

  /// Rows that help but are not needed (hints, art): dropped first on a short terminal.
  mutating func addOptional(_ newRows: [Row]) { rows += newRows.map(\.optional) }
}
