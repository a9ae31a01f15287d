/// How many terminal columns a character takes: 0 for combining marks and controls, 2 for East
/// Asian wide and fullwidth characters and emoji, 1 otherwise. Pure, so it does not depend on
/// the C library's locale.
package enum DisplayWidth {
  package static func of(_ character: Character) -> Int {
    // Fast path: printable ASCII, which is nearly all a form shows, is one column.
    if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
    guard let first = character.unicodeScalars.first else { return 0 }
    if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    return of(first)
  }

  package static func of(_ text: some StringProtocol) -> Int {
    // Printable ASCII takes a column a byte, and a text of scalars that stand alone one a
    // scalar: neither needs grapheme breaks (most of a key's width measuring went to them).
    let ascii =
      text.utf8.withContiguousStorageIfAvailable(asciiWidth)
      ?? Array(text.utf8).withUnsafeBufferPointer(asciiWidth)
    if let ascii { return ascii }
    var scalars = 0
    for scalar in text.unicodeScalars {
      guard standsAlone(scalar) else { return text.reduce(0) { $0 + of($1) } }
      scalars += 1
    }
    return scalars
  }

  /// The width of ASCII bytes (a column for each printable one), or nil when there is a byte
  /// that is not ASCII. A buffer's bytes are read several times faster than a string's.
  static func asciiWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var width = 0
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      if byte >= 0x20, byte < 0x7F { width += 1 }
    }
    return width
  }

  static func of(_ scalar: Unicode.Scalar) -> Int {
    // Fast path for ASCII and what the screens draw most after it (the Player's bar and
    // frames, accented letters): one column, without the property lookups below (a sixth of a
    // Player screen's drawing at 200 columns went to them). `slowly` gives the same.
    if standsAlone(scalar) { return 1 }
    return slowly(scalar)
  }

  /// Whether the scalar is a character of one column on its own, whatever stands beside it:
  /// printable ASCII, Latin-1 and spacing modifiers up to U+02FF (not the soft hyphen), dashes
  /// to the ellipsis (U+2010–U+2027), arrows (U+2190–U+21FF), box drawing and block elements
  /// (U+2500–U+25FC), the check marks and bar the screens draw (✓ ✗ ❚) and Braille (the
  /// spinner). None of them joins a neighbour into a grapheme cluster, and none is followed
  /// here by a scalar that joins it (a text with one goes the slow way).
  static func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
    standsAlone(value: scalar.value)
  }

  /// `standsAlone` of a scalar's value.
  @inline(__always)
  static func standsAlone(value: UInt32) -> Bool {
    if value < 0x300 { return (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value != 0xAD) }
    return (value >= 0x2010 && value <= 0x2027) || (value >= 0x2190 && value <= 0x21FF)
      || (value >= 0x2500 && value <= 0x25FC) || value == 0x2713 || value == 0x2717
      || value == 0x275A || (value >= 0x2800 && value <= 0x28FF)
  }

  /// `of(_:)` from the scalar's Unicode properties alone.
  static func slowly(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value >= 0x20, value < 0x7F { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .control, .format: return 0
    default: break
    }
    if value == 0 { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    return wideRanges.contains { $0.contains(value) } ? 2 : 1
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks, from Unicode's EastAsianWidth.txt.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
    0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
    0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}
