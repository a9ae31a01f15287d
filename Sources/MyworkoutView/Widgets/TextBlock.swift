/// Text wrapped at word boundaries to fit the width (a long message is never cut off).
enum TextBlock {
  static func rows(_ text: String, column: Int, width: Int, style: Style) -> [Row] {
    wrap(text, width: max(1, width - column)).map { Row($0, column: column, style: style) }
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if DisplayWidth.of(candidate) <= width {
        line = candidate
        continue
      }
      if !line.isEmpty { lines.append(line) }
      var rest = String(word)
      while DisplayWidth.of(rest) > width {
        var head = ""
        for character in rest {
          guard DisplayWidth.of(head) + DisplayWidth.of(character) <= width else { break }
          head.append(character)
        }
        if head.isEmpty { break }
        lines.append(head)
        rest.removeFirst(head.count)
      }
      line = rest
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The text cut to `width` columns, ending in `…` when something was cut.
  static func truncated(_ text: String, width: Int) -> String {
    guard DisplayWidth.of(text) > width else { return text }
    guard width > 0 else { return "" }
    var kept = ""
    for character in text {
      guard DisplayWidth.of(kept) + DisplayWidth.of(character) <= width - 1 else { break }
      kept.append(character)
    }
    return kept + "…"
  }

  /// A line centred in the width (left-aligned when it does not fit).
  static func centered(_ text: String, width: Int, style: Style) -> Row {
    let column = max(0, (width - DisplayWidth.of(text)) / 2)
    return Row(text, column: column, style: style)
  }
}
