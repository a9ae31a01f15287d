import MyworkoutCore

/// Where the lessons come from. Loading throws `LessonLoadError` with the reason to show, or
/// `CancellationError` when the caller gave up.
package protocol LessonService: Sendable {
  /// The course, lessons in order, with notices about anything skipped.
  func loadCourse() async throws -> LessonCourse
}
