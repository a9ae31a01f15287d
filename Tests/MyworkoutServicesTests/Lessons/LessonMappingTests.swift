import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// What happens to lessons that cannot be shown as written: each case is kept apart.
@Suite struct LessonMappingTests {
  @Test func duplicateIdsAreSkippedWithOneNotice() async throws {
    let json = #"""
      {"lessons": [
        {"id": 1, "content": [{"text": "first"}]},
        {"id": 2, "content": [{"text": "second"}]},
        {"id": 1, "content": [{"text": "again"}]},
        {"id": 2, "content": [{"text": "and again"}]},
        {"id": 3, "content": [{"text": "third"}]}
      ]}
      """#
    let course = try await loadLessons(json).get()
    #expect(course.lessons.map(\.id) == [1, 2, 3])
    #expect(course.lessons.map(\.text) == ["first", "second", "third"])
    #expect(course.notices == ["Skipped 2 lessons: id 1 (duplicate id), id 2 (duplicate id)"])
  }

  @Test func emptyContentIsSkippedWithOneNotice() async throws {
    let json = #"""
      {"lessons": [
        {"id": 1, "content": []},
        {"id": 2, "content": [{"text": "kept"}]},
        {"id": 3, "content": [{"color": "#FF0000", "text": ""}, {"text": ""}]}
      ]}
      """#
    let course = try await loadLessons(json).get()
    #expect(course.lessons.map(\.id) == [2])
    #expect(course.notices == ["Skipped 2 lessons: id 1 (empty content), id 3 (empty content)"])
  }

  /// An empty lesson does not claim its id: a later lesson with that id is kept.
  @Test func bothProblemsShareOneNotice() async throws {
    let json = #"""
      {"lessons": [
        {"id": 1, "content": []},
        {"id": 1, "content": [{"text": "kept"}]},
        {"id": 1, "content": [{"text": "dropped"}]}
      ]}
      """#
    let course = try await loadLessons(json).get()
    #expect(course.lessons.map(\.text) == ["kept"])
    #expect(course.notices == ["Skipped 2 lessons: id 1 (empty content), id 1 (duplicate id)"])
  }

  @Test(arguments: [
    #"{"startIndex": 4, "endIndex": 15}"#,  // past the end of "var number = 1"
    #"{"startIndex": 14, "endIndex": 15}"#,
    #"{"startIndex": -1, "endIndex": 3}"#,
    #"{"startIndex": 10, "endIndex": 4}"#,  // start after end
    #"{"startIndex": 4, "endIndex": 4}"#,  // nothing to type
  ])
  func rangeOutsideTheTextIsShownWithoutInput(_ input: String) async throws {
    let content = #"[{"text": "var "}, {"text": "number = "}, {"text": "1"}]"#
    let course = try await loadLessons(oneLesson(id: "7", content: content, input: input)).get()
    #expect(course.lessons.count == 1)
    #expect(course.lessons[0].text == "var number = 1")
    #expect(course.lessons[0].input == nil)
    #expect(course.notices.isEmpty)
  }

  @Test func rangeCountsUnicodeScalars() async throws {
    // "é" as e + U+0301 is two scalars, the emoji with its skin tone two more.
    let content = #"[{"text": "e\u0301 \ud83d\udc4d\ud83c\udffd "}, {"text": "let x"}]"#
    let input = #"{"startIndex": 6, "endIndex": 9}"#
    let course = try await loadLessons(oneLesson(content: content, input: input)).get()
    #expect(course.lessons[0].expectedAnswer == "let")
  }

  @Test(arguments: [
    ##""red""##, ##""#FF00""##, ##""FF0000""##, ##""#GGGGGG""##, ##""""##, "null", "12", "true",
    ##"{"r": 255}"##, ##"["#FF0000"]"##,
  ])
  func malformedColourIsTheDefault(_ colour: String) async throws {
    let content = ##"[{"color": \##(colour), "text": "var "}, {"color": "#0000ff", "text": "x"}]"##
    let course = try await loadLessons(oneLesson(content: content)).get()
    #expect(
      course.lessons[0].segments.map(\.colour) == [nil, RGBColor(red: 0, green: 0, blue: 255)])
    #expect(course.lessons[0].text == "var x")
    #expect(course.notices.isEmpty)
  }

  @Test func missingColourIsTheDefault() async throws {
    let course = try await loadLessons(oneLesson(content: #"[{"text": "plain"}]"#)).get()
    #expect(course.lessons[0].segments == [.init(colour: nil, text: "plain")])
  }

  @Test func unknownFieldsAreIgnored() async throws {
    let json = #"""
      {"version": 2, "lessons": [{"id": 1, "title": "x", "content": [{"text": "a", "bold": true}]}]}
      """#
    let course = try await loadLessons(json).get()
    #expect(course.lessons.map(\.text) == ["a"])
  }
}
