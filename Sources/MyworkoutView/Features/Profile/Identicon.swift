/// A Gravatar-style identicon drawn in the terminal: a 5×5 left-right symmetric pattern and a
/// colour, both taken from the email's SHA-256 hash, in a frame. Deterministic and pure.
enum Identicon {
  static let cells = 5
  /// Two columns per cell (so cells look square), plus the frame.
  static let width = cells * 2 + 2

  static func gravatarURL(hash: String) -> String {
    "https://gravatar.com/avatar/\(hash)?d=identicon"
  }

  /// Which cells are filled: row-major, 5×5, mirrored around the middle column.
  static func pattern(hash: String) -> [[Bool]] {
    let nibbles = hash.compactMap { $0.hexDigitValue }
    return (0..<cells).map { row in
      (0..<cells).map { column in
        let source = column < 3 ? column : cells - 1 - column
        let index = row * 3 + source
        guard index < nibbles.count else { return false }
        return nibbles[index] % 2 == 0
      }
    }
  }

  static func color(hash: String) -> UInt8 {
    let nibbles = hash.compactMap { $0.hexDigitValue }
    let value = nibbles.suffix(4).reduce(0) { $0 * 16 + $1 }
    return UInt8(value % Int(Style.avatarColorCount))
  }

  static func rows(hash: String) -> [Row] {
    let color = Style.avatar(color(hash: hash))
    let top = Row("┌" + String(repeating: "─", count: cells * 2) + "┐", column: 0, style: .border)
    let bottom = Row(
      "└" + String(repeating: "─", count: cells * 2) + "┘", column: 0, style: .border)
    let middle = pattern(hash: hash).map { filled in
      var segments = [Segment(column: 0, text: "│", style: .border)]
      for (index, isFilled) in filled.enumerated() {
        segments.append(
          Segment(
            column: 1 + index * 2, text: isFilled ? "██" : "  ", style: isFilled ? color : .normal))
      }
      segments.append(Segment(column: 1 + cells * 2, text: "│", style: .border))
      return Row(segments: segments)
    }
    return [top] + middle + [bottom]
  }
}
