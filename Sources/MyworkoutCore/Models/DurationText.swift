/// Reads durations written for people: a number and a unit, `300ms`, `0.5s`, `30s`, `1.5m`,
/// `12h`, `30d`. The number is whole or has a decimal point with digits on both sides; a bare
/// number is refused (the unit is never guessed), and so are signs, spaces and exponents. The
/// value is exact to the millisecond (finer fractions are dropped), counted in integers, never
/// through floating point. Used wherever a duration is read: `--latency`, `--session-lifetime`
/// and the server's `--token-lifetime`.
package enum DurationText {
  /// The duration, or nil when `text` is not one. Zero (`0s`, `0ms`) is a duration; callers
  /// that need a positive one say so with `parsePositive`.
  package static func parse(_ text: String) -> Duration? {
    milliseconds(text).map { .milliseconds($0) }
  }

  /// A duration of at least `minimum`, or nil.
  package static func parse(_ text: String, atLeast minimum: Duration) -> Duration? {
    guard let duration = parse(text), duration >= minimum else { return nil }
    return duration
  }

  /// The units, longest first so `ms` is not read as `m` after an `s`-less number.
  private static let units: [(suffix: String, milliseconds: Int64)] = [
    ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
  ]

  /// At most a hundred years: anything longer is a typo, and the arithmetic stays far from
  /// overflow.
  private static let limit: Int64 = 100 * 365 * 86_400_000

  /// The longest duration read, as written: `36500d`.
  package static let longest = "\(limit / 86_400_000)d"

  private static func milliseconds(_ text: String) -> Int64? {
    guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
    let number = text.utf8.dropLast(unit.suffix.utf8.count)
    let parts = number.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2,
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
      parts[0].count <= 15
    else { return nil }
    var whole: Int64 = 0
    for digit in parts[0] { whole = whole * 10 + Int64(digit - 0x30) }
    guard whole <= limit / unit.milliseconds else { return nil }
    var total = whole * unit.milliseconds
    if parts.count == 2 {
      // The fraction as a whole number over a power of ten (at most nine digits).
      guard parts[1].count <= 9 else { return nil }
      var fraction: Int64 = 0
      var denominator: Int64 = 1
      for digit in parts[1] {
        fraction = fraction * 10 + Int64(digit - 0x30)
        denominator *= 10
      }
      total += fraction * unit.milliseconds / denominator
    }
    guard total <= limit else { return nil }
    return total
  }
}
