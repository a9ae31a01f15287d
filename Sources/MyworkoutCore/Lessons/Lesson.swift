/// One lesson of a course: a line of text in coloured segments and, optionally, a range of it the
/// person must type. Ranges count Unicode scalars of the concatenated text, end exclusive.
package struct Lesson: Hashable, Sendable {
  /// A run of text in one colour; nil is the terminal's default colour.
  package struct Segment: Hashable, Sendable {
    package var colour: RGBColor?
    package var text: String

    package init(colour: RGBColor?, text: String) {
      self.colour = colour
      self.text = text
    }
  }

  /// The text split around the input: what is shown before the field, what must be typed in
  /// it, and what is shown after it.
  package struct Parts: Hashable, Sendable {
    package var before: [Segment]
    package var expected: String
    package var after: [Segment]
  }

  package let id: Int
  package let segments: [Segment]
  /// The scalar range to type; never empty and always inside the text (see `init`).
  package let input: Range<Int>?

  /// A range that is empty or does not fit inside the text is dropped: the lesson is shown
  /// without an input.
  package init(id: Int, segments: [Segment], input: Range<Int>?) {
    self.id = id
    self.segments = segments
    let count = segments.reduce(0) { $0 + $1.text.unicodeScalars.count }
    if let input, !input.isEmpty, input.lowerBound >= 0, input.upperBound <= count {
      self.input = input
    } else {
      self.input = nil
    }
  }

  /// The whole text, all segments joined.
  package var text: String { segments.map(\.text).joined() }

  package var hasInput: Bool { input != nil }

  /// The segments around the input, each keeping its colour. Without an input everything is
  /// `before` and `expected` is empty.
  package var parts: Parts {
    guard let input else { return Parts(before: segments, expected: "", after: []) }
    let count = segments.reduce(0) { $0 + $1.text.unicodeScalars.count }
    return Parts(
      before: slice(0..<input.lowerBound), expected: slice(input).map(\.text).joined(),
      after: slice(input.upperBound..<count))
  }

  /// The text the person must type, or nil when the lesson has no input.
  package var expectedAnswer: String? { hasInput ? parts.expected : nil }

  /// Whether `answer` solves the lesson: the expected text exactly, white space around either
  /// ignored (inner spaces and case count). A lesson without an input is solved by Next alone.
  package func isCorrect(answer: String) -> Bool {
    guard let expected = expectedAnswer else { return true }
    return answer.trimmingWhitespace() == expected.trimmingWhitespace()
  }

  /// Whether `[ Next ]` is active: always without an input, otherwise once anything is typed.
  package func isNextEnabled(typed: String) -> Bool {
    !hasInput || !typed.isEmpty
  }

  /// The parts of the segments that fall inside `range` (scalar offsets), dropping empty ones.
  private func slice(_ range: Range<Int>) -> [Segment] {
    var result: [Segment] = []
    var offset = 0
    for segment in segments {
      let scalars = segment.text.unicodeScalars
      let count = scalars.count
      let lower = max(range.lowerBound, offset)
      let upper = min(range.upperBound, offset + count)
      if lower < upper {
        let start = scalars.index(scalars.startIndex, offsetBy: lower - offset)
        let end = scalars.index(start, offsetBy: upper - lower)
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        result.append(Segment(colour: segment.colour, text: text))
      }
      offset += count
    }
    return result
  }
}
