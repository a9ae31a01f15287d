// NFC from the stdlib's own normaliser (SPI, as SearchText uses it): FoundationEssentials has
// none and full Foundation costs the app ICU. It is already part of the stdlib the app loads.
@_spi(_Unicode) import Swift

/// Email rules shared by every screen: how addresses are compared and what counts as well formed.
package enum Email {
  /// The form used to compare and store addresses: trimmed, lowercased and in Unicode NFC, so
  /// that `e` + U+0301 and `é` (what a keyboard sends differs by system) are one address. A
  /// store's bytes compare: without NFC they were two accounts.
  package static func normalized(_ raw: String) -> String {
    let lowered = storedBeforeNFC(raw)
    if lowered.utf8.allSatisfy({ $0 < 0x80 }) { return lowered }
    var composed = String.UnicodeScalarView()
    composed.append(contentsOf: lowered._nfc)
    return String(composed)
  }

  /// The key the server's stores filed an account under before `normalized` put it in NFC:
  /// trimmed and lowercased, in whatever form the address was typed. Those rows keep it (they
  /// are not rewritten: see `SQLiteAccountStore.account(email:)`); differs from `normalized`
  /// only for an address typed not in NFC.
  /// Only ASCII: such an address has no other Unicode spelling.
  package static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

  package static func storedBeforeNFC(_ raw: String) -> String {
    raw.trimmingWhitespace().lowercased()
  }

  /// The marks a local part may hold besides letters and digits (RFC 5322's atext, and `.`).
  private static let allowedInLocalPart = Set("!#$%&'*+-/=?^_`{|}~.")

  /// `local@domain.tld`: one `@`, a non-empty local part, a dotted domain whose labels are
  /// letters, digits or hyphens (not at either end) and whose last label is at least two letters.
  /// No spaces or control characters anywhere. Unicode letters are accepted in both parts.
  package static func isValid(_ raw: String) -> Bool {
    // Checked (twice) on every key typed into an email field: an ASCII address by its bytes,
    // trimmed there, without finding grapheme clusters and their properties (which gives the
    // same answer).
    if isASCII(raw),
      let valid = raw.utf8.withContiguousStorageIfAvailable({ isValidASCII(trimming: $0) })
    {
      return valid
    }
    let email = raw.trimmingWhitespace()
    // RFC 5321 counts octets: in characters, one letter with endless combining marks passed.
    guard email.utf8.count <= 254 else { return false }
    if isASCII(email) { return isValidASCII(Array(email.utf8)) }
    return isValidText(email)
  }

  /// `isValid` of an ASCII text: its white space at either end trimmed, then its bytes.
  private static func isValidASCII(trimming text: UnsafeBufferPointer<UInt8>) -> Bool {
    // The ASCII characters that are white space: tab to carriage return, and space.
    func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    var start = 0
    var end = text.count
    while start < end, isWhitespace(text[start]) { start += 1 }
    while end > start, isWhitespace(text[end - 1]) { end -= 1 }
    guard end - start <= 254 else { return false }
    return isValidASCII(UnsafeBufferPointer(rebasing: text[start..<end]))
  }

  /// `isValid` of a trimmed address, character by character (any text).
  static func isValidText(_ email: String) -> Bool {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last else { return false }
    guard !local.isEmpty, local.utf8.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."),
      !local.contains("..")
    else { return false }
    guard local.allSatisfy({ $0.isLetter || $0.isNumber || allowedInLocalPart.contains($0) }) else {
      return false
    }
    let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return false }
    for label in labels {
      guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-"),
        label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
      else { return false }
    }
    guard let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter) else { return false }
    return true
  }

  /// `isValid` of a trimmed ASCII address, byte by byte.
  static func isValidASCII(_ email: [UInt8]) -> Bool {
    email.withUnsafeBufferPointer { isValidASCII($0) }
  }

  /// `isValid` of a trimmed ASCII address, byte by byte.
  static func isValidASCII(_ email: UnsafeBufferPointer<UInt8>) -> Bool {
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    let at = UInt8(ascii: "@")
    let dot = UInt8(ascii: ".")
    let hyphen = UInt8(ascii: "-")
    guard let split = email.firstIndex(of: at), email[(split + 1)...].firstIndex(of: at) == nil
    else { return false }
    let local = email[..<split]
    guard !local.isEmpty, local.count <= 64, local.first != dot, local.last != dot else {
      return false
    }
    var previous: UInt8 = 0
    for byte in local {
      guard isLetter(byte) || isDigit(byte) || allowedInLocalPartASCII.contains(byte),
        !(byte == dot && previous == dot)
      else { return false }
      previous = byte
    }
    // The domain's labels, each as it ends (at a dot or the end).
    var labels = 0
    var label = (split + 1)..<(split + 1)
    var labelStart = split + 1
    for end in (split + 1)...email.count where end == email.count || email[end] == dot {
      label = labelStart..<end
      let bytes = email[label]
      guard !bytes.isEmpty, bytes.count <= 63, bytes.first != hyphen, bytes.last != hyphen,
        bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == hyphen })
      else { return false }
      labels += 1
      labelStart = end + 1
    }
    guard labels >= 2, label.count >= 2, email[label].allSatisfy(isLetter) else { return false }
    return true
  }

  /// `allowedInLocalPart` as bytes.
  private static let allowedInLocalPartASCII = ASCIISet(allowedInLocalPart.compactMap(\.asciiValue))
}

/// A set of ASCII bytes as two words of bits: a lookup is a shift and a mask.
struct ASCIISet: Sendable {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  init(_ bytes: some Sequence<UInt8>) {
    for byte in bytes where byte < 0x80 {
      if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
    }
  }

  func contains(_ byte: UInt8) -> Bool {
    guard byte < 0x80 else { return false }
    return (byte < 64 ? low >> byte : high >> (byte - 64)) & 1 == 1
  }
}

extension StringProtocol {
  /// Whether every byte is a printable ASCII character (true for empty text): then each byte
  /// is a character of one column, and no two of them join.
  package var isPrintableASCII: Bool { utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }

  /// Leading and trailing white space (including newlines) removed.
  package func trimmingWhitespace() -> String {
    // Most texts begin and end with a printable ASCII character: then neither end is white
    // space (a character is white space by its first scalar, and no white space joins a
    // printable ASCII character after it).
    let plainEnds = utf8.withContiguousStorageIfAvailable { bytes in
      guard let first = bytes.first, let last = bytes.last else { return false }
      return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
    }
    if plainEnds == true { return String(self) }
    var slice = self[...]
    while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return String(slice)
  }
}
