import Logging
import MyworkoutCore
import MyworkoutServices
import PostgresNIO

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Watch progress and lesson events. The watched intervals are an `int8multirange`: a save is
/// one `INSERT … ON CONFLICT DO UPDATE` that unites them (`+`) and adds the time in the
/// database, under the row's lock, so concurrent saves from any instances never lose one.
package struct PostgresProgressStore: ProgressStoring {
  let database: PostgresDatabase
  /// The most classes one account keeps progress for (`ProgressBounds.storedClasses`).
  var classLimit = ProgressBounds.storedClasses
  /// The most lesson events one account keeps (`ProgressBounds.storedLessonEvents`).
  var lessonEventLimit = ProgressBounds.storedLessonEvents
  /// The most `Idempotency-Key`s one account keeps (`ProgressBounds.appliedKeys`).
  var appliedKeyLimit = ProgressBounds.appliedKeys

  package func progress(account: String, classID: String) async throws -> ClassProgress {
    try await database.call("read progress") { client in
      for try await row in try await client.query(
        """
        SELECT position, watched::text, time_in_class FROM class_progress
        WHERE account = \(account) AND class = \(classID)
        """
      ).decode((Int64, String, Int64).self) {
        return try Self.progress(row)
      }
      return ClassProgress()
    }
  }

  package func record(_ update: ProgressUpdate) async throws -> ClassProgress {
    let logger = database.logger
    // One statement: no transaction around it.
    return try await database.call("save progress") { client in
      try await client.withConnection { connection in
        try await Self.merge(update, classLimit: classLimit, on: connection, logger: logger)
      }
    }
  }

  /// One save, merged in the database under the row's lock: intervals united, time added, and
  /// the position replaced only by a change made at least as late as the stored one's (a change
  /// without a time is made now, by the database's clock).
  static func merge(
    _ update: ProgressUpdate, classLimit: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> ClassProgress {
    let position = Int64(max(0, update.position))
    let watched = multirange(update.played)
    let added = Int64(
      ProgressBounds.clamp(update.addedTimeInClass, to: ProgressBounds.timeInClassMilliseconds))
    let cap = Int64(ProgressBounds.timeInClassMilliseconds)
    let limit = Int64(ProgressBounds.storedIntervals)
    let classes = Int64(classLimit)
    let account = update.account
    let classID = update.classID
    let changedAt = update.changedAt
    for try await row in try await connection.query(
      """
      INSERT INTO class_progress AS p (account, class, position, watched, time_in_class,
        position_at)
      SELECT \(account), \(classID), \(position), \(watched)::int8multirange, \(added),
        COALESCE(\(changedAt)::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
      WHERE EXISTS (SELECT 1 FROM class_progress WHERE account = \(account) AND class = \(classID))
        OR (SELECT count(*) FROM (
          SELECT 1 FROM class_progress WHERE account = \(account) LIMIT \(classes)) AS kept)
          < \(classes)
      ON CONFLICT (account, class) DO UPDATE SET
        position = CASE WHEN p.position_at IS NULL OR EXCLUDED.position_at >= LEAST(
            p.position_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
          THEN EXCLUDED.position ELSE p.position END,
        position_at = GREATEST(
          LEAST(p.position_at, (extract(epoch FROM clock_timestamp()) * 1000)::bigint),
          EXCLUDED.position_at),
        watched = p.watched + EXCLUDED.watched,
        time_in_class = LEAST(LEAST(p.time_in_class, \(cap)) + EXCLUDED.time_in_class, \(cap))
      WHERE (SELECT count(*) FROM unnest(p.watched + EXCLUDED.watched)) <= \(limit)
      RETURNING position, watched::text, time_in_class
      """, logger: logger
    ).decode((Int64, String, Int64).self) {
      return try progress(row)
    }
    // Nothing was changed: the row is there and the union would pass the bound, or it is not
    // and the account has progress for `classLimit` classes. (Saves for new classes that run
    // at once may each see one place left: the bound can be passed by as many as run at once.)
    let exists = try await connection.query(
      "SELECT 1 FROM class_progress WHERE account = \(account) AND class = \(classID)",
      logger: logger
    ).collect()
    throw exists.isEmpty
      ? ProgressError.tooManyClasses(limit: classLimit) : ProgressError.tooManyIntervals
  }

  package func appliedRequest(account: String, key: String) async throws -> String? {
    try await database.call("read progress") { client in
      for try await (request) in try await client.query(
        "SELECT request FROM applied_changes WHERE account = \(account) AND key = \(key)"
      ).decode(String.self) {
        return request
      }
      return nil
    }
  }

  /// The key is inserted first: a concurrent retry with the same key waits on it, then finds
  /// it applied and reads the merged row.
  package func record(_ update: ProgressUpdate, key: IdempotencyKey) async throws -> Applied<
    ClassProgress
  > {
    let account = update.account
    let classID = update.classID
    let logger = database.logger
    return try await database.transaction("save progress") { connection in
      if let request = try await Self.claim(
        key, account: account, keeping: appliedKeyLimit, on: connection, logger: logger)
      {
        guard request == key.request else { return .keyReused }
        for try await row in try await connection.query(
          """
          SELECT position, watched::text, time_in_class FROM class_progress
          WHERE account = \(account) AND class = \(classID)
          """, logger: logger
        ).decode((Int64, String, Int64).self) {
          return .replayed(try Self.progress(row))
        }
        return .replayed(ClassProgress())
      }
      return .applied(
        try await Self.merge(update, classLimit: classLimit, on: connection, logger: logger))
    }
  }

  /// Remembers `key` for `account` (inside the caller's transaction); nil when it is new, else
  /// the request it was applied to before.
  static func claim(
    _ key: IdempotencyKey, account: String, keeping limit: Int,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> String? {
    let inserted = try await connection.query(
      """
      INSERT INTO applied_changes (account, key, request)
      VALUES (\(account), \(key.value), \(key.request))
      ON CONFLICT DO NOTHING RETURNING 1
      """, logger: logger
    ).collect()
    if !inserted.isEmpty {
      // Now and then, the account's oldest keys past the newest `limit` are forgotten.
      if ProgressBounds.prunesAppliedKeys(limit: limit) {
        _ = try await connection.query(
          """
          DELETE FROM applied_changes WHERE account = \(account) AND key IN (
            SELECT key FROM applied_changes WHERE account = \(account)
            ORDER BY applied DESC, key DESC OFFSET \(Int64(limit)))
          """, logger: logger
        ).collect()
      }
      return nil
    }
    for try await request in try await connection.query(
      "SELECT request FROM applied_changes WHERE account = \(account) AND key = \(key.value)",
      logger: logger
    ).decode(String.self) {
      return request
    }
    throw StoreError(failed: "Could not save the change: its key could not be read back.")
  }

  package func watchedPercents(account: String, classes: [DanceClass]) async throws
    -> [String: Int]
  {
    let durations = Dictionary(
      classes.map { ($0.id, $0.durationMilliseconds) }, uniquingKeysWith: { first, _ in first })
    let ids = Array(durations.keys)
    return try await database.call("read progress") { client in
      var percents: [String: Int] = [:]
      for try await (classID, watched) in try await client.query(
        """
        SELECT class, watched::text FROM class_progress
        WHERE account = \(account) AND class = ANY(\(ids))
        """
      ).decode((String, String).self) {
        guard let duration = durations[classID], let set = Self.intervals(watched) else {
          continue
        }
        percents[classID] = set.watchedPercent(duration: duration)
      }
      return percents
    }
  }

  package func completions(account: String) async throws -> [LessonCompletion] {
    try await currentCompletions(account: account).events
  }

  /// One statement, so one snapshot: a Start over committed while it runs is in neither the
  /// round nor the events, or in both.
  package func currentCompletions(account: String) async throws -> RoundCompletions {
    try await database.call("read lesson completions") { client in
      var round = 1
      var events: [LessonCompletion] = []
      for try await (current, lesson, started, completed) in try await client.query(
        """
        WITH r AS (
          SELECT coalesce((SELECT round FROM lesson_rounds WHERE account = \(account)), 1) AS round
        )
        SELECT r.round, e.lesson, e.started, e.completed
        FROM r LEFT JOIN lesson_events e ON e.account = \(account) AND e.round = r.round
        ORDER BY e.id
        """
      ).decode((Int, String?, Int64?, Int64?).self) {
        round = current
        guard let lesson, let started, let completed else { continue }
        events.append(
          LessonCompletion(
            lessonID: lesson, round: current,
            started: Date(timeIntervalSince1970: Double(started)),
            completed: Date(timeIntervalSince1970: Double(completed))))
      }
      return RoundCompletions(round: round, events: events)
    }
  }

  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round asked: Int?
  ) async throws -> LessonCompletion? {
    let logger = database.logger
    return try await database.transaction("save the lesson completion") { connection in
      let round = ProgressStore.filingRound(
        asked,
        current: try await Self.currentRound(account: account, on: connection, logger: logger))
      return try await Self.file(
        lessonID, started: started, completed: completed, account: account, round: round,
        anyVisit: true, limit: lessonEventLimit, on: connection, logger: logger)
    }
  }

  package func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round asked: Int?,
    key: IdempotencyKey
  ) async throws -> Applied<LessonCompletion?> {
    let logger = database.logger
    return try await database.transaction("save the lesson completion") { connection in
      let round = ProgressStore.filingRound(
        asked,
        current: try await Self.currentRound(account: account, on: connection, logger: logger))
      if let request = try await Self.claim(
        key, account: account, keeping: appliedKeyLimit, on: connection, logger: logger)
      {
        guard request == key.request else { return .keyReused }
        // The round's event of this visit, else of this lesson.
        let visit = Int64(started.timeIntervalSince1970.rounded(.down))
        for try await (started, completed) in try await connection.query(
          """
          SELECT started, completed FROM lesson_events
          WHERE account = \(account) AND round = \(round) AND lesson = \(lessonID)
          ORDER BY started IS DISTINCT FROM \(visit), id LIMIT 1
          """, logger: logger
        ).decode((Int64, Int64).self) {
          return .replayed(
            LessonCompletion(
              lessonID: lessonID, round: round,
              started: Date(timeIntervalSince1970: Double(started)),
              completed: Date(timeIntervalSince1970: Double(completed))))
        }
        return .replayed(nil)
      }
      return .applied(
        try await Self.file(
          lessonID, started: started, completed: completed, account: account, round: round,
          anyVisit: false, limit: lessonEventLimit, on: connection, logger: logger))
    }
  }

  /// The account's round, its row locked for share (inside the caller's transaction): a
  /// concurrent Start over cannot slip between reading the round and filing an event under it.
  static func currentRound(account: String, on connection: PostgresConnection, logger: Logger)
    async throws -> Int
  {
    for try await value in try await connection.query(
      "SELECT round FROM lesson_rounds WHERE account = \(account) FOR SHARE", logger: logger
    ).decode(Int.self) {
      return value
    }
    return 1
  }

  /// Files the event under `round`; the event as stored (to the second), or nil when the round
  /// has one for that visit (`started`) or, `anyVisit`, for that lesson at all. One more than
  /// the account's `limit` of events (every round together) is refused.
  static func file(
    _ lessonID: String, started: Date, completed: Date, account: String, round: Int,
    anyVisit: Bool, limit: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> LessonCompletion? {
    let start = Int64(started.timeIntervalSince1970.rounded(.down))
    let end = Int64(completed.timeIntervalSince1970.rounded(.down))
    let events = Int64(limit)
    if anyVisit {
      // Two such completions of one lesson at once (any instances) take turns at the check.
      try await connection.query(
        "SELECT pg_advisory_xact_lock(hashtextextended(\(account) || '/' || \(lessonID), 0))",
        logger: logger)
    }
    let inserted = try await connection.query(
      """
      INSERT INTO lesson_events (account, round, lesson, started, completed)
      SELECT \(account), \(round), \(lessonID), \(start), \(end)
      WHERE (NOT \(anyVisit) OR NOT EXISTS (
        SELECT 1 FROM lesson_events
        WHERE account = \(account) AND round = \(round) AND lesson = \(lessonID)))
        AND (SELECT count(*) FROM (
          SELECT 1 FROM lesson_events WHERE account = \(account) LIMIT \(events)) AS kept)
          < \(events)
      ON CONFLICT DO NOTHING RETURNING id
      """, logger: logger
    ).collect()
    if inserted.isEmpty {
      // Nothing was filed: the round has the event, or the account has `limit` events. (As
      // with classes, completions that run at once may each see one place left.)
      let had = try await connection.query(
        """
        SELECT 1 FROM lesson_events
        WHERE account = \(account) AND round = \(round) AND lesson = \(lessonID)
          AND (\(anyVisit) OR started = \(start))
        """, logger: logger
      ).collect()
      if had.isEmpty { throw ProgressError.tooManyLessonEvents(limit: limit) }
      return nil
    }
    return LessonCompletion(
      lessonID: lessonID, round: round, started: Date(timeIntervalSince1970: Double(start)),
      completed: Date(timeIntervalSince1970: Double(end)))
  }

  package func startNewRound(account: String, from: Int?) async throws -> Int? {
    try await database.call("start a new round") { client in
      // One statement each: two devices starting over from one round start one round.
      let rows =
        switch from {
        case nil:
          try await client.query(
            """
            INSERT INTO lesson_rounds AS r (account, round) VALUES (\(account), 2)
            ON CONFLICT (account) DO UPDATE SET round = r.round + 1
            RETURNING round
            """)
        case 1?:
          try await client.query(
            """
            INSERT INTO lesson_rounds AS r (account, round) VALUES (\(account), 2)
            ON CONFLICT (account) DO UPDATE SET round = r.round + 1 WHERE r.round = 1
            RETURNING round
            """)
        case let from?:
          try await client.query(
            """
            UPDATE lesson_rounds SET round = round + 1
            WHERE account = \(account) AND round = \(from)
            RETURNING round
            """)
        }
      for try await round in rows.decode(Int.self) {
        return round
      }
      return nil
    }
  }

  private static func progress(_ row: (Int64, String, Int64)) throws -> ClassProgress {
    guard let watched = intervals(row.1) else {
      throw StoreError(failed: "Could not read progress: the watched intervals are damaged.")
    }
    // A number past the bounds (stored before them) reads as the bound.
    return ClassProgress(
      lastPosition: Int(row.0), watched: watched, timeInClass: Int(row.2)
    ).bounded
  }

  /// `{[0,5000),[7000,9000)}`, PostgreSQL's text form of an `int8multirange`.
  static func multirange(_ set: IntervalSet) -> String {
    "{" + set.ranges.map { "[\($0.lowerBound),\($0.upperBound))" }.joined(separator: ",") + "}"
  }

  /// Reads `multirange`'s form back (as PostgreSQL prints it: canonical half-open ranges).
  static func intervals(_ text: String) -> IntervalSet? {
    guard text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
    let inner = text.dropFirst().dropLast()
    guard !inner.isEmpty else { return IntervalSet() }
    var ranges: [Range<Int>] = []
    for part in inner.split(separator: "),") {
      let trimmed = part.hasSuffix(")") ? part.dropLast() : part
      guard trimmed.hasPrefix("[") else { return nil }
      let bounds = trimmed.dropFirst().split(separator: ",")
      guard bounds.count == 2, let lower = Int(bounds[0]), let upper = Int(bounds[1]),
        lower < upper
      else { return nil }
      ranges.append(lower..<upper)
    }
    return IntervalSet(ranges)
  }
}
