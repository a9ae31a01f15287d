#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lesson completion events (SPEC §13): one per lesson and round, per account. Start over
/// begins a new round; the old rounds' events stay.
extension ProgressStore {
  static let damagedEventNotice = "A lesson completion could not be read and was dropped"

  /// The account's current round: 1 until the first Start over.
  package func currentRound(account: String) throws -> Int {
    try guarded("read") { try withDatabase { try $0.round(account: account) } }
  }

  /// Begins a new round (Start over) and returns its number.
  @discardableResult
  package func startNewRound(account: String) throws -> Int {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) {
          let next = try database.round(account: account) + 1
          try database.setRound(account: account, next)
          return next
        }
      }
    }
  }

  /// Records that `account` solved the lesson in the current round; returns the event, or nil
  /// when the lesson already had one in this round (the first one stays).
  @discardableResult
  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date
  ) throws -> LessonCompletion? {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) { () throws -> LessonCompletion? in
          let round = try database.round(account: account)
          let added = try database.insertEvent(
            account: account, round: round, lesson: lessonID,
            started: UTCTimestamp.format(started), completed: UTCTimestamp.format(completed))
          guard added else { return nil }
          // As stored: to the second.
          return LessonCompletion(
            lessonID: lessonID, round: round,
            started: UTCTimestamp.parse(UTCTimestamp.format(started)) ?? started,
            completed: UTCTimestamp.parse(UTCTimestamp.format(completed)) ?? completed)
        }
      }
    }
  }

  /// The current round's events, in the order they were recorded. A damaged event is dropped,
  /// with a notice.
  package func completions(account: String) throws -> [LessonCompletion] {
    try guarded("read") {
      try withDatabase { database in
        let round = try database.round(account: account)
        var result: [LessonCompletion] = []
        for row in try database.events(account: account, round: round) {
          guard let started = UTCTimestamp.parse(row.started),
            let completed = UTCTimestamp.parse(row.completed)
          else {
            try database.deleteEvent(rowID: row.rowID)
            onNotice(Self.damagedEventNotice)
            continue
          }
          result.append(
            LessonCompletion(
              lessonID: row.lesson, round: round, started: started, completed: completed))
        }
        return result
      }
    }
  }
}
