import MyworkoutCore

/// The embedded lesson service: reads a lesson file (by default `Assets/lessons.json`, or the
/// file given with `--lessons`) and answers after the mock latency on an injected clock. Each
/// load pays the latency once, whatever its outcome; the file is read off the main actor while
/// the clock sleeps, and a cancelled load throws `CancellationError`.
package struct EmbeddedLessonService: LessonService {
  let file: String
  let clock: any Clock<Duration>
  let latency: Duration

  package init(file: String, clock: any Clock<Duration>, latency: Duration = .seconds(1)) {
    self.file = file
    self.clock = clock
    self.latency = latency
  }

  package func loadCourse() async throws -> LessonCourse {
    async let course = Self.read(file)
    try await clock.sleep(for: latency)
    let loaded = try await course
    try Task.checkCancellation()
    return loaded
  }

  /// Reads and parses on the global concurrent executor, never on the caller's actor.
  @concurrent
  private static func read(_ file: String) async throws(LessonLoadError) -> LessonCourse {
    try LessonFile.load(path: file)
  }
}
