import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the Lessons screen's requests call: the lesson service (the course), the progress
/// store's lesson events, and the wall clock that stamps when a lesson was shown and solved
/// (the reducer never reads a clock; tests inject a fixed one).
struct LessonServices: Sendable {
  var course: any LessonService
  var progress: any LessonProgressStoring
  var now: @Sendable () -> Date
}

/// Lesson completion events per account and round (`ProgressStore` in the app).
package protocol LessonProgressStoring: Sendable {
  func completions(account: String) async throws -> [LessonCompletion]
  /// The round's events as this device knows them now, asking no server (remote mode: what the
  /// server last gave with what waits in the outbox): the answer to a completion just recorded,
  /// which must never wait for a server (SPEC §18).
  func completionsKnown(account: String) async throws -> [LessonCompletion]
  @discardableResult
  func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    async throws -> LessonCompletion?
  @discardableResult
  func startNewRound(account: String) async throws -> Int
}

extension LessonProgressStoring {
  /// Where the events are this device's own, they are what it knows.
  package func completionsKnown(account: String) async throws -> [LessonCompletion] {
    try await completions(account: account)
  }
}

extension ProgressStore: LessonProgressStoring {}
