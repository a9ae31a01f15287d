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
        // After a `/` or `-` in it, when what follows then fits the next line whole (`play/`
        // `pause`, not `play/pau` `se`); a longer run (a URL's hash) breaks where lines end.
        if head.last != "/", head.last != "-",
          let cut = head.dropLast().lastIndex(where: { $0 == "/" || $0 == "-" }),
          cut > head.startIndex,
          DisplayWidth.of(rest.dropFirst(head[...cut].count)) <= width
        {
          head = String(head[...cut])
        }
        lines.append(head)
        rest.removeFirst(head.count)
      }
      line = rest
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The text cut to `width` columns, ending in `…` when something was cut. Walks only as far
  /// as the width reaches, so a very long text costs no more than a short one.
  static func truncated(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    var used = 0
    // The end of the text that fits in `width - 1` columns, where `…` would follow.
    var cut: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      let columns = DisplayWidth.of(character)
      if used + columns > width - 1, cut == nil { cut = index }
      if used + columns > width { return String(text[..<(cut ?? index)]) + "…" }
      used += columns
      index = text.index(after: index)
    }
    return text
  }

  /// A line centred in the width (left-aligned when it does not fit).
  static func centered(_ text: String, width: Int, style: Style) -> Row {
    let column = max(0, (width - DisplayWidth.of(text)) / 2)
    return Row(text, column: column, style: style)
  }
}
