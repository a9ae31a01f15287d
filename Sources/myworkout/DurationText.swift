/// Reads durations written for people: `90`, `30s`, `15m`, `12h`, `30d`.
enum DurationText {
  static func parse(_ text: String) -> Duration? {
    var digits = Substring(text)
    var unit: Int64 = 1
    if let last = digits.last, let factor = units[last] {
      unit = factor
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value > 0,
      value <= Int64.max / unit / 1000
    else { return nil }
    return .seconds(value * unit)
  }

  private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
}
