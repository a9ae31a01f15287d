/// Text wrapped at word boundaries to fit the width (a long message is never cut off).
enum TextBlock {
  static func rows(_ text: String, column: Int, width: Int, style: Style) -> [Row] {
    wrap(text, width: max(1, width - column)).map { Row($0, column: column, style: style) }
  }

  /// A form wraps the same hint on every key: the lines of the texts wrapped last are kept
  /// (`Remembered`), by text and width.
  static func wrap(_ text: String, width: Int) -> [String] {
    remembered.value(for: Wrapped(text: ExactText(text), width: width)) {
      wrapping(text, width: width)
    }
  }

  /// By bytes: two strings Swift holds equal (`é` and `e` + U+0301) are wrapped apart, so that
  /// each is drawn as it was written.
  struct Wrapped: Hashable, Sendable {
    var text: ExactText
    var width: Int
  }

  static let remembered = Remembered<Wrapped, [String]>()

  /// Widths are summed as the words come (a line's width is never measured again), so a long
  /// text costs in proportion to its length.
  static func wrapping(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in text.split(separator: " ") {
      let wordWidth = DisplayWidth.of(word)
      let candidateWidth = line.isEmpty ? wordWidth : lineWidth + 1 + wordWidth
      if candidateWidth <= width {
        if !line.isEmpty { line += " " }
        line += word
        lineWidth = candidateWidth
        continue
      }
      if !line.isEmpty { lines.append(line) }
      var rest = String(word)
      var restWidth = wordWidth
      while restWidth > width {
        var head = ""
        var headWidth = 0
        for character in rest {
          let characterWidth = DisplayWidth.of(character)
          guard headWidth + characterWidth <= width else { break }
          head.append(character)
          headWidth += characterWidth
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
          headWidth = DisplayWidth.of(head)
        }
        lines.append(head)
        rest.removeFirst(head.count)
        restWidth -= headWidth
      }
      line = rest
      lineWidth = restWidth
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
    centered(text, width: width, columns: DisplayWidth.of(text), style: style)
  }

  /// A line of `columns` columns centred in the width.
  static func centered(_ text: String, width: Int, columns: Int, style: Style) -> Row {
    Row(text, column: max(0, (width - columns) / 2), style: style)
  }
}

extension String {
  /// `count` spaces (none for a count below one), written in place: `String(repeating:count:)`
  /// appends them one at a time, a twentieth of a key's work on a form.
  static func spaces(_ count: Int) -> String {
    let count = Swift.max(0, count)
    return String(unsafeUninitializedCapacity: count) { bytes in
      bytes.initialize(repeating: UInt8(ascii: " "))
      return count
    }
  }
}

/// A string that is equal to another, and hashed, by its UTF-8 bytes: Swift's `==` holds
/// canonically equivalent strings equal (`é` and `e` + U+0301), which draw differently.
struct ExactText: Hashable, Sendable {
  var text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: Self, rhs: Self) -> Bool {
    var lhs = lhs.text
    var rhs = rhs.text
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
  }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
