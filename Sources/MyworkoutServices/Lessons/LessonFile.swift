import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a lesson file in Mimo's format. Blocking: call it off the main actor.
package enum LessonFile {
  /// Files larger than this (1 MiB) are refused from their size, before being read.
  package static let sizeLimit = 1 << 20

  /// The course in the file at `path`. Throws `LessonLoadError` naming the file and the reason
  /// when it is missing, unreadable, too large, not the JSON expected, or has no lesson to show.
  package static func load(path: String) throws(LessonLoadError) -> LessonCourse {
    try read(path: path).course
  }

  /// As `load(path:)`, with the bytes the course was read from (the server serves exactly
  /// what it checked).
  package static func read(path: String) throws(LessonLoadError) -> (
    course: LessonCourse, data: Data
  ) {
    let read: Data?
    do {
      read = try AtomicFile.read(path: path, limit: sizeLimit)
    } catch {
      throw LessonLoadError(message: error.message)
    }
    guard let data = read else {
      throw LessonLoadError(message: "Cannot read \(path): No such file or directory")
    }
    let course = try decode(data, path: path)
    guard !course.lessons.isEmpty else {
      let skipped = course.notices.isEmpty ? "" : " (\(course.notices.joined(separator: "; ")))"
      throw LessonLoadError(message: "\(path) has no lessons\(skipped)")
    }
    return (course, data)
  }

  /// The course in `data`; `path` only names the file in the error.
  package static func decode(_ data: Data, path: String) throws(LessonLoadError) -> LessonCourse {
    do {
      return LessonMapping.course(from: try JSONDecoder().decode(LessonFileDTO.self, from: data))
    } catch let error as DecodingError {
      throw LessonLoadError(message: "\(path): \(DecodingReason.describe(error))")
    } catch {
      throw LessonLoadError(message: "\(path): \(error)")
    }
  }
}
