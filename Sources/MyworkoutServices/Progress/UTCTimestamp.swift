#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// ISO 8601 timestamps in UTC to the second, e.g. `2026-11-21T14:15:00Z`: how lesson events are
/// stored and shown (SPEC §13).
package enum UTCTimestamp {
  /// `date` as `yyyy-MM-dd'T'HH:mm:ss'Z'` (rounded down to the second).
  package static func format(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-"
      + pad(parts.tm_mday, 2) + "T" + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":"
      + pad(parts.tm_sec, 2) + "Z"
  }

  /// The moment `text` names, or nil unless it is exactly in `format`'s form and a real time.
  package static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 else { return nil }
    let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x54, 13: 0x3A, 16: 0x3A, 19: 0x5A]
    for (offset, byte) in bytes.enumerated() {
      if let separator = separators[offset] {
        guard byte == separator else { return nil }
      } else {
        guard (0x30...0x39).contains(byte) else { return nil }
      }
    }
    func number(_ range: Range<Int>) -> Int32 {
      bytes[range].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
    }
    var parts = tm()
    parts.tm_year = number(0..<4) - 1900
    parts.tm_mon = number(5..<7) - 1
    parts.tm_mday = number(8..<10)
    parts.tm_hour = number(11..<13)
    parts.tm_min = number(14..<16)
    parts.tm_sec = number(17..<19)
    let seconds = timegm(&parts)
    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
    // timegm normalises out-of-range fields (Feb 30 → Mar 2): such text is not a real time.
    return format(date) == text ? date : nil
  }

  private static func pad(_ value: Int32, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
