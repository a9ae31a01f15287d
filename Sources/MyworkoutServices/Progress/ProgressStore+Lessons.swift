import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Lesson completion events (SPEC §13): one per lesson and round, per account; a change sent
/// with an `Idempotency-Key` is one per visit (its `started`), so that a lesson finished on two
/// devices is two events (SPEC §18). Start over begins a new round; the old rounds' events stay.
extension ProgressStore {
  static let damagedEventNotice =
    "A lesson completion could not be read: it was put aside in progress.sqlite"

  /// Begins a new round (Start over) and returns its number.
  @discardableResult
  package func startNewRound(account: String) throws -> Int {
    try startNewRound(account: account, from: nil) ?? 1
  }

  /// Begins the round after `from` when `from` is the current round (nil: after the current
  /// one); its number, or nil when another round is current (another device started over
  /// since this one last looked: nothing starts, so its round is not skipped).
  package func startNewRound(account: String, from: Int?) throws -> Int? {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) {
          let current = try database.round(account: account)
          if let from, from != current { return nil }
          try database.setRound(account: account, current + 1)
          return current + 1
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
    try recordCompletion(
      account: account, lessonID: lessonID, started: started, completed: completed, round: nil)
  }

  /// As `recordCompletion`, in `round` (the one the lesson was finished in, by the device that
  /// says so; nil or a round not reached yet: the current one).
  @discardableResult
  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round: Int?
  ) throws -> LessonCompletion? {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) { () throws -> LessonCompletion? in
          try insertCompletion(
            account: account, lessonID: lessonID, started: started, completed: completed,
            round: try Self.filingRound(round, current: database.round(account: account)),
            anyVisit: true, in: database)
        }
      }
    }
  }

  /// As `recordCompletion` (in `round`, see there), once per `key`, and filed even when the
  /// lesson has an event of another visit in that round (another device's). A key the account
  /// has applied before changes nothing and answers the round's event of that visit (else of
  /// that lesson), if any (`replayed`), or `keyReused` when it came with another request. The
  /// key is remembered in the transaction of the change.
  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round asked: Int?,
    key: IdempotencyKey
  ) throws -> Applied<LessonCompletion?> {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) {
          () throws -> Applied<LessonCompletion?> in
          let round = Self.filingRound(asked, current: try database.round(account: account))
          if let request = try database.appliedRequest(account: account, key: key.value) {
            guard request == key.request else { return .keyReused }
            guard
              let row = try database.event(
                account: account, round: round, lesson: lessonID,
                started: UTCTimestamp.format(started)),
              let started = UTCTimestamp.parse(row.started),
              let completed = UTCTimestamp.parse(row.completed)
            else { return .replayed(nil) }
            return .replayed(
              LessonCompletion(
                lessonID: lessonID, round: round, started: started, completed: completed))
          }
          let recorded = try insertCompletion(
            account: account, lessonID: lessonID, started: started, completed: completed,
            round: round, anyVisit: false, in: database)
          try database.insertApplied(
            account: account, key: key.value, request: key.request,
            applied: UTCTimestamp.format(now()), keeping: appliedKeyLimit)
          return .applied(recorded)
        }
      }
    }
  }

  /// The round an event is filed in: the one its device says it was made in (SPEC §18: one
  /// sent late, after another device's Start over, belongs to the round it was made in), or the
  /// current one when it says none or one not reached yet.
  package static func filingRound(_ asked: Int?, current: Int) -> Int {
    guard let asked, asked >= 1 else { return current }
    return min(asked, current)
  }

  /// Files the event under `round` (inside the caller's transaction); the event as stored, or
  /// nil when the round has one for that visit (or, `anyVisit`, for that lesson). One the
  /// account has no place left for (`lessonEventLimit`, counted in this transaction) is
  /// refused.
  private func insertCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round: Int,
    anyVisit: Bool, in database: ProgressDatabase
  ) throws -> LessonCompletion? {
    let visit = UTCTimestamp.format(started)
    if try database.hasEvents(account: account, atLeast: lessonEventLimit) {
      // Full: still nothing to file when the round has the event (the answer as before).
      let had = try database.event(
        account: account, round: round, lesson: lessonID, started: visit)
      if let had, anyVisit || had.started == visit { return nil }
      throw ProgressError.tooManyLessonEvents(limit: lessonEventLimit)
    }
    let added = try database.insertEvent(
      account: account, round: round, lesson: lessonID,
      started: visit, completed: UTCTimestamp.format(completed),
      anyVisit: anyVisit)
    guard added else { return nil }
    // As stored: to the second.
    return LessonCompletion(
      lessonID: lessonID, round: round,
      started: UTCTimestamp.parse(UTCTimestamp.format(started)) ?? started,
      completed: UTCTimestamp.parse(UTCTimestamp.format(completed)) ?? completed)
  }

  /// The current round's events, in the order they were recorded. A damaged event is put
  /// aside in the file (`lesson_events_damaged`), with a notice.
  package func completions(account: String) throws -> [LessonCompletion] {
    try currentCompletions(account: account).events
  }

  /// The current round (1 until the first Start over) and its events, read together (one
  /// transaction): a Start over from another process between the two cannot pair one round's
  /// events with the next round.
  package func currentCompletions(account: String) throws -> RoundCompletions {
    try guarded("read") {
      try withDatabase { database in
        try database.connection.transaction { try currentCompletions(account, in: database) }
      }
    }
  }

  private func currentCompletions(_ account: String, in database: ProgressDatabase) throws
    -> RoundCompletions
  {
    let round = try database.round(account: account)
    var result: [LessonCompletion] = []
    for row in try database.events(account: account, round: round) {
      guard let started = UTCTimestamp.parse(row.started),
        let completed = UTCTimestamp.parse(row.completed)
      else {
        try database.setEventAside(rowID: row.rowID, found: UTCTimestamp.format(now()))
        onNotice(Self.damagedEventNotice)
        continue
      }
      result.append(
        LessonCompletion(
          lessonID: row.lesson, round: round, started: started, completed: completed))
    }
    return RoundCompletions(round: round, events: result)
  }
}
