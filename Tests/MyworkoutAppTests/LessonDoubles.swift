import Foundation
import MyworkoutCore
import MyworkoutServices
import Synchronization

@testable import myworkout

/// A course in memory, answered at once (or refused with a reason).
struct MemoryCourse: LessonService {
  var result: Result<LessonCourse, LessonLoadError>

  func loadCourse() async throws -> LessonCourse { try result.get() }

  /// The brief's sample: a line without input, another, and one with `number` to type.
  static let sample = MemoryCourse(
    result: .success(
      LessonCourse(lessons: [
        Lesson(id: 5, segments: [.init(colour: nil, text: "Hello World!")], input: nil),
        Lesson(id: 6, segments: [.init(colour: nil, text: "var x = 1")], input: nil),
        Lesson(id: 7, segments: [.init(colour: nil, text: "var number = 1")], input: 4..<10),
      ])))
}

/// Lesson events in memory, with the progress store's rules: one event per lesson and round,
/// rounds per account, old rounds kept.
actor MemoryLessonProgress: LessonProgressStoring {
  private var rounds: [String: Int] = [:]
  private(set) var stored: [(account: String, completion: LessonCompletion)] = []

  func completions(account: String) -> [LessonCompletion] {
    let round = rounds[account, default: 1]
    return stored.filter { $0.account == account && $0.completion.round == round }.map(\.completion)
  }

  func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    -> LessonCompletion?
  {
    let round = rounds[account, default: 1]
    guard !completions(account: account).contains(where: { $0.lessonID == lessonID }) else {
      return nil
    }
    let completion = LessonCompletion(
      lessonID: lessonID, round: round, started: started, completed: completed)
    stored.append((account, completion))
    return completion
  }

  func startNewRound(account: String) -> Int {
    rounds[account, default: 1] += 1
    return rounds[account, default: 1]
  }
}

/// A wall clock the test sets.
final class WallClock: Sendable {
  private let current: Mutex<Date>

  init(_ date: Date) { current = Mutex(date) }

  var now: Date { current.withLock { $0 } }
  func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

extension LessonServices {
  /// The sample course, empty progress, and a clock standing at 2026-11-22T04:15:00Z.
  static var sample: LessonServices {
    let clock = WallClock(Date(timeIntervalSince1970: 1_795_320_900))
    return LessonServices(
      course: MemoryCourse.sample, progress: MemoryLessonProgress(), now: { clock.now })
  }
}

/// Remote mode's lesson events with the server saying nothing: a read of the server's events
/// waits until cancelled; what the device knows (`completionsKnown`) answers at once.
actor SilentServerLessonProgress: LessonProgressStoring {
  private(set) var known: [LessonCompletion] = []

  func completions(account: String) async throws -> [LessonCompletion] {
    try await Task.sleep(for: .seconds(3600))
    return known
  }

  func completionsKnown(account: String) async throws -> [LessonCompletion] { known }

  func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    -> LessonCompletion?
  {
    let completion = LessonCompletion(
      lessonID: lessonID, round: 0, started: started, completed: completed)
    known.append(completion)
    return completion
  }

  func startNewRound(account: String) -> Int { 1 }
}
