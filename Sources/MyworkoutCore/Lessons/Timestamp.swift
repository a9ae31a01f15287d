/// A moment in UTC to the second, written as ISO 8601 (`2026-11-22T04:15:00Z`). Core has no
/// Foundation, so the calendar arithmetic (proleptic Gregorian, no leap seconds) is done here.
package struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Seconds since 1970-01-01T00:00:00Z; negative before it.
  package var secondsSince1970: Int64

  package init(secondsSince1970: Int64) {
    self.secondsSince1970 = secondsSince1970
  }

  /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ` (years 0000–9999); nil for anything else, including
  /// dates that do not exist such as `2025-02-29`.
  package init?(iso8601 text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(_ start: Int, _ length: Int) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[start..<start + length] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let days = Self.daysSince1970(year: year, month: month, day: day)
    self.init(secondsSince1970: days * 86_400 + hour * 3_600 + minute * 60 + second)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, the year zero-padded to four digits.
  package var iso8601: String {
    let (days, seconds) = floorDivision(secondsSince1970, 86_400)
    let (year, month, day) = Self.civilDate(daysSince1970: days)
    let (hour, minute, second) = (seconds / 3_600, seconds / 60 % 60, seconds % 60)
    let date = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
    return "\(date)T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))Z"
  }

  package var description: String { iso8601 }

  package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.secondsSince1970 < rhs.secondsSince1970
  }

  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the date (H. Hinnant's `days_from_civil`, eras of 400 years).
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivision(y, 400).quotient
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
  static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = floorDivision(shifted, 146_097).quotient
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
  }
}

/// Division rounding towards negative infinity, with a remainder that is never negative.
private func floorDivision(
  _ value: Int64, _ divisor: Int64
) -> (quotient: Int64, remainder: Int64) {
  let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
  return (quotient, value - quotient * divisor)
}
