import Clocks
import MyworkoutCore
import Testing

@testable import MyworkoutServices

/// The embedded service answers after exactly the latency on the injected clock, loaded or not.
@Suite struct EmbeddedLessonServiceTests {
  @Test(.enabled(if: sharedDataPresent, sharedDataMissing)) func loadsTheCourseAfterOneSecond()
    async throws
  {
    let clock = TestClock()
    let service = EmbeddedLessonService(file: mimoSample, clock: clock)
    let result = await expectOneSecond(on: clock) { try await service.loadCourse() }
    #expect(try result.get().lessons.map(\.id) == [5, 6, 7])
  }

  @Test func failureAlsoTakesOneSecond() async throws {
    let clock = TestClock()
    let path = repositoryRoot + "/no-such-lessons.json"
    let service = EmbeddedLessonService(file: path, clock: clock)
    let result = await expectOneSecond(on: clock) { try await service.loadCourse() }
    #expect(
      result.failure as? LessonLoadError
        == LessonLoadError(message: "Cannot read \(path): No such file or directory"))
  }

  @Test func noLatencyOnARealClock() async throws {
    let service = EmbeddedLessonService(
      file: shippedCourse, clock: ContinuousClock(), latency: .zero)
    #expect(try await service.loadCourse().lessons.count >= 6)
  }

  @Test(.enabled(if: sharedDataPresent, sharedDataMissing)) func cancelledLoadThrowsCancellation()
    async throws
  {
    let clock = TestClock()
    let service = EmbeddedLessonService(file: mimoSample, clock: clock)
    let task = Task { try await service.loadCourse() }
    await waitForSleeper(clock)
    task.cancel()
    let result = await task.result
    #expect(result.failure is CancellationError)
  }
}
