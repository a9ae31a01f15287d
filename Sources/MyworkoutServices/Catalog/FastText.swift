import MyworkoutCore

/// Shortcuts for the import's hot path (100,000 rows within SPEC §16's 3 s), each with the same
/// result as the general code it stands in for.
enum FastText {
  /// `text.trimmingWhitespace()`, without walking characters when the ends are plain ASCII.
  static func trimmed(_ text: String) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    if isPlain(first), isPlain(last) { return text }
    return text.trimmingWhitespace()
  }

  /// An ASCII byte that is not white space (a byte ≥ 0x80 may start a white-space character).
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte > 0x20 && byte < 0x7F
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
