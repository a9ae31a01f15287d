import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Watch progress and lesson completion events in `progress.sqlite` (SPEC §12, §13), per
/// account id. An actor: its SQLite work runs off the main actor, one call at a time; calls are
/// immediate (no mock latency) and are not interrupted by cancellation once started.
///
/// Changes merge inside `BEGIN IMMEDIATE` transactions, so two processes never lose each
/// other's intervals, time or events. A damaged row keeps what can be read, and its values are
/// put aside in the file, with a notice; a damaged file is moved aside with a notice and a new
/// one started (user data is never rebuilt away).
package actor ProgressStore {
  let directory: DataDirectory
  let now: @Sendable () -> Date
  let onNotice: @Sendable (String) -> Void
  /// Account ids by normalised email, read only when a file from before ids is opened.
  let accountIDs: @Sendable () throws -> [String: String]
  /// The most classes one account keeps progress for (`ProgressBounds.storedClasses`).
  let classLimit: Int
  /// The most lesson events one account keeps (`ProgressBounds.storedLessonEvents`).
  let lessonEventLimit: Int
  /// The most `Idempotency-Key`s one account keeps (`ProgressBounds.appliedKeys`).
  let appliedKeyLimit: Int
  private var database: ProgressDatabase?
  private var opened: FileIdentity?
  private var isRepairing = false

  /// - Parameters:
  ///   - onNotice: called (off the main actor) with a one-line notice for the user when
  ///     damaged progress was dropped or a damaged file moved aside.
  ///   - accountIDs: the registry's account ids by normalised email, for moving the rows of a
  ///     file from before ids (kept under emails) to them.
  ///   - classLimit: the most classes one account keeps progress for.
  ///   - lessonEventLimit: the most lesson events one account keeps, every round together.
  package init(
    directory: DataDirectory, now: @escaping @Sendable () -> Date = { Date() },
    onNotice: @escaping @Sendable (String) -> Void = { _ in },
    accountIDs: @escaping @Sendable () throws -> [String: String] = { [:] },
    classLimit: Int = ProgressBounds.storedClasses,
    lessonEventLimit: Int = ProgressBounds.storedLessonEvents,
    appliedKeyLimit: Int = ProgressBounds.appliedKeys
  ) {
    self.directory = directory
    self.now = now
    self.onNotice = onNotice
    self.accountIDs = accountIDs
    self.classLimit = classLimit
    self.lessonEventLimit = lessonEventLimit
    self.appliedKeyLimit = appliedKeyLimit
  }

  /// Throws `NewerSchemaError` when `directory`'s progress file is of a newer version, reading
  /// it only (nothing is created or changed): the server checks at its start, as it does its
  /// accounts file, rather than refusing every progress call once it runs.
  package static func refuseNewerFile(in directory: DataDirectory) throws {
    guard access(directory.progressPath, F_OK) == 0 else { return }
    try SQLiteDatabase(path: directory.progressPath, options: .init(readOnly: true))
      .refuseNewerSchema(than: ProgressDatabase.schemaVersion)
  }

  // MARK: Classes

  /// What `account` did with the class (empty progress when never opened).
  package func progress(account: String, classID: String) throws -> ClassProgress {
    try guarded("read") {
      try withDatabase { database in
        guard let row = try database.classRow(account: account, classID: classID) else {
          return ClassProgress()
        }
        return try checked(row, account: account, in: database)
      }
    }
  }

  /// The request `key` was applied to for `account`, if it was (and is still remembered).
  package func appliedRequest(account: String, key: String) throws -> String? {
    try guarded("read") {
      try withDatabase { database in try database.appliedRequest(account: account, key: key) }
    }
  }

  /// Merges `update` into what is stored and returns the result: the position replaced, the
  /// intervals united, the time added.
  @discardableResult
  package func record(_ update: ProgressUpdate) throws -> ClassProgress {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) { try merge(update, in: database) }
      }
    }
  }

  /// As `record(_:)`, once per `key`: a key the account has applied before changes nothing and
  /// answers the class's progress as stored (`replayed`), or `keyReused` when it came with
  /// another request. The key is remembered in the transaction of the change.
  package func record(_ update: ProgressUpdate, key: IdempotencyKey) throws -> Applied<
    ClassProgress
  > {
    try guarded("saved") {
      try withDatabase { database in
        try database.connection.transaction(.immediate) { () throws -> Applied<ClassProgress> in
          if let request = try database.appliedRequest(account: update.account, key: key.value) {
            guard request == key.request else { return .keyReused }
            guard let row = try database.classRow(account: update.account, classID: update.classID)
            else { return .replayed(ClassProgress()) }
            return .replayed(
              try checked(row, account: update.account, in: database))
          }
          let merged = try merge(update, in: database)
          try database.insertApplied(
            account: update.account, key: key.value, request: key.request,
            applied: UTCTimestamp.format(now()), keeping: appliedKeyLimit)
          return .applied(merged)
        }
      }
    }
  }

  /// Merges `update` into its row (inside the caller's transaction); the result. The position
  /// is replaced only by a change made at least as late as the stored one's (a change without
  /// a time is made now), so a device coming back online with older changes does not move it
  /// back; intervals and time always merge.
  private func merge(_ update: ProgressUpdate, in database: ProgressDatabase) throws
    -> ClassProgress
  {
    var progress = ClassProgress()
    var positionAt: Int64?
    if let row = try database.classRow(account: update.account, classID: update.classID) {
      progress = try checked(row, account: update.account, in: database)
      positionAt = row.positionAt
    } else if try database.hasClasses(account: update.account, atLeast: classLimit) {
      throw ProgressError.tooManyClasses(limit: classLimit)
    }
    let clock = Int64((now().timeIntervalSince1970 * 1_000).rounded())
    let changedAt = update.changedAt ?? clock
    // A stored time ahead of this clock (a device whose clock ran ahead, before the server
    // bounded it) counts as now, so it cannot hold the position for hours.
    if positionAt.map({ changedAt >= min($0, clock) }) ?? true {
      progress.lastPosition = max(0, update.position)
      positionAt = changedAt
    }
    progress.watched.formUnion(update.played)
    guard progress.watched.ranges.count <= ProgressBounds.storedIntervals else {
      throw ProgressError.tooManyIntervals
    }
    progress.addTime(update.addedTimeInClass)
    try database.writeClass(
      account: update.account, classID: update.classID,
      .init(
        position: progress.lastPosition, watched: progress.watched.encoded,
        timeInClass: progress.timeInClass, positionAt: positionAt.map { min($0, clock) }))
    return progress
  }

  /// Watched % (rounded down) of each of `classes` that `account` has opened, by class id;
  /// classes never opened are left out (the list shows them blank).
  package func watchedPercents(account: String, classes: [DanceClass]) throws -> [String: Int] {
    try guarded("read") {
      try withDatabase { database in
        let durations = Dictionary(
          classes.map { ($0.id, $0.durationMilliseconds) }, uniquingKeysWith: { first, _ in first })
        var percents: [String: Int] = [:]
        for row in try database.classRows(account: account) {
          guard let duration = durations[row.classID] else { continue }
          let progress = try checked(row, account: account, in: database)
          percents[row.classID] = progress.watched.watchedPercent(duration: duration)
        }
        return percents
      }
    }
  }

  static let damagedClassNotice =
    "Part of a class's progress could not be read: the rest was kept, and the damaged values "
    + "were put aside in progress.sqlite"

  /// The row as progress. A damaged row keeps what can be read of it (a bad number reads as 0,
  /// a bad interval is left out): that is stored in its place, its values are put aside in
  /// the file, and a notice says so. Under the write lock, read again first (another process
  /// may have mended it).
  private func checked(
    _ row: ProgressDatabase.ClassRow, account: String, in database: ProgressDatabase
  ) throws -> ClassProgress {
    if let progress = Self.progress(row) { return progress }
    let mend = { () throws -> ClassProgress in
      guard let current = try database.classRow(account: account, classID: row.classID) else {
        return ClassProgress()
      }
      if let progress = Self.progress(current) { return progress }
      let kept = ClassProgress(
        lastPosition: current.position >= 0 ? Int(current.position) : 0,
        watched: IntervalSet(salvaging: current.watched),
        timeInClass: current.timeInClass >= 0 ? Int(current.timeInClass) : 0
      ).bounded
      try database.setAside(
        account: account, classID: current.classID,
        keeping: .init(
          position: kept.lastPosition, watched: kept.watched.encoded,
          timeInClass: kept.timeInClass, positionAt: current.positionAt),
        found: UTCTimestamp.format(self.now()))
      self.onNotice(Self.damagedClassNotice)
      return kept
    }
    if database.connection.isInTransaction { return try mend() }
    return try database.connection.transaction(.immediate, mend)
  }

  private static func progress(_ row: ProgressDatabase.ClassRow) -> ClassProgress? {
    guard row.position >= 0, row.timeInClass >= 0,
      let watched = IntervalSet(encoded: row.watched)
    else { return nil }
    // A number past the bounds (stored before them) reads as the bound.
    return ClassProgress(
      lastPosition: Int(row.position), watched: watched, timeInClass: Int(row.timeInClass)
    ).bounded
  }

  // MARK: Shared machinery

  /// Runs `body` on the open file. When the file turns out to be damaged, moves it aside (with
  /// a notice), starts a new one and runs `body` once more. When the connection can only read
  /// (SQLite opens a file it cannot write read-only, and stays so), opens it again and runs
  /// `body` once more: the file may be writable by now (a walk-through's `chmod` back left
  /// every save failing until the app was relaunched).
  func withDatabase<T>(_ body: (ProgressDatabase) throws -> T) throws -> T {
    do {
      return try body(try openDatabase())
    } catch let error as SQLiteError where error.isReadOnly && !isRepairing {
      isRepairing = true
      defer { isRepairing = false }
      database = nil
      return try body(try openDatabase())
    } catch let error as SQLiteError where error.isDamage && !isRepairing {
      isRepairing = true
      defer { isRepairing = false }
      database = nil
      let name = try DatabaseQuarantine.moveAside(
        path: directory.progressPath, ifStill: opened, directory: directory, now: now())
      if let name {
        onNotice(
          "progress.sqlite could not be read; moved it aside to \(name) and started a new one")
      }
      return try body(try openDatabase())
    }
  }

  private func openDatabase() throws -> ProgressDatabase {
    if let database { return database }
    opened = FileIdentity(path: directory.progressPath)
    let database = try ProgressDatabase(path: directory.progressPath, accountIDs: accountIDs)
    if opened == nil { opened = FileIdentity(path: directory.progressPath) }
    self.database = database
    return database
  }

  /// Runs `body`, turning every failure into a `ProgressError`: `Progress could not be <what>:
  /// <reason>`.
  func guarded<T>(_ what: String, _ body: () throws -> T) throws(ProgressError) -> T {
    do {
      return try body()
    } catch let error as ProgressError {
      throw error
    } catch {
      throw ProgressError(message: "Progress could not be \(what): \(error)")
    }
  }
}
