import CSQLite
import Foundation
import Synchronization
import Testing

@testable import MyworkoutServices

/// Transactions commit or roll back as a whole; BEGIN IMMEDIATE keeps other writers out; a
/// cancelled task interrupts its statement.
@Suite struct SQLiteTransactionTests {
  struct Oops: Error {}

  /// A database at `path` in write-ahead-log mode with a table `t(x)`, for connections to share.
  static func sharedTable(at path: String) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(path: path)
    try database.enableWriteAheadLog()
    try database.execute("CREATE TABLE t(x)")
    return database
  }

  /// Starts a thread whose own connection to `path` writes `t` back to back, holding the write
  /// lock 3 ms at a time, until `done` is set or `limit` has passed; `committed` runs after each
  /// transaction.
  static func startBackToBackWriter(
    at path: String, for limit: Duration, until done: Flag,
    committed: @escaping @Sendable () -> Void
  ) {
    Thread {
      guard let writer = try? SQLiteDatabase(path: path) else { return }
      let end = ContinuousClock.now + limit
      while !done.isSet, ContinuousClock.now < end {
        try? writer.transaction(.immediate) {
          try writer.execute("INSERT INTO t VALUES (1)")
          let hold = ContinuousClock.now + .milliseconds(3)
          while ContinuousClock.now < hold {}
        }
        committed()
      }
    }.start()
  }

  @Test func commitsOnReturnAndRollsBackOnThrow() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(x)")
    try database.transaction { try database.execute("INSERT INTO t VALUES (1)") }
    #expect(throws: Oops.self) {
      try database.transaction(.immediate) {
        try database.execute("INSERT INTO t VALUES (2)")
        throw Oops()
      }
    }
    #expect(!database.isInTransaction)
    #expect(try database.scalar("SELECT group_concat(x) FROM t") == .text("1"))
  }

  @Test func immediateKeepsOtherWritersOutUntilCommit() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/shared.sqlite"
      let first = try Self.sharedTable(at: path)
      let second = try SQLiteDatabase(path: path, options: .init(busyTimeout: .zero))
      try first.transaction(.immediate) {
        try first.execute("INSERT INTO t VALUES (1)")
        let busy = #expect(throws: SQLiteError.self) {
          try second.transaction(.immediate) {}
        }
        #expect(busy?.isBusy == true)
        #expect(busy?.message == "database is locked")
        // Readers still see the last committed state meanwhile (write-ahead log).
        #expect(try second.scalar("SELECT count(*) FROM t") == .integer(0))
      }
      try second.transaction(.immediate) { try second.execute("INSERT INTO t VALUES (2)") }
      #expect(try first.scalar("SELECT count(*) FROM t") == .integer(2))
    }
  }

  /// A writer that commits back to back, holding the write lock 3 ms at a time with only a
  /// moment between, does not starve another connection of it: the waiting one tries often
  /// enough to find a gap within its busy timeout (SQLite's own handler, sleeping up to 100 ms
  /// between tries, mostly missed every gap for 5 s).
  @Test func aWriterWaitingOnBackToBackCommitsGetsIn() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/shared.sqlite"
      _ = try Self.sharedTable(at: path)
      let done = Flag()
      let writing = Flag()
      Self.startBackToBackWriter(at: path, for: .seconds(12), until: done) { writing.set() }
      while !writing.isSet { await Task.yield() }
      let waiting = try SQLiteDatabase(path: path, options: .init(busyTimeout: .seconds(5)))
      let started = ContinuousClock.now
      var failure: (any Error)?
      do {
        try waiting.transaction(.immediate) { try waiting.execute("INSERT INTO t VALUES (2)") }
      } catch {
        failure = error
      }
      done.set()
      #expect(failure == nil, "the write lock within 5 s: \(String(describing: failure))")
      print("waited \(ContinuousClock.now - started) for the write lock")
    }
  }

  /// Writers take turns: one that is waiting for the write lock goes before the next
  /// transaction of a writer that commits back to back, instead of finding a gap by chance
  /// (which starved two processes saving progress for 5 s on a loaded CI machine). Counted in
  /// the busy writer's commits while the other waits, over ten waits.
  @Test func aWaitingWriterGoesBeforeTheNextBackToBackCommit() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/shared.sqlite"
      _ = try Self.sharedTable(at: path)
      let done = Flag()
      let commits = Atomic<Int>(0)
      Self.startBackToBackWriter(at: path, for: .seconds(30), until: done) {
        commits.add(1, ordering: .relaxed)
      }
      defer { done.set() }
      let deadline = ContinuousClock.now + .seconds(30)
      while commits.load(ordering: .relaxed) == 0 {
        guard ContinuousClock.now < deadline else {
          Issue.record("the busy writer never committed")
          return
        }
        await Task.yield()
      }
      let waiting = try SQLiteDatabase(path: path, options: .init(busyTimeout: .seconds(5)))
      var overtaken: [Int] = []
      for _ in 0..<10 {
        let before = commits.load(ordering: .relaxed)
        try waiting.transaction(.immediate) {
          overtaken.append(commits.load(ordering: .relaxed) - before)
          try waiting.execute("INSERT INTO t VALUES (2)")
        }
      }
      print("commits that went first, each of ten waits: \(overtaken)")
      // Fair turns let at most the commit under way and the one that was already waiting go
      // first; one more is allowed for a scheduler that runs the waiter late.
      #expect(overtaken.allSatisfy { $0 <= 3 }, "\(overtaken)")
    }
  }

  /// The writers' side file holds no state a dead or stuck process can leave behind: a writer
  /// that never takes its turn (a shared lock held on and on, as by a process stopped while
  /// waiting) delays the others only for a moment; a FIFO in the side file's place, or no
  /// side file, leaves writers to SQLite's locks alone. Made when first needed, mode 0600.
  @Test func theWritersSideFileCannotStopAWriter() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/shared.sqlite"
      let database = try Self.sharedTable(at: path)
      try database.transaction(.immediate) { try database.execute("INSERT INTO t VALUES (1)") }
      #expect(!exists(path + "-writers"), "made only when a writer had to wait")

      // The first writer that has to wait makes it, private.
      let holder = try SQLiteDatabase(path: path)
      let waiter = try SQLiteDatabase(path: path, options: .init(busyTimeout: .milliseconds(20)))
      try holder.transaction(.immediate) {
        #expect(throws: SQLiteError.self) { try waiter.transaction(.immediate) {} }
      }
      #expect(exists(path + "-writers"))
      #expect(permissions(path + "-writers") == 0o600)
      #expect(unlink(path + "-writers") == 0)

      let stuck = open(path + "-writers", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
      #expect(stuck >= 0)
      defer { close(stuck) }
      #expect(flock(stuck, LOCK_SH | LOCK_NB) == 0)
      let other = try SQLiteDatabase(path: path)
      try other.transaction(.immediate) { try other.execute("INSERT INTO t VALUES (2)") }
      // A wait for the write lock opens the file in a new connection, and narrows it.
      let later = try SQLiteDatabase(path: path, options: .init(busyTimeout: .milliseconds(20)))
      try holder.transaction(.immediate) {
        #expect(throws: SQLiteError.self) { try later.transaction(.immediate) {} }
      }
      #expect(permissions(path + "-writers") == 0o600)

      // A hard link in its place (to any other file) is not used, nor narrowed.
      let linkedPath = root + "/linked.sqlite"
      let linked = try Self.sharedTable(at: linkedPath)
      let elsewhere = root + "/elsewhere.txt"
      close(open(elsewhere, O_CREAT | O_RDWR | O_CLOEXEC, 0o644))
      #expect(chmod(elsewhere, 0o644) == 0 && link(elsewhere, linkedPath + "-writers") == 0)
      let linkedWaiter = try SQLiteDatabase(
        path: linkedPath, options: .init(busyTimeout: .milliseconds(20)))
      try linked.transaction(.immediate) {
        #expect(throws: SQLiteError.self) { try linkedWaiter.transaction(.immediate) {} }
      }
      try linkedWaiter.transaction(.immediate) {
        try linkedWaiter.execute("INSERT INTO t VALUES (4)")
      }
      #expect(permissions(elsewhere) == 0o644)

      let fifoPath = root + "/fifo.sqlite"
      let fifoDatabase = try Self.sharedTable(at: fifoPath)
      #expect(mkfifo(fifoPath + "-writers", 0o600) == 0)
      let blocked = try SQLiteDatabase(
        path: fifoPath, options: .init(busyTimeout: .milliseconds(20)))
      try fifoDatabase.transaction(.immediate) {
        #expect(throws: SQLiteError.self) { try blocked.transaction(.immediate) {} }
      }
      try blocked.transaction(.immediate) { try blocked.execute("INSERT INTO t VALUES (3)") }
      #expect(try database.scalar("SELECT count(*) FROM t") == .integer(2))
      #expect(try fifoDatabase.scalar("SELECT count(*) FROM t") == .integer(1))
    }
  }

  @Test func cancellingTheTaskInterruptsALongStatement() async throws {
    let started = Flag()
    let task = Task { () -> SQLiteError? in
      do throws(SQLiteError) {
        let database = try SQLiteDatabase(path: ":memory:")
        let endless = try database.prepare(
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        )
        started.set()
        _ = try endless.step()
        return nil
      } catch {
        return error
      }
    }
    while !started.isSet { await Task.yield() }
    task.cancel()
    let error = await task.value
    #expect(error?.isInterrupt == true)
    #expect(error?.code == SQLITE_INTERRUPT)
  }

  @Test(arguments: [true, false])
  func interruptingOnCancellationIsAnOption(interrupts: Bool) async throws {
    let task = Task { () -> Result<SQLiteValue?, SQLiteError> in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(SQLiteError) {
        let database = try SQLiteDatabase(
          path: ":memory:", options: .init(interruptsWhenCancelled: interrupts))
        return .success(
          try database.scalar(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            SELECT count(*) FROM n
            """))
      } catch {
        return .failure(error)
      }
    }
    switch await task.value {
    case .success(let count):
      #expect(!interrupts)
      #expect(count == .integer(100_000))
    case .failure(let error):
      #expect(interrupts)
      #expect(error.isInterrupt)
    }
  }
}
