import MyworkoutCore

/// Shortcuts for the import's hot path (100,000 rows within SPEC §16's 3 s), each with the same
/// result as the general code it stands in for.
enum FastText {
  /// `text` on one line: each run of control characters (a quoted field's line breaks, tabs)
  /// one space. The text itself, uncopied, when it has none (plain ASCII is checked by bytes).
  static func oneLine(_ text: String) -> String {
    if text.isPrintableASCII { return text }
    let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var line = String.UnicodeScalarView()
    var inRun = false
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        if !inRun { line.append(" ") }
        inRun = true
      } else {
        line.append(scalar)
        inRun = false
      }
    }
    return String(line)
  }

  /// The UTF-8 bytes of `text` in Unicode NFC (ASCII is NFC already).
  static func nfcBytes(_ text: String) -> [UInt8] {
    text.utf8.allSatisfy { $0 < 0x80 } ? Array(text.utf8) : text._nfcCodeUnits
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Lowercase hexadecimal, two digits a byte.
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    var digits: [UInt8] = []
    digits.reserveCapacity(64)
    for byte in bytes {
      digits.append(hexDigits[Int(byte >> 4)])
      digits.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: digits, as: UTF8.self)
  }
}
