import MyworkoutCore

/// A labelled single-line field: `Email       [registered@email.com     ] ✓`.
/// The value scrolls sideways to keep the cursor in view; widths are display widths.
enum TextFieldView {
  static func rows(
    label: String, input: TextInput, masked: Bool, validity: FieldValidity, focused: Bool,
    readOnly: Bool = false, metrics: Metrics
  ) -> [Row] {
    let (visible, cursorOffset) = window(
      of: input.text, masked: masked, cursor: input.cursor, width: metrics.fieldWidth)
    var row = fieldRow(
      // While a request runs the fields take no keys, and look it (dim).
      value: visible, valueStyle: readOnly ? .buttonDisabled : .field,
      validity: validity,
      focused: focused, metrics: metrics)
    if focused { row.cursorColumn = metrics.fieldColumn + 1 + cursorOffset }
    row.zones = [
      Row.Zone(columns: metrics.labelColumn..<(metrics.fieldColumn + metrics.fieldWidth + 2))
    ]
    return labelled(row, label: label, focused: focused, metrics: metrics)
  }

  /// The part of a field's text (shown as `•`s when masked) that fits `width` columns with the
  /// cursor in view, and the cursor's column within it.
  static func window(of text: String, masked: Bool, cursor: Int, width: Int) -> (String, Int) {
    // Printable ASCII, or a mask, takes a column a character: the window is arithmetic, with
    // no characters to find and measure (a key's field was a thirtieth of its work).
    if masked {
      let (start, end, column) = narrowWindow(count: text.count, cursor: cursor, width: width)
      return (String(repeating: "•", count: end - start), column)
    }
    if text.isPrintableASCII {
      let bytes = text.utf8
      let (start, end, column) = narrowWindow(count: bytes.count, cursor: cursor, width: width)
      let from = bytes.index(bytes.startIndex, offsetBy: start)
      let to = bytes.index(from, offsetBy: end - start)
      return (String(text[from..<to]), column)
    }
    return window(Array(text), cursor: cursor, width: width)
  }

  /// `window` of `count` characters a column each: the shown ones' range, and the cursor's
  /// column in it.
  private static func narrowWindow(count: Int, cursor: Int, width: Int) -> (
    start: Int, end: Int, column: Int
  ) {
    let start = min(cursor, max(0, cursor - max(0, width - 1)))
    return (start, min(count, start + max(0, width)), cursor - start)
  }

  /// The part of the value that fits `width` columns with the cursor in view, and the cursor's
  /// column within it.
  static func window(_ characters: [Character], cursor: Int, width: Int) -> (String, Int) {
    // Each character measured once; the window's start moves right while what lies between it
    // and the cursor does not fit before the field's last column.
    let widths = characters.map { DisplayWidth.of($0) }
    var start = 0
    var beforeCursor = widths[..<cursor].reduce(0, +)
    while start < cursor, beforeCursor > max(0, width - 1) {
      beforeCursor -= widths[start]
      start += 1
    }
    var visible = ""
    var used = 0
    for index in start..<characters.count {
      guard used + widths[index] <= width else { break }
      visible.append(characters[index])
      used += widths[index]
    }
    return (visible, beforeCursor)
  }

  /// The bracketed value and the validity marker; brackets take the validity's colour.
  static func fieldRow(
    value: String, valueStyle: Style, validity: FieldValidity, focused: Bool, metrics: Metrics
  ) -> Row {
    let bracket: Style =
      switch validity {
      case .neutral: .border
      case .valid: .valid
      case .invalid: .invalid
      }
    let pad = String.spaces(max(0, metrics.fieldWidth - DisplayWidth.of(value)))
    var segments = [
      Segment(column: metrics.fieldColumn, text: "[", style: bracket),
      Segment(column: metrics.fieldColumn + 1, text: value + pad, style: valueStyle),
      Segment(column: metrics.fieldColumn + 1 + metrics.fieldWidth, text: "]", style: bracket),
    ]
    let markerColumn = metrics.fieldColumn + metrics.fieldWidth + 3
    switch validity {
    case .neutral: break
    case .valid: segments.append(Segment(column: markerColumn, text: "✓", style: .valid))
    case .invalid: segments.append(Segment(column: markerColumn, text: "✗", style: .invalid))
    }
    return Row(segments: segments)
  }

  /// Puts the label (and the focus marker) beside the field, or above it on narrow screens.
  static func labelled(_ row: Row, label: String, focused: Bool, metrics: Metrics) -> [Row] {
    var labelSegments = [
      Segment(column: metrics.labelColumn, text: label, style: .label)
    ]
    if focused {
      labelSegments.insert(Segment(column: metrics.margin, text: "▸", style: .normal), at: 0)
    }
    if metrics.inlineLabels {
      var combined = row
      combined.segments = labelSegments + row.segments
      return [combined]
    }
    return [Row(segments: labelSegments), row]
  }
}
