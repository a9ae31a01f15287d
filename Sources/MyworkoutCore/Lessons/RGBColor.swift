/// A colour a lesson asks for, as written in the lesson file (`#RRGGBB` or `#RGB`). The view maps
/// it to the nearest terminal colour; a segment without one uses the default colour.
package struct RGBColor: Hashable, Sendable {
  package var red: UInt8
  package var green: UInt8
  package var blue: UInt8

  package init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Parses `#RRGGBB` or `#RGB` (hex digits in either case; `#F0A` is `#FF00AA`). Anything else,
  /// including surrounding spaces, names such as `red` and `#RRGGBBAA`, gives nil: the default
  /// colour.
  package init?(hex: String) {
    let scalars = Array(hex.unicodeScalars)
    guard scalars.first == "#" else { return nil }
    var digits: [UInt8] = []
    for scalar in scalars.dropFirst() {
      guard let digit = Self.hexDigit(scalar) else { return nil }
      digits.append(digit)
    }
    switch digits.count {
    case 6:
      self.init(
        red: digits[0] << 4 | digits[1], green: digits[2] << 4 | digits[3],
        blue: digits[4] << 4 | digits[5])
    case 3:
      self.init(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
    default:
      return nil
    }
  }

  /// Pure white or pure black: shown in the terminal's default foreground, so the text stays
  /// readable on light and dark backgrounds.
  package var isPureWhiteOrBlack: Bool {
    (red, green, blue) == (255, 255, 255) || (red, green, blue) == (0, 0, 0)
  }

  private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
    switch scalar {
    case "0"..."9": UInt8(scalar.value - 48)
    case "a"..."f": UInt8(scalar.value - 97 + 10)
    case "A"..."F": UInt8(scalar.value - 65 + 10)
    default: nil
    }
  }
}
