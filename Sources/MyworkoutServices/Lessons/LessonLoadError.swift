/// Why a lesson file could not be loaded. The message is the reason, one line naming the file,
/// shown under `Lessons could not be loaded`.
package struct LessonLoadError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String

  package init(message: String) {
    self.message = message
  }

  package var description: String { message }
}
