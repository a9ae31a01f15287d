import MyworkoutCore

/// `progress.sqlite`: watch progress per account and class, and lesson completion events per
/// account and round. User data: written with full syncs, never rebuilt. Not thread-safe, like
/// its connection: `ProgressStore` owns it.
final class ProgressDatabase {
  /// 2: rows are filed under account ids (version 1 filed them under normalised emails).
  /// 3: `applied_changes`, the `Idempotency-Key`s the server has applied, and
  /// `class_progress.position_at`, when the stored position's change was made (issue 23).
  /// 4: lesson events are one per lesson, round and visit (`started`) instead of one per lesson
  /// and round, so that a lesson finished on two devices is two events (SPEC §18); a completion
  /// sent without an `Idempotency-Key` is still filed only when its lesson has none.
  static let schemaVersion = 4

  /// Lesson completion events: one per visit (`started`) of a lesson in a round.
  static let lessonEventsTable = """
    CREATE TABLE lesson_events(
      account TEXT NOT NULL,
      round INTEGER NOT NULL,
      lesson TEXT NOT NULL,
      started TEXT NOT NULL,
      completed TEXT NOT NULL,
      UNIQUE (account, round, lesson, started));
    """

  /// The keys of changes applied once (the server's `Idempotency-Key`s), per account, with a
  /// fingerprint of the request each was applied to and when.
  static let appliedChangesTable = """
    CREATE TABLE applied_changes(
      account TEXT NOT NULL,
      key TEXT NOT NULL,
      request TEXT NOT NULL,
      applied TEXT NOT NULL,
      PRIMARY KEY (account, key)) WITHOUT ROWID;
    """

  static let schema = """
    CREATE TABLE class_progress(
      account TEXT NOT NULL,
      class TEXT NOT NULL,
      position INTEGER NOT NULL,
      watched TEXT NOT NULL,
      time_in_class INTEGER NOT NULL,
      position_at INTEGER,
      PRIMARY KEY (account, class)) WITHOUT ROWID;
    CREATE TABLE lesson_rounds(
      account TEXT PRIMARY KEY,
      round INTEGER NOT NULL) WITHOUT ROWID;
    """ + lessonEventsTable + appliedChangesTable

  /// A class_progress row as stored, before it is checked.
  struct ClassRow {
    var classID: String
    var position: Int64
    var watched: String
    var timeInClass: Int64
    /// When the stored position's change was made (ms since 1970); nil before version 3.
    var positionAt: Int64?
  }

  /// A lesson_events row as stored, before it is checked.
  struct EventRow {
    var rowID: Int64
    var lesson: String
    var started: String
    var completed: String
  }

  let connection: SQLiteDatabase

  /// Opens (creating if new) the progress file at `path`. A version 1 file has its rows moved
  /// from each email to the account id `accountIDs()` gives for it (in one transaction; rows
  /// of emails without an account stay as they are). Throws `NewerSchemaError`, with nothing
  /// changed, for a newer version's file, and an error whose `isDamage` is true when the file
  /// is not a progress file of this or an older version.
  init(path: String, accountIDs: @escaping () throws -> [String: String]) throws {
    let connection = try SQLiteDatabase(
      path: path, options: .init(interruptsWhenCancelled: false))
    self.connection = connection
    try connection.refuseNewerSchema(than: Self.schemaVersion)
    try connection.enableWriteAheadLog()
    // User data: every commit reaches the disk before it returns.
    try connection.execute("PRAGMA synchronous = FULL")
    try connection.ensureSchema(
      Self.schema, version: Self.schemaVersion,
      upgrades: [
        1: { try Self.fileUnderAccountIDs(try accountIDs(), in: connection) },
        2: {
          try connection.execute(Self.appliedChangesTable)
          try connection.execute("ALTER TABLE class_progress ADD COLUMN position_at INTEGER")
        },
        // SQLite cannot change a table's UNIQUE: the events are copied, row ids and all.
        3: {
          try connection.execute("ALTER TABLE lesson_events RENAME TO lesson_events_v3")
          try connection.execute(Self.lessonEventsTable)
          try connection.execute(
            """
            INSERT INTO lesson_events(rowid, account, round, lesson, started, completed)
            SELECT rowid, account, round, lesson, started, completed FROM lesson_events_v3;
            DROP TABLE lesson_events_v3;
            """)
        },
      ])
  }

  /// Version 1 to 2: every row filed under an email is filed under that account's id. No id
  /// rows exist yet (ids came with version 2), so nothing collides.
  private static func fileUnderAccountIDs(
    _ ids: [String: String], in connection: SQLiteDatabase
  ) throws {
    for table in ["class_progress", "lesson_rounds", "lesson_events"] {
      let move = try connection.statement("UPDATE \(table) SET account = ? WHERE account = ?")
      for (email, id) in ids.sorted(by: { $0.key < $1.key }) {
        try move.run([.text(id), .text(email)])
      }
    }
  }

  // MARK: Classes

  private static let classColumns = "class, position, watched, time_in_class, position_at"

  private static func classRow(_ row: SQLiteStatement) -> ClassRow {
    ClassRow(
      classID: row.text(0), position: row.int64(1), watched: row.text(2),
      timeInClass: row.int64(3), positionAt: row.isNull(4) ? nil : row.int64(4))
  }

  func classRow(account: String, classID: String) throws(SQLiteError) -> ClassRow? {
    try connection.statement(
      "SELECT \(Self.classColumns) FROM class_progress WHERE account = ? AND class = ?"
    ).firstRow([.text(account), .text(classID)], Self.classRow)
  }

  func classRows(account: String) throws(SQLiteError) -> [ClassRow] {
    try connection.statement(
      "SELECT \(Self.classColumns) FROM class_progress WHERE account = ?"
    ).rows([.text(account)], Self.classRow)
  }

  /// Whether `account` keeps progress for at least `limit` classes (counts no further).
  func hasClasses(account: String, atLeast limit: Int) throws(SQLiteError) -> Bool {
    try hasRows(in: "class_progress", account: account, atLeast: limit)
  }

  /// Whether `table` holds at least `limit` rows of `account` (counts no further).
  private func hasRows(in table: String, account: String, atLeast limit: Int)
    throws(SQLiteError) -> Bool
  {
    let counted =
      try connection.statement(
        "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE account = ? LIMIT ?)"
      ).firstRow([.text(account), .int(limit)]) { $0.int(0) } ?? 0
    return counted >= limit
  }

  func writeClass(account: String, classID: String, _ progress: ClassRowValues)
    throws(SQLiteError)
  {
    try connection.statement(
      """
      INSERT OR REPLACE INTO class_progress(
        account, class, position, watched, time_in_class, position_at)
      VALUES (?, ?, ?, ?, ?, ?)
      """
    ).run([
      .text(account), .text(classID), .int(progress.position), .text(progress.watched),
      .int(progress.timeInClass), progress.positionAt.map(SQLiteValue.integer) ?? .null,
    ])
  }

  /// Where a damaged row's values are kept (made at the first): the file's schema version is
  /// unchanged, so an older copy of the app still opens it.
  static let damagedClassesTable = """
    CREATE TABLE IF NOT EXISTS class_progress_damaged(
      account TEXT NOT NULL,
      class TEXT NOT NULL,
      position INTEGER,
      watched TEXT,
      time_in_class INTEGER,
      position_at INTEGER,
      found TEXT NOT NULL);
    """

  /// Copies the row of `account`'s `classID` aside as it is stored (whatever the types of its
  /// values) and stores `kept` in its place. In the caller's transaction.
  func setAside(account: String, classID: String, keeping kept: ClassRowValues, found: String)
    throws(SQLiteError)
  {
    try connection.execute(Self.damagedClassesTable)
    try connection.statement(
      """
      INSERT INTO class_progress_damaged(
        account, class, position, watched, time_in_class, position_at, found)
      SELECT account, class, position, watched, time_in_class, position_at, ?
      FROM class_progress WHERE account = ? AND class = ?
      """
    ).run([.text(found), .text(account), .text(classID)])
    try connection.statement(
      """
      UPDATE class_progress SET position = ?, watched = ?, time_in_class = ?
      WHERE account = ? AND class = ?
      """
    ).run([
      .int(kept.position), .text(kept.watched), .int(kept.timeInClass), .text(account),
      .text(classID),
    ])
  }

  /// The values written for one class.
  struct ClassRowValues {
    var position: Int
    var watched: String
    var timeInClass: Int
    var positionAt: Int64?
  }

  // MARK: Applied changes

  /// The request fingerprint `key` was applied to for `account`, or nil when it never was.
  func appliedRequest(account: String, key: String) throws(SQLiteError) -> String? {
    try connection.statement("SELECT request FROM applied_changes WHERE account = ? AND key = ?")
      .firstRow([.text(account), .text(key)]) { $0.text(0) }
  }

  /// Remembers that `key` was applied to `request` (in the transaction of the change), and
  /// now and then forgets the account's oldest keys past the newest `limit`.
  func insertApplied(
    account: String, key: String, request: String, applied: String, keeping limit: Int
  ) throws(SQLiteError) {
    try connection.statement(
      "INSERT INTO applied_changes(account, key, request, applied) VALUES (?, ?, ?, ?)"
    ).run([.text(account), .text(key), .text(request), .text(applied)])
    guard ProgressBounds.prunesAppliedKeys(limit: limit) else { return }
    try connection.statement(
      """
      DELETE FROM applied_changes WHERE account = ?1 AND key IN (
        SELECT key FROM applied_changes WHERE account = ?1
        ORDER BY applied DESC, key DESC LIMIT -1 OFFSET ?2)
      """
    ).run([.text(account), .int(limit)])
  }

  /// The round's event for `lesson` of the visit that began at `started`, else its first, if
  /// it has one.
  func event(account: String, round: Int, lesson: String, started: String) throws(SQLiteError)
    -> EventRow?
  {
    try connection.statement(
      """
      SELECT rowid, lesson, started, completed FROM lesson_events
      WHERE account = ?1 AND round = ?2 AND lesson = ?3
      ORDER BY started IS NOT ?4, rowid LIMIT 1
      """
    ).firstRow([.text(account), .int(round), .text(lesson), .text(started)]) { row in
      EventRow(
        rowID: row.int64(0), lesson: row.text(1), started: row.text(2), completed: row.text(3))
    }
  }

  // MARK: Lessons

  /// The account's current round (1 before any Start over).
  func round(account: String) throws(SQLiteError) -> Int {
    try connection.statement("SELECT round FROM lesson_rounds WHERE account = ?")
      .firstRow([.text(account)]) { $0.int(0) } ?? 1
  }

  func setRound(account: String, _ round: Int) throws(SQLiteError) {
    try connection.statement("INSERT OR REPLACE INTO lesson_rounds(account, round) VALUES (?, ?)")
      .run([.text(account), .int(round)])
  }

  /// Adds an event unless the round has one for that visit of the lesson (`started`) or,
  /// when `anyVisit`, for the lesson at all; true when added. Inside the caller's write
  /// transaction.
  func insertEvent(
    account: String, round: Int, lesson: String, started: String, completed: String,
    anyVisit: Bool
  ) throws(SQLiteError) -> Bool {
    try connection.statement(
      """
      INSERT OR IGNORE INTO lesson_events(account, round, lesson, started, completed)
      SELECT ?1, ?2, ?3, ?4, ?5
      WHERE NOT ?6 OR NOT EXISTS (
        SELECT 1 FROM lesson_events WHERE account = ?1 AND round = ?2 AND lesson = ?3)
      """
    ).run([
      .text(account), .int(round), .text(lesson), .text(started), .text(completed),
      .int(anyVisit ? 1 : 0),
    ])
    return connection.changes == 1
  }

  /// Whether `account` keeps at least `limit` lesson events, every round together (counts no
  /// further).
  func hasEvents(account: String, atLeast limit: Int) throws(SQLiteError) -> Bool {
    try hasRows(in: "lesson_events", account: account, atLeast: limit)
  }

  /// The round's events in the order they were recorded.
  func events(account: String, round: Int) throws(SQLiteError) -> [EventRow] {
    try connection.statement(
      """
      SELECT rowid, lesson, started, completed FROM lesson_events
      WHERE account = ? AND round = ? ORDER BY rowid
      """
    ).rows([.text(account), .int(round)]) { row in
      EventRow(
        rowID: row.int64(0), lesson: row.text(1), started: row.text(2), completed: row.text(3))
    }
  }

  /// Where damaged events go, as `damagedClassesTable`.
  static let damagedEventsTable = """
    CREATE TABLE IF NOT EXISTS lesson_events_damaged(
      account TEXT NOT NULL,
      round INTEGER,
      lesson TEXT,
      started TEXT,
      completed TEXT,
      found TEXT NOT NULL);
    """

  /// Moves a damaged event to `lesson_events_damaged`, with when it was found. In the
  /// caller's transaction.
  func setEventAside(rowID: Int64, found: String) throws(SQLiteError) {
    try connection.execute(Self.damagedEventsTable)
    try connection.statement(
      """
      INSERT INTO lesson_events_damaged(account, round, lesson, started, completed, found)
      SELECT account, round, lesson, started, completed, ? FROM lesson_events WHERE rowid = ?
      """
    ).run([.text(found), .integer(rowID)])
    try connection.statement("DELETE FROM lesson_events WHERE rowid = ?").run([.integer(rowID)])
  }
}
