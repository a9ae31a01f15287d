/// Malaysian mobile numbers (see DECISIONS.md for the pattern and its source).
///
/// Accepted written forms: an optional country prefix (`+60`, `60`, or the trunk `0`), then the
/// mobile prefix `1` and a second digit (`01X`), then the subscriber number: 7 digits, or 8 digits
/// after `011` and `015`. Spaces and hyphens may separate groups anywhere. The normalised form is
/// E.164: `+60123456789`.
package enum MobileNumber {
  package static func normalized(_ raw: String) -> String? {
    let trimmed = raw.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    var rest = Substring(trimmed)
    var international = false
    if rest.hasPrefix("+") {
      international = true
      rest = rest.dropFirst()
    }
    guard rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == " " || $0 == "-") }) else {
      return nil
    }
    guard !rest.contains("--"), !rest.contains("  "), let first = rest.first, first.isNumber,
      let last = rest.last, last.isNumber
    else { return nil }
    var digits = rest.filter(\.isNumber)
    if international {
      guard digits.hasPrefix("60") else { return nil }
      digits.removeFirst(2)
    } else if digits.hasPrefix("60") {
      digits.removeFirst(2)
    } else if digits.hasPrefix("0") {
      digits.removeFirst()
    } else {
      return nil
    }
    // digits is now the national number without trunk prefix: 1X + subscriber.
    guard digits.hasPrefix("1"), digits.count >= 9 else { return nil }
    let second = digits[digits.index(after: digits.startIndex)]
    let subscriberLength = digits.count - 2
    switch second {
    case "1", "5": guard subscriberLength == 8 else { return nil }
    case "0", "2", "3", "4", "6", "7", "8", "9": guard subscriberLength == 7 else { return nil }
    default: return nil
    }
    return "+60" + digits
  }

  package static func isValid(_ raw: String) -> Bool { normalized(raw) != nil }

  /// A normalised number written the way Malaysians read it: `+60 12-345 6789`.
  package static func display(_ normalized: String) -> String {
    guard normalized.hasPrefix("+60") else { return normalized }
    let national = Array(normalized.dropFirst(3))
    guard national.count >= 9 else { return normalized }
    let prefix = String(national[0..<2])
    let middleLength = national.count == 10 ? 4 : 3
    let middle = String(national[2..<(2 + middleLength)])
    let tail = String(national[(2 + middleLength)...])
    return "+60 \(prefix)-\(middle) \(tail)"
  }
}
