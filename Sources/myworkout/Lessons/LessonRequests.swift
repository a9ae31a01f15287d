import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Carries out the Lessons screen's requests and answers with its actions, stamped with the
/// wall clock: the load (the course after the mock latency, then this round's events), a
/// completion (solved now), and Start over (a new round). Nil when the request was cancelled.
enum LessonRequests {
  static func perform(_ request: Request, on lessons: LessonServices) async -> Action? {
    switch request {
    case .loadLessons(let account):
      return await answer({ .lessons(.loaded($0, at: $1)) }, now: lessons.now) {
        let course = try await lessons.course.loadCourse()
        let events = try await lessons.progress.completions(account: account)
        return LessonsProgress(course: course, events: events.compactMap(Self.event))
      }
    case .recordLessonCompletion(let account, let lessonID, let started):
      let solved = lessons.now()
      return await answer({ .lessons(.completionRecorded($0, at: $1)) }, now: { solved }) {
        try await lessons.progress.recordCompletion(
          account: account, lessonID: String(lessonID), started: date(started), completed: solved)
        // What the device knows: the next lesson never waits for a server (SPEC §18).
        return try await lessons.progress.completionsKnown(account: account)
          .compactMap(Self.event)
      }
    case .startLessonRound(let account):
      return await answer({ .lessons(.roundStarted($0, at: $1)) }, now: lessons.now) {
        try await lessons.progress.startNewRound(account: account)
      }
    default:
      return nil
    }
  }

  /// Runs `call`; its value or its failure's message, with the time after it, make the answer.
  private static func answer<Value: Sendable>(
    _ action: (Result<Value, LessonsFailure>, Timestamp) -> Action,
    now: @Sendable () -> Date, _ call: @Sendable () async throws -> Value
  ) async -> Action? {
    let result: Result<Value, LessonsFailure>
    do {
      result = .success(try await call())
    } catch is CancellationError {
      return nil
    } catch let error as LessonLoadError {
      result = .failure(LessonsFailure(error.message))
    } catch let error as ProgressError {
      result = .failure(LessonsFailure(error.message))
    } catch {
      result = .failure(LessonsFailure("\(error)"))
    }
    guard !Task.isCancelled else { return nil }
    return action(result, timestamp(now()))
  }

  /// A stored event as the screen shows it; nil for a lesson id that is not a number (no lesson
  /// file has such an id).
  static func event(_ completion: LessonCompletion) -> CompletionEvent? {
    guard let id = Int(completion.lessonID) else { return nil }
    return CompletionEvent(
      lessonID: id, started: timestamp(completion.started),
      completed: timestamp(completion.completed))
  }

  static func timestamp(_ date: Date) -> Timestamp {
    Timestamp(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
  }

  static func date(_ timestamp: Timestamp) -> Date {
    Date(timeIntervalSince1970: TimeInterval(timestamp.secondsSince1970))
  }
}
