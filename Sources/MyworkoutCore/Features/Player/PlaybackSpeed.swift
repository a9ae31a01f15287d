/// How fast media time runs against wall time (SPEC §12), in hundredths: 100 is 1×. `-`/`+`
/// step through 0.5×, 0.75×, 1×, 1.25×, 1.5×, 2×; `--speed` may start anywhere in 0.25×…100×.
package struct PlaybackSpeed: Hashable, Sendable {
  package static let steps = [50, 75, 100, 125, 150, 200]
  package static let normal = PlaybackSpeed(hundredths: 100)
  /// What `--speed` accepts.
  package static let allowed = 25...10_000

  package let hundredths: Int

  package init(hundredths: Int) {
    self.hundredths = min(max(hundredths, Self.allowed.lowerBound), Self.allowed.upperBound)
  }

  /// `--speed N`: a number from 0.25 to 100 with at most two decimals; nil for anything else.
  package init?(text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = Int(parts[0]), !parts[0].hasPrefix("+"),
      !parts[0].hasPrefix("-")
    else { return nil }
    var fraction = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int(digits)
      else { return nil }
      fraction = digits.count == 1 ? value * 10 : value
    }
    let hundredths = whole * 100 + fraction
    guard Self.allowed.contains(hundredths) else { return nil }
    self.hundredths = hundredths
  }

  /// The next step up (`+`), or this speed when no step is faster.
  package var faster: PlaybackSpeed {
    Self.steps.first { $0 > hundredths }.map(PlaybackSpeed.init(hundredths:)) ?? self
  }

  /// The next step down (`-`), or this speed when no step is slower.
  package var slower: PlaybackSpeed {
    Self.steps.last { $0 < hundredths }.map(PlaybackSpeed.init(hundredths:)) ?? self
  }

  /// Media milliseconds played in `wall` milliseconds.
  package func media(forWall wall: Int) -> Int { wall * hundredths / 100 }

  /// The wall milliseconds it takes to play `media` milliseconds (rounded up).
  package func wall(forMedia media: Int) -> Int { (media * 100 + hundredths - 1) / hundredths }

  /// `1.5×`, `0.75×`, `2×`, `100×`.
  package var text: String {
    let whole = hundredths / 100
    let fraction = hundredths % 100
    guard fraction != 0 else { return "\(whole)×" }
    let digits =
      fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
    return "\(whole).\(digits)×"
  }
}
