import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// One connection to a SQLite database file. Not thread-safe (opened with `SQLITE_OPEN_NOMUTEX`):
/// keep it inside one actor or lock, and use it off the main actor, since every call may block on
/// file I/O or on another process's lock (up to the busy timeout).
///
/// While a statement runs inside a task, cancelling the task interrupts it (unless the options
/// say otherwise): the call throws an `SQLiteError` whose `isInterrupt` is true.
package final class SQLiteDatabase {
  /// How to open a database file.
  package struct Options: Sendable {
    /// Open for reading only (the file must exist).
    package var readOnly = false
    /// How long a statement waits for another connection's lock before failing with BUSY.
    package var busyTimeout: Duration = .seconds(5)
    /// Cancelling the task that runs a statement interrupts it. Off for writes that must finish
    /// once started (saving progress when the screen that asked has gone).
    package var interruptsWhenCancelled = true

    package init(
      readOnly: Bool = false, busyTimeout: Duration = .seconds(5),
      interruptsWhenCancelled: Bool = true
    ) {
      self.readOnly = readOnly
      self.busyTimeout = busyTimeout
      self.interruptsWhenCancelled = interruptsWhenCancelled
    }
  }

  let handle: OpaquePointer
  /// The database file.
  package let path: String
  private var cache: [String: SQLiteStatement] = [:]
  /// What the busy handler reads; kept alive with the connection.
  private let busyWait: BusyWait?
  /// Turns for writers of a file (nil in memory, in a temporary file, when reading only and
  /// without a busy timeout).
  var writers: SQLiteWriterQueue? { busyWait?.writers }

  /// Opens `path`, creating it (mode 0600, as every data file) unless `readOnly`. A file with
  /// wider permissions is narrowed to 0600. Something other than a regular file at `path` is
  /// reported as damage (`isDamage`), like a file that is not a database.
  package init(path: String, options: Options = Options()) throws(SQLiteError) {
    // ":memory:" and "" are databases in memory and a temporary file: nothing to create.
    if !options.readOnly, path != ":memory:", !path.isEmpty {
      try Self.createPrivately(path)
      try Self.refuseEmptiedFile(path)
    }
    var connection: OpaquePointer?
    let flags =
      (options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError.last(connection, code: code)
      sqlite3_close_v2(connection)
      throw error.within("Cannot open \(path)")
    }
    handle = connection
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    let milliseconds =
      options.busyTimeout.components.seconds * 1000
      + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000
    // A connection that never waits for the lock (no busy timeout) takes no turns either: it
    // fails at once when the lock is taken, as it asked.
    let inFile = !options.readOnly && path != ":memory:" && !path.isEmpty
    busyWait =
      milliseconds > 0
      ? BusyWait(
        tries: Int(milliseconds), writers: inFile ? SQLiteWriterQueue(databasePath: path) : nil)
      : nil
    // SQLite's own busy handler sleeps longer and longer between tries (up to 100 ms), so a
    // connection waiting for another process that writes back to back can miss every short
    // gap between its transactions and give up ("database is locked", seen once in CI with two
    // processes saving progress at once on a loaded machine). This one tries again every
    // millisecond, for at least the same time, and waits in the writers' queue meanwhile.
    if let busyWait {
      sqlite3_busy_handler(
        handle,
        { context, tries in
          guard let context else { return 0 }
          let wait = Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue()
          guard Int(tries) < wait.tries else { return 0 }
          wait.writers?.noteBusy()
          usleep(1_000)
          return 1
        }, Unmanaged.passUnretained(busyWait).toOpaque())
    }
    if options.interruptsWhenCancelled {
      // Every 1,000 virtual machine steps, stop if the task running the statement was cancelled.
      sqlite3_progress_handler(handle, 1000, { _ in Task.isCancelled ? 1 : 0 }, nil)
    }
  }

  /// The busy handler's limit (tries a millisecond apart) and the connection's writer queue.
  private final class BusyWait {
    let tries: Int
    let writers: SQLiteWriterQueue?

    init(tries: Int, writers: SQLiteWriterQueue?) {
      self.tries = tries
      self.writers = writers
    }
  }

  deinit {
    cache.removeAll()
    // The connection outlives this object while a statement a caller holds is not finalized
    // (`sqlite3_close_v2`), and `busyWait` does not: its handler must go first.
    sqlite3_busy_handler(handle, nil, nil)
    // v2: the connection closes once the last statement a caller still holds is finalized.
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements without parameters or results (schema, pragmas).
  package func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_free(message)
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text)
    }
  }

  /// Compiles one SQL statement.
  package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    try compile(sql, flags: 0)
  }

  /// The statement for `sql`, compiled the first time and kept for the connection's lifetime.
  /// It is shared: bind it afresh on each use and do not keep its rows across another use.
  package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let statement = cache[sql] { return statement }
    let statement = try compile(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
    cache[sql] = statement
    return statement
  }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  package var changes: Int { Int(sqlite3_changes64(handle)) }

  /// The rowid of the last row inserted.
  package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Whether a transaction is open.
  package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The value of a pragma or any one-value query (nil when it returns no row).
  package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError)
    -> SQLiteValue?
  {
    try prepare(sql).firstRow(values) { row in row.value(0) }
  }

  /// Switches to write-ahead logging (readers never wait for the writer); fails when the file
  /// is not a database.
  package func enableWriteAheadLog() throws(SQLiteError) {
    let mode = try scalar("PRAGMA journal_mode = WAL")
    guard mode == .text("wal") else {
      throw SQLiteError(
        code: SQLITE_ERROR, message: "cannot use write-ahead logging",
        context: "Cannot open \(path)")
    }
  }

  /// `PRAGMA user_version`: the schema version the application stored.
  package func userVersion() throws(SQLiteError) -> Int {
    guard case .integer(let version) = try scalar("PRAGMA user_version") else { return 0 }
    return Int(version)
  }

  package func setUserVersion(_ version: Int) throws(SQLiteError) {
    try execute("PRAGMA user_version = \(version)")
  }

  /// Runs SQLite's own consistency check of the whole file (`PRAGMA quick_check`); true if it
  /// found nothing wrong. Throws when the file cannot be read as a database at all.
  package func passesQuickCheck() throws(SQLiteError) -> Bool {
    let results = try prepare("PRAGMA quick_check").rows { row in row.text(0) }
    return results == ["ok"]
  }

  private func compile(_ sql: String, flags: UInt32) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw SQLiteError.last(handle, code: code == SQLITE_OK ? SQLITE_MISUSE : code).within(sql)
    }
    return SQLiteStatement(handle: statement)
  }

  /// Creates the file with mode 0600 before SQLite opens it (SQLite would use 0644), and
  /// narrows an existing file's mode. SQLite gives its -wal and -shm files the same mode.
  /// An existing file is never opened here: closing a descriptor drops every lock this process
  /// holds on the file, and another connection of this process may hold SQLite's (without it,
  /// another process deleted the write-ahead log under that connection).
  /// A database file that is empty while its write-ahead log is not was emptied (truncated, or
  /// removed and made again) after changes went into the log: SQLite would take it for a new
  /// database and delete the log, and with it every change not yet copied into the file (a
  /// walk-through's outbox lost its waiting changes so, without a word). Said to be damaged
  /// instead, so that the caller moves it aside with its log, kept whole. (A file in
  /// write-ahead mode never has a log before its first page is written: this is never a new
  /// database.)
  private static func refuseEmptiedFile(_ path: String) throws(SQLiteError) {
    var file = stat()
    var log = stat()
    guard stat(path, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_size == 0,
      stat(path + "-wal", &log) == 0, log.st_size > 0
    else { return }
    throw SQLiteError(
      code: SQLITE_NOTADB,
      message: "the file is empty, but its write-ahead log holds \(log.st_size) bytes",
      context: "Cannot open \(path)")
  }

  private static func createPrivately(_ path: String) throws(SQLiteError) {
    var info = stat()
    if stat(path, &info) != 0 {
      let code = errno
      guard code == ENOENT else {
        throw SQLiteError(
          code: SQLITE_CANTOPEN, message: describe(code), context: "Cannot open \(path)")
      }
      // O_EXCL: a file that appeared meanwhile is left to the checks below.
      let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NONBLOCK, 0o600)
      if fd >= 0 {
        close(fd)
        return
      }
      let failure = errno
      guard failure == EEXIST, stat(path, &info) == 0 else {
        throw SQLiteError(
          code: SQLITE_CANTOPEN, message: describe(failure), context: "Cannot open \(path)")
      }
    }
    if info.st_mode & S_IFMT == S_IFDIR {
      throw SQLiteError(
        code: SQLITE_NOTADB, message: describe(EISDIR), context: "Cannot open \(path)")
    }
    // A FIFO put in place of the file is refused without opening it (which could hang).
    guard FileMode.isRegular(info.st_mode) else {
      throw SQLiteError(
        code: SQLITE_NOTADB, message: "not a regular file", context: "Cannot open \(path)")
    }
    if info.st_mode & FileMode.groupOrOther != 0 { _ = chmod(path, 0o600) }
  }
}
