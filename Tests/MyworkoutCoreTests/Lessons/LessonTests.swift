import Testing

@testable import MyworkoutCore

@Suite struct LessonTests {
  static let red = RGBColor(red: 255, green: 0, blue: 0)
  static let blue = RGBColor(red: 0, green: 0, blue: 255)

  /// Mimo's sample lesson 7: `var number = 1`, type `number`.
  static let sample = Lesson(
    id: 7,
    segments: [
      .init(colour: red, text: "var "), .init(colour: nil, text: "number = "),
      .init(colour: blue, text: "1"),
    ],
    input: 4..<10)

  @Test func splitsAroundTheInputKeepingColours() {
    let parts = Self.sample.parts
    #expect(parts.before == [.init(colour: Self.red, text: "var ")])
    #expect(parts.expected == "number")
    #expect(parts.after == [.init(colour: nil, text: " = "), .init(colour: Self.blue, text: "1")])
    #expect(Self.sample.text == "var number = 1")
    #expect(Self.sample.expectedAnswer == "number")
  }

  @Test func inputAcrossSegments() {
    let lesson = Lesson(
      id: 1, segments: [.init(colour: Self.red, text: "ab"), .init(colour: nil, text: "cd")],
      input: 1..<3)
    #expect(lesson.parts.before == [.init(colour: Self.red, text: "a")])
    #expect(lesson.parts.expected == "bc")
    #expect(lesson.parts.after == [.init(colour: nil, text: "d")])
  }

  /// Indices count Unicode scalars: `é` written as e + combining acute is two, and 👍🏽 is two
  /// (thumbs up + skin tone), though each is one character.
  @Test func indicesCountUnicodeScalars() {
    let text = "caf\u{65}\u{301} \u{1F44D}\u{1F3FD} let x"
    #expect(text.unicodeScalars.count == 14)
    #expect(text.count == 12)
    let lesson = Lesson(id: 1, segments: [.init(colour: nil, text: text)], input: 9..<12)
    #expect(lesson.parts.expected == "let")
    #expect(lesson.parts.before.map(\.text) == ["caf\u{65}\u{301} \u{1F44D}\u{1F3FD} "])
    #expect(lesson.parts.after.map(\.text) == [" x"])
    #expect(lesson.isCorrect(answer: "let"))
  }

  @Test func precomposedLettersAreOneScalar() {
    let lesson = Lesson(id: 1, segments: [.init(colour: nil, text: "é=1")], input: 0..<1)
    #expect(lesson.parts.expected == "é")
    #expect(lesson.parts.after.map(\.text) == ["=1"])
  }

  @Test(arguments: [
    ("number", true), ("  number ", true), ("\tnumber\n", true), ("Number", false),
    ("num ber", false), ("numbe", false), ("number1", false), ("", false), ("   ", false),
  ])
  func answers(answer: String, correct: Bool) {
    #expect(Self.sample.isCorrect(answer: answer) == correct)
  }

  @Test func innerSpacesOfTheExpectedTextCount() {
    let lesson = Lesson(id: 1, segments: [.init(colour: nil, text: "x = a + b")], input: 4..<9)
    #expect(lesson.isCorrect(answer: " a + b "))
    #expect(!lesson.isCorrect(answer: "a+b"))
    #expect(!lesson.isCorrect(answer: "a  + b"))
  }

  @Test func nextNeedsTypingOnlyWhenThereIsAnInput() {
    #expect(!Self.sample.isNextEnabled(typed: ""))
    #expect(Self.sample.isNextEnabled(typed: "n"))
    #expect(Self.sample.isNextEnabled(typed: " "))
    let plain = Lesson(id: 5, segments: [.init(colour: nil, text: "Hello World!")], input: nil)
    #expect(plain.isNextEnabled(typed: ""))
    #expect(!plain.hasInput)
    #expect(plain.isCorrect(answer: ""))
    #expect(plain.expectedAnswer == nil)
    #expect(plain.parts.before.map(\.text) == ["Hello World!"])
    #expect(plain.parts.expected.isEmpty && plain.parts.after.isEmpty)
  }

  @Test(arguments: [-1..<3, 10..<15, 14..<15, 4..<4, 0..<0])
  func rangeThatDoesNotFitIsDropped(_ range: Range<Int>) {
    let lesson = Lesson(id: 7, segments: Self.sample.segments, input: range)
    #expect(lesson.input == nil)
    #expect(lesson.isNextEnabled(typed: ""))
  }

  @Test func rangeToTheVeryEndIsKept() {
    let lesson = Lesson(id: 7, segments: Self.sample.segments, input: 0..<14)
    #expect(lesson.input == 0..<14)
    #expect(lesson.parts.expected == "var number = 1")
    #expect(lesson.parts.before.isEmpty && lesson.parts.after.isEmpty)
  }
}
