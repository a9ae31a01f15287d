import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Reading lesson files: the brief's sample, the shipped course, and files that cannot be used.
@Suite struct LessonFileTests {
  @Test(.enabled(if: sharedDataPresent, sharedDataMissing)) func decodesTheBriefsSample() throws {
    let course = try LessonFile.load(path: mimoSample)
    #expect(course.lessons.map(\.id) == [5, 6, 7])
    #expect(course.notices.isEmpty)
    #expect(course.lessons.map(\.text) == ["Hello World!", "var x = 1", "var number = 1"])
    #expect(course.lessons[0].segments[0].colour == RGBColor(red: 255, green: 255, blue: 255))
    #expect(
      course.lessons[1].segments.map(\.colour) == [
        RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 255, green: 255, blue: 255),
        RGBColor(red: 0, green: 0, blue: 255),
      ])
    #expect(course.lessons.map(\.hasInput) == [false, false, true])
    #expect(course.lessons[2].input == 4..<10)
    #expect(course.lessons[2].expectedAnswer == "number")
  }

  @Test func shippedCourseIsValid() throws {
    let course = try LessonFile.load(path: shippedCourse)
    #expect(course.lessons.count >= 6)
    #expect(course.notices.isEmpty)
    #expect(Set(course.lessons.map(\.id)).count == course.lessons.count)
    #expect(course.lessons.contains { !$0.hasInput })
    #expect(course.lessons.filter(\.hasInput).count >= 3)
    for lesson in course.lessons {
      #expect(!lesson.text.isEmpty)
      #expect(lesson.segments.allSatisfy { $0.colour != nil }, "lesson \(lesson.id) colours")
      guard let expected = lesson.expectedAnswer else { continue }
      // The file's own range, not the one `Lesson` may have dropped, must fit the text.
      #expect(lesson.input!.upperBound <= lesson.text.unicodeScalars.count)
      #expect(!expected.isEmpty && expected == expected.trimmingWhitespace())
      #expect(
        expected.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) },
        "lesson \(lesson.id): the answer must be typeable ASCII")
      #expect(lesson.isCorrect(answer: expected))
    }
  }

  /// `Lesson` drops a range that does not fit, so check the shipped file's raw ranges too.
  @Test func shippedCourseRangesAreInsideTheirText() throws {
    let data = try #require(try AtomicFile.read(path: shippedCourse))
    let file = try JSONDecoder().decode(LessonFileDTO.self, from: data)
    for lesson in file.lessons {
      guard let input = lesson.input else { continue }
      let count = lesson.content.map(\.text.unicodeScalars.count).reduce(0, +)
      #expect(0 <= input.startIndex && input.startIndex < input.endIndex, "lesson \(lesson.id)")
      #expect(input.endIndex <= count, "lesson \(lesson.id)")
    }
  }

  @Test func missingFile() async throws {
    try await withTemporaryDirectory { directory throws -> Void in
      let path = directory + "/nothing.json"
      #expect(throws: LessonLoadError(message: "Cannot read \(path): No such file or directory")) {
        try LessonFile.load(path: path)
      }
    }
  }

  @Test(.disabled(if: isRoot, "root reads any file")) func unreadableFile() async throws {
    try await withTemporaryDirectory { directory throws -> Void in
      let path = directory + "/lessons.json"
      put(Array(oneLesson(content: #"[{"text": "x"}]"#).utf8), at: path, mode: 0o000)
      #expect(throws: LessonLoadError(message: "Cannot read \(path): Permission denied")) {
        try LessonFile.load(path: path)
      }
    }
  }

  @Test func directoryInsteadOfFile() async throws {
    try await withTemporaryDirectory { directory throws -> Void in
      #expect(throws: LessonLoadError(message: "\(directory) is not a regular file")) {
        try LessonFile.load(path: directory)
      }
    }
  }

  /// One byte over 1 MiB is refused, though the JSON in it is fine; exactly 1 MiB is read.
  @Test func fileOverOneMebibyte() async throws {
    let lesson = oneLesson(content: #"[{"text": "x"}]"#)
    try await withTemporaryDirectory { directory throws -> Void in
      let path = directory + "/lessons.json"
      let padding = (1 << 20) - lesson.utf8.count
      put(Array(lesson.utf8) + Array(repeating: UInt8(ascii: " "), count: padding), at: path)
      #expect(try LessonFile.load(path: path).lessons.count == 1)
      put(Array(lesson.utf8) + Array(repeating: UInt8(ascii: " "), count: padding + 1), at: path)
      #expect(throws: LessonLoadError(message: "\(path) is larger than 1024 KiB")) {
        try LessonFile.load(path: path)
      }
    }
  }

  /// A 64 GiB sparse file is refused from its size alone (reading it would take minutes).
  @Test func hugeSparseFileIsRefusedFromItsSize() async throws {
    try await withTemporaryDirectory { directory throws -> Void in
      let path = directory + "/lessons.json"
      put([], at: path)
      #expect(truncate(path, 64 << 30) == 0)
      #expect(throws: LessonLoadError(message: "\(path) is larger than 1024 KiB")) {
        try LessonFile.load(path: path)
      }
    }
  }

  @Test func malformedJSON() async throws {
    let result = try await loadLessons(#"{"lessons": [{"id": 1, "content": [}"#)
    let message = try #require(result.failure?.message)
    #expect(message.hasPrefix("/tmp/"))
    #expect(message.hasSuffix("/lessons.json: not valid JSON"))
  }

  @Test func notJSONAtAll() async throws {
    let result = try await loadLessons("")
    #expect(result.failure?.message.hasSuffix("/lessons.json: not valid JSON") == true)
  }

  @Test(arguments: [
    (
      #"{"lessons": [{"id": "5", "content": [{"text": "x"}]}]}"#,
      "lessons[0].id is not a whole number"
    ),
    (
      #"{"lessons": [{"id": 5, "content": [{"text": 3}]}]}"#,
      "lessons[0].content[0].text is not a string"
    ),
    (#"{"lessons": {"id": 5}}"#, "lessons is not a list"),
    (#"[1, 2]"#, "the top level is not an object"),
    (
      #"{"lessons": [{"id": 5, "content": [{"text": "x"}], "input": {"startIndex": 1}}]}"#,
      "\"endIndex\" is missing in lessons[0].input"
    ),
    (
      #"{"lessons": [{"id": 5, "content": [{"text": "x"}], "input": {"startIndex": "0"}}]}"#,
      "lessons[0].input.startIndex is not a whole number"
    ),
    (#"{"lessons": [{"content": [{"text": "x"}]}]}"#, "\"id\" is missing in lessons[0]"),
    (
      #"{"lessons": [{"id": 5, "content": null}]}"#,
      "lessons[0].content is missing (expected a list)"
    ),
    (#"{"lesson": []}"#, "\"lessons\" is missing in the top level"),
  ])
  func wrongTypes(json: String, reason: String) async throws {
    let result = try await loadLessons(json)
    let message = try #require(result.failure?.message)
    #expect(message.hasSuffix("/lessons.json: \(reason)"), "\(message)")
  }

  @Test func fileWithNoLessons() async throws {
    let result = try await loadLessons(#"{"lessons": []}"#)
    #expect(result.failure?.message.hasSuffix("/lessons.json has no lessons") == true)
  }

  @Test func fileWhoseLessonsAreAllSkipped() async throws {
    let result = try await loadLessons(oneLesson(id: "4", content: "[]"))
    #expect(
      result.failure?.message.hasSuffix(
        "/lessons.json has no lessons (Skipped 1 lesson: id 4 (empty content))") == true)
  }
}
