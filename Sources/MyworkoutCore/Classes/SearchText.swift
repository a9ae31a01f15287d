// The stdlib's own Unicode normalisation (the NFD and NFC iterators its String comparison uses)
// is only published as SPI. FoundationEssentials has no normalisation, and full Foundation (which
// has `folding(options:locale:)`) costs the app ICU's memory; SearchTextTests pin the behaviour
// relied on here, so a toolchain that changes it fails the tests rather than the search.
@_spi(_Unicode) import Swift

/// How search compares text (SPEC §11): case and diacritics ignored, any part of a word. Both
/// the stored text and the query are folded the same way, one character at a time: lowercased,
/// decomposed (NFD), combining diacritical marks dropped, a few Latin letters that have no
/// decomposition spelled out (`ø` → `o`, `ß` → `ss`, ...), then recomposed (NFC).
package enum SearchText {
  /// Joins the folded fields of a class, so that no term can match across two fields.
  package static let fieldSeparator: Unicode.Scalar = "\u{1F}"

  /// `text` folded for comparison: `Zoë` and `ZOË` both become `zoe`. The same as folding each
  /// character and joining the results (lowercasing here looks at no context), only faster.
  package static func fold(_ text: some StringProtocol) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var decomposed = String.UnicodeScalarView()
    for scalar in text.lowercased()._nfd {
      if scalar.isASCII {
        decomposed.append(scalar)
      } else if isCombiningDiacritic(scalar) {
        continue
      } else if let spelled = letters[scalar] {
        decomposed.append(contentsOf: spelled.unicodeScalars)
      } else {
        decomposed.append(scalar)
      }
    }
    var composed = String.UnicodeScalarView()
    composed.append(contentsOf: String(decomposed)._nfc)
    return String(composed)
  }

  /// One character folded (possibly to none, e.g. a lone combining mark, or to two).
  package static func fold(_ character: Character) -> String {
    character.isASCII ? character.lowercased() : fold(String(character))
  }

  /// The folded terms of a query: split at white space, empty ones (and control characters,
  /// such as the field separator) left out.
  package static func terms(of query: String) -> [String] {
    query.split(whereSeparator: \.isWhitespace).compactMap { word in
      let term = String(
        String.UnicodeScalarView(
          fold(word).unicodeScalars.filter { $0.properties.generalCategory != .control }))
      return term.isEmpty ? nil : term
    }
  }

  /// The searchable text of a class: its folded title, instructor, level and song.
  package static func searchable(
    title: String, instructor: String, level: ClassLevel, song: String
  ) -> String {
    let separator = String(fieldSeparator)
    return [title, instructor, level.rawValue, song].map { fold($0) }.joined(separator: separator)
  }

  /// Whether every term occurs in `searchable` (as Unicode scalars, as SQLite's `instr` does).
  package static func matches(_ terms: [String], in searchable: String) -> Bool {
    let haystack = Array(searchable.unicodeScalars)
    return terms.allSatisfy { firstOffset(of: Array($0.unicodeScalars), in: haystack) != nil }
  }

  /// Diacritics in the combining blocks (Latin, Greek and Cyrillic accents, and the like);
  /// other scripts' marks (vowel signs, viramas) change letters and are kept.
  private static func isCombiningDiacritic(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
      true
    default: false
    }
  }

  /// Lowercase letters with no canonical decomposition that readers take for a base letter
  /// with a mark, or for two letters.
  private static let letters: [Unicode.Scalar: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
    "ı": "i", "ħ": "h", "ŧ": "t", "ŀ": "l", "ĳ": "ij", "ſ": "s", "ﬀ": "ff", "ﬁ": "fi",
    "ﬂ": "fl", "ς": "σ",
  ]

  static func firstOffset(of needle: [Unicode.Scalar], in haystack: [Unicode.Scalar]) -> Int? {
    guard !needle.isEmpty else { return 0 }
    guard needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start] == needle[0]
      && haystack[start..<start + needle.count].elementsEqual(needle)
    {
      return start
    }
    return nil
  }
}
