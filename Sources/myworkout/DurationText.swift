/// Reads durations written for people: a whole number and a unit, `30s`, `15m`, `12h`, `30d`.
/// A bare number is refused: the unit is never guessed.
enum DurationText {
  static func parse(_ text: String) -> Duration? {
    guard let last = text.last, let unit = units[last] else { return nil }
    let digits = text.dropLast()
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int64(digits), value > 0, value <= Int64.max / unit / 1000
    else { return nil }
    return .seconds(value * unit)
  }

  private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
}
