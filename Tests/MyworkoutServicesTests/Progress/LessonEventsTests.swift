import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lesson completion events per account and round (SPEC §13).
@Suite struct LessonEventsTests {
  let started = fixedNow
  let solved = fixedNow.addingTimeInterval(42.7)

  @Test func eventsBelongToTheCurrentRound() async throws {
    try await withDataDirectory { directory throws in
      let store = makeProgressStore(directory)
      #expect(try await store.currentCompletions(account: "a1").round == 1)
      let first = try await store.recordCompletion(
        account: "a1", lessonID: "5", started: started, completed: solved)
      #expect(
        first
          == LessonCompletion(
            lessonID: "5", round: 1, started: started, completed: fixedNow.addingTimeInterval(42)))
      // The first event of a lesson in a round stays.
      #expect(
        try await store.recordCompletion(
          account: "a1", lessonID: "5", started: solved, completed: solved) == nil)
      try await store.recordCompletion(
        account: "a1", lessonID: "6", started: solved, completed: solved)
      try await store.recordCompletion(
        account: "a2", lessonID: "7", started: solved, completed: solved)
      #expect(try await store.completions(account: "a1").map(\.lessonID) == ["5", "6"])

      #expect(try await store.startNewRound(account: "a1") == 2)
      #expect(try await store.currentCompletions(account: "a1").round == 2)
      #expect(try await store.completions(account: "a1").isEmpty)
      try await store.recordCompletion(
        account: "a1", lessonID: "5", started: solved, completed: solved)
      #expect(try await store.completions(account: "a1").map(\.round) == [2])
      #expect(try await store.currentCompletions(account: "a2").round == 1)

      // Old rounds stay, as ISO 8601 UTC text.
      let raw = try SQLiteDatabase(path: directory.progressPath)
      let rows = try raw.prepare(
        "SELECT round, lesson, started, completed FROM lesson_events WHERE account = 'a1' ORDER BY rowid"
      ).rows { "\($0.int(0)) \($0.text(1)) \($0.text(2)) \($0.text(3))" }
      #expect(
        rows == [
          "1 5 2026-11-21T14:15:00Z 2026-11-21T14:15:42Z",
          "1 6 2026-11-21T14:15:42Z 2026-11-21T14:15:42Z",
          "2 5 2026-11-21T14:15:42Z 2026-11-21T14:15:42Z",
        ])
    }
  }

  /// Its values are kept aside in the file (SPEC §7: never deleted), as a class's are.
  @Test func aDamagedEventIsPutAsideWithANotice() async throws {
    try await withDataDirectory { directory throws in
      let notices = NoticeLog()
      let store = makeProgressStore(directory, notices: notices)
      try await store.recordCompletion(
        account: "a1", lessonID: "1", started: started, completed: solved)
      try await store.recordCompletion(
        account: "a1", lessonID: "2", started: started, completed: solved)
      let raw = try SQLiteDatabase(path: directory.progressPath)
      try raw.execute("UPDATE lesson_events SET started = 'yesterday' WHERE lesson = '1'")
      #expect(try await store.completions(account: "a1").map(\.lessonID) == ["2"])
      #expect(notices.all == [LessonEventsTests.damagedNotice])
      #expect(try await store.completions(account: "a1").map(\.lessonID) == ["2"])
      #expect(notices.all.count == 1)
      #expect(
        try raw.scalar("SELECT lesson || ' ' || started FROM lesson_events_damaged")
          == .text("1 yesterday"))
    }
  }

  static let damagedNotice =
    "A lesson completion could not be read: it was put aside in progress.sqlite"

  @Test func timestampsAreISO8601UTCToTheSecond() {
    #expect(UTCTimestamp.format(fixedNow) == "2026-11-21T14:15:00Z")
    #expect(UTCTimestamp.format(Date(timeIntervalSince1970: 0.999)) == "1970-01-01T00:00:00Z")
    #expect(UTCTimestamp.parse("2026-11-21T14:15:00Z") == fixedNow)
    #expect(UTCTimestamp.parse("2024-02-29T23:59:59Z") != nil)
    for bad in [
      "", "2026-11-21 14:15:00Z", "2026-11-21T14:15:00", "2026-02-30T00:00:00Z",
      "2026-11-21T24:00:00Z", "2026-1-21T14:15:00Z", "2026-11-21T14:15:00+01:00",
      "２０２６-11-21T14:15:00Z",
    ] {
      #expect(UTCTimestamp.parse(bad) == nil, "\(bad)")
    }
  }
}
