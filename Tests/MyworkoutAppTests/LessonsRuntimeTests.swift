import Foundation
import MyworkoutCore
import MyworkoutServices
import MyworkoutView
import Synchronization
import Testing

@testable import myworkout

/// Lessons through the runtime: keys in, requests carried out against the lesson doubles, and
/// every time stamped by the injected wall clock, never by the reducer.
@MainActor
@Suite struct LessonsRuntimeTests {
  let terminal = RecordingTerminal()
  let clock = WallClock(Date(timeIntervalSince1970: 1_795_320_900))  // 2026-11-22T04:15:00Z
  let progress = MemoryLessonProgress()
  let sessions = RecordingSessions()

  func runtime(course: MemoryCourse = .sample) -> Runtime {
    let clock = self.clock
    let runtime = Runtime(
      state: .launch(with: .valid(Fixture.session(email: "Registered@Email.com"))),
      terminal: terminal,
      services: Services(
        accounts: GatedAccountService(), catalog: MemoryCatalog.sample,
        lessons: LessonServices(course: course, progress: progress, now: { clock.now }),
        images: .unused, progress: MemoryProgress()),
      sessions: sessions, timers: ManualTimers(), acceptedUntil: { _ in nil },
      now: { Date(timeIntervalSince1970: 0) }, exit: { _ in })
    runtime.start()
    return runtime
  }

  func settle(until condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
  }

  func date(_ text: String) -> Date {
    Date(timeIntervalSince1970: TimeInterval(Timestamp(iso8601: text)!.secondsSince1970))
  }

  @Test func completionsAreStampedByTheWallClockForTheAccount() async {
    let app = runtime()
    terminal.type("n")
    app.keysArrived()
    #expect(terminal.screen.contains("Loading lessons…"))
    await settle { terminal.screen.contains("Lesson 1 of 3") }
    clock.advance(by: 4)
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains("Lesson 2 of 3") }
    clock.advance(by: 5)
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains("Lesson 3 of 3") }
    clock.advance(by: 81)
    terminal.type("number")
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains("You completed all 3 lessons.") }

    let stored = await progress.stored
    #expect(stored.allSatisfy { $0.account == Fixture.accountID }, "the normalised email")
    #expect(
      stored.map(\.completion) == [
        LessonCompletion(
          lessonID: "5", round: 1, started: date("2026-11-22T04:15:00Z"),
          completed: date("2026-11-22T04:15:04Z")),
        // Each next lesson is first shown when the one before was solved.
        LessonCompletion(
          lessonID: "6", round: 1, started: date("2026-11-22T04:15:04Z"),
          completed: date("2026-11-22T04:15:09Z")),
        LessonCompletion(
          lessonID: "7", round: 1, started: date("2026-11-22T04:15:09Z"),
          completed: date("2026-11-22T04:16:30Z")),
      ])
    #expect(terminal.screen.contains("7       2026-11-22T04:15:09Z  2026-11-22T04:16:30Z"))
    #expect(app.runningRequests.isEmpty)
  }

  /// SPEC §4 and §10: with this copy's session gone from the device (a log-out, or another
  /// account's log-in, in another copy of the app), a completion is not recorded: the screen
  /// says the session expired, as Profile's number edit does. A walk-through's copy recorded
  /// completions for an account logged out elsewhere.
  @Test func aCompletionAfterTheSessionEndedElsewhereSaysItExpired() async {
    let app = runtime()
    terminal.type("n")
    app.keysArrived()
    await settle { terminal.screen.contains("Lesson 1 of 3") }
    sessions.keeps.withLock { $0 = false }
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains(Message.sessionExpired) }
    #expect(terminal.screen.contains(Message.sessionExpired))
    #expect(await progress.stored.isEmpty)
    app.quit(status: 0)
    #expect(sessions.log.withLock { $0 } == ["end Registered@Email.com"])
  }

  /// SPEC §18: a completion goes to the outbox and the next lesson shows at once, whatever the
  /// server does: the answer is what the device knows (a walk-through saw `Saving…` for 10 s
  /// while the server said nothing, waiting on a read of the server's events).
  @Test func aCompletionIsAnsweredWithoutWaitingForTheServer() async {
    let progress = SilentServerLessonProgress()
    let services = LessonServices(
      course: MemoryCourse.sample, progress: progress, now: { Date(timeIntervalSince1970: 100) })
    let box = AnswerBox()
    let answer = Task {
      let action = await LessonRequests.perform(
        .recordLessonCompletion(
          account: "auth0|ada", lessonID: 4, started: Timestamp(secondsSince1970: 90)),
        on: services)
      box.answer.withLock { $0 = .some(action) }
    }
    // Bounded: the read of the server's events would wait an hour. 60 s, not 10: on CI's two
    // cores, with the end-to-end suite holding a thread of Swift's pool, the task that answers
    // waited its turn past 10 s once (15:50, 27 Nov), though it does not wait for the server.
    let deadline = ContinuousClock.now.advanced(by: .seconds(60))
    while box.answer.withLock({ $0 }) == nil && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    answer.cancel()
    let answered = box.answer.withLock { $0 }
    guard case .some(.some(.lessons(.completionRecorded(.success(let events), _)))) = answered
    else {
      Issue.record("no answer within 60 s: \(String(describing: answered))")
      return
    }
    #expect(events.map(\.lessonID) == [4])
  }

  @Test func startOverBeginsANewRoundAndTheOldEventsStay() async {
    let app = runtime()
    terminal.type("n")
    app.keysArrived()
    await settle { terminal.screen.contains("Lesson 1 of 3") }
    for heading in ["Lesson 2 of 3", "Lesson 3 of 3"] {
      terminal.press(.enter)
      app.keysArrived()
      await settle { terminal.screen.contains(heading) }
    }
    terminal.type(" number ")
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains("Done") }
    terminal.press(.enter)
    app.keysArrived()
    await settle { terminal.screen.contains("Lesson 1 of 3") }
    #expect(await progress.completions(account: Fixture.accountID).isEmpty)
    #expect(await progress.stored.count == 3, "the first round's events stay")
  }

  @Test func aFileThatCannotBeLoadedSaysWhyAndTryAgainLoadsAgain() async {
    let app = runtime(
      course: MemoryCourse(
        result: .failure(LessonLoadError(message: "Cannot read x.json: No such file"))))
    terminal.type("n")
    app.keysArrived()
    await settle { terminal.screen.contains("Lessons could not be loaded") }
    #expect(terminal.screen.contains("Cannot read x.json: No such file"))
    #expect(terminal.screen.contains("[ Try again ]"))
    terminal.press(.enter)
    app.keysArrived()
    #expect(terminal.screen.contains("Loading lessons…"))
    #expect(app.runningRequests == [.lessonsLoad])
    await settle { terminal.screen.contains("[ Try again ]") }
    terminal.press(.escape)
    app.keysArrived()
    #expect(terminal.screen.contains("[ Lessons ]"), "back on Profile")
  }
}

/// What a request answered, once it has (nil inside: it answered nothing).
final class AnswerBox: Sendable {
  let answer = Mutex<Action??>(nil)
}
