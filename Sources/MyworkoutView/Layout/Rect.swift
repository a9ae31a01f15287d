/// A rectangle of cells on the screen. Screens split the whole screen into rectangles (rows
/// and columns) and draw each part into its own, so a grid of pictures or a player is laid out
/// the same way as a form.
package struct Rect: Equatable, Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  package init(x: Int = 0, y: Int = 0, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = max(0, width)
    self.height = max(0, height)
  }

  package var isEmpty: Bool { width == 0 || height == 0 }

  /// Whether a cell lies inside.
  package func contains(_ position: Position) -> Bool {
    position.row >= y && position.row < maxY && position.column >= x && position.column < maxX
  }
  package var maxX: Int { x + width }
  package var maxY: Int { y + height }

  /// How much of a split one part takes.
  package enum Extent: Equatable, Sendable {
    /// Exactly this many cells (less when the whole is too small).
    case fixed(Int)
    /// A share of what the fixed parts leave, by weight.
    case fill(Int = 1)
  }

  /// Splits into parts stacked top to bottom.
  package func rows(_ extents: [Extent]) -> [Rect] {
    var rects: [Rect] = []
    rects.reserveCapacity(extents.count)
    var offset = y
    for length in Self.lengths(extents, total: height) {
      rects.append(Rect(x: x, y: offset, width: width, height: length))
      offset += length
    }
    return rects
  }

  /// Splits into parts side by side, left to right, with `gap` empty columns between them.
  package func columns(_ extents: [Extent], gap: Int = 0) -> [Rect] {
    let gaps = max(0, gap) * max(0, extents.count - 1)
    let lengths = Self.lengths(extents, total: max(0, width - gaps))
    var rects: [Rect] = []
    rects.reserveCapacity(extents.count)
    var offset = x
    for length in lengths {
      rects.append(Rect(x: offset, y: y, width: length, height: height))
      offset += length + max(0, gap)
    }
    return rects
  }

  /// The part inside margins on each side.
  package func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
    Rect(
      x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
  }

  /// Fixed parts first, in order, while room lasts; the rest shared by the fill parts' weights
  /// (the remainder going to the first ones), so the lengths always add up to `total`.
  static func lengths(_ extents: [Extent], total: Int) -> [Int] {
    var left = max(0, total)
    var lengths = extents.map { extent -> Int in
      guard case .fixed(let cells) = extent else { return 0 }
      let length = min(max(0, cells), left)
      left -= length
      return length
    }
    let weights = extents.map { extent -> Int in
      if case .fill(let weight) = extent { return max(0, weight) }
      return 0
    }
    let totalWeight = weights.reduce(0, +)
    guard totalWeight > 0 else { return lengths }
    var given = 0
    for index in extents.indices where weights[index] > 0 {
      lengths[index] = left * weights[index] / totalWeight
      given += lengths[index]
    }
    var remainder = left - given
    for index in extents.indices where weights[index] > 0 && remainder > 0 {
      lengths[index] += 1
      remainder -= 1
    }
    return lengths
  }
}

extension Grid {
  /// The whole grid as a rectangle.
  package var bounds: Rect { Rect(width: width, height: height) }

  /// Writes text at a row and column inside `rect` (both relative to it), clipped to it;
  /// returns the column (relative to the rect) after the text.
  @discardableResult
  package mutating func put(
    _ text: String, row: Int, column: Int, in rect: Rect, style: Style
  ) -> Int {
    guard row >= 0, row < rect.height else { return column }
    return put(
      text, row: rect.y + row, column: rect.x + column, from: rect.x, to: rect.maxX, style: style)
      - rect.x
  }

  /// Fills a rectangle with spaces in a style.
  package mutating func fill(_ rect: Rect, style: Style) {
    for row in rect.y..<rect.maxY { fill(row: row, from: rect.x, count: rect.width, style: style) }
  }
}
