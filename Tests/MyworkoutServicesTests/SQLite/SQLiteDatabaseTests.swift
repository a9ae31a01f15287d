import CSQLite
import TestProcesses
import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

/// The wrapper over the system's SQLite: files, bindings, columns and errors as values.
@Suite struct SQLiteDatabaseTests {
  @Test func createsAPrivateFileAndNarrowsAnOpenOne() async throws {
    try await withTemporaryDirectory { root throws in
      _ = try SQLiteDatabase(path: root + "/new.sqlite")
      #expect(permissions(root + "/new.sqlite") == 0o600)
      put([], at: root + "/open.sqlite", mode: 0o644)
      let database = try SQLiteDatabase(path: root + "/open.sqlite")
      try database.enableWriteAheadLog()
      try database.execute("CREATE TABLE t(x)")
      #expect(permissions(root + "/open.sqlite") == 0o600)
      #expect(permissions(root + "/open.sqlite-wal") == 0o600)
    }
  }

  /// Opening a file this process already has open must not drop the locks the first
  /// connection holds on it (POSIX drops all of a process's locks on a file when any of its
  /// descriptors for it is closed). Without its lock, another process that opened and closed
  /// the database deleted the write-ahead log under the first connection, whose next write
  /// then went to a deleted file: lost (a walk-through saw an outbox's WAL deleted this way).
  @Test func openingAFileAgainKeepsTheFirstConnectionsHold() async throws {
    try await withTemporaryDirectory { root throws in
      let path = root + "/held.sqlite"
      let first = try SQLiteDatabase(path: path)
      try first.enableWriteAheadLog()
      try first.execute("CREATE TABLE t(x)")
      try first.execute("INSERT INTO t VALUES (1)")
      _ = try SQLiteDatabase(path: path)  // opened and closed again, as the outbox's scan does
      _ = try ChildProcess.run(
        [
          "python3", "-c",
          "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM t').fetchall(); c.close()",
          path,
        ], searchPath: true)
      try first.execute("INSERT INTO t VALUES (2)")
      let reader = try SQLiteDatabase(path: path)
      #expect(try reader.scalar("SELECT count(*) FROM t") == .integer(2))
    }
  }

  @Test func bindsAndReadsEveryStorageClass() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(a, b, c, d, e, f)")
    let values: [SQLiteValue] = [
      .integer(-9_007_199_254_740_993), .real(0.25), .text("Zoë 🎵 \"quoted\""), .blob([0, 255, 7]),
      .null, .text(""),
    ]
    try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)").run(values)
    let row = try #require(
      try database.prepare("SELECT * FROM t").firstRow { row in
        (0..<row.columnCount).map { row.value($0) }
      })
    #expect(row == values)
    // Empty text stays text (not null); an empty blob reads back as no bytes.
    #expect(try database.scalar("SELECT typeof(f) FROM t") == .text("text"))
    try database.prepare("UPDATE t SET d = ?").run([.blob([])])
    #expect(try database.scalar("SELECT length(d) FROM t") == .integer(0))
  }

  @Test func readsTypedColumnsAndManyRows() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    try database.execute("CREATE TABLE t(n INTEGER, s TEXT)")
    let insert = try database.statement("INSERT INTO t VALUES (?, ?)")
    for n in 1...5 { try insert.run([.int(n), .text("row \(n)")]) }
    #expect(try database.statement("INSERT INTO t VALUES (?, ?)") === insert)
    let rows = try database.prepare("SELECT n, s FROM t WHERE n >= ? ORDER BY n").rows([3]) {
      row in "\(row.int(0)):\(row.text(1))"
    }
    #expect(rows == ["3:row 3", "4:row 4", "5:row 5"])
    #expect(try database.prepare("SELECT n FROM t WHERE n > 9").firstRow { $0.int(0) } == nil)
    #expect(database.changes == 1)
    #expect(database.lastInsertRowID == 5)
  }

  @Test func errorsCarrySQLitesCodeAndMessage() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    let syntax = #expect(throws: SQLiteError.self) { try database.prepare("SELEC 1") }
    #expect(syntax?.code == SQLITE_ERROR)
    #expect(syntax?.description == #"SELEC 1: near "SELEC": syntax error"#)

    try database.execute("CREATE TABLE t(id TEXT PRIMARY KEY)")
    let insert = try database.prepare("INSERT INTO t VALUES (?)")
    try insert.run(["a"])
    let duplicate = #expect(throws: SQLiteError.self) { try insert.run(["a"]) }
    #expect(duplicate?.code == SQLITE_CONSTRAINT)
    #expect(duplicate?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
    #expect(duplicate?.message == "UNIQUE constraint failed: t.id")
    // The statement stays usable after a failure.
    try insert.run(["b"])

    let tooMany = #expect(throws: SQLiteError.self) { try insert.run(["c", "d"]) }
    #expect(tooMany?.code == SQLITE_RANGE)
    let execute = #expect(throws: SQLiteError.self) { try database.execute("DROP TABLE nope") }
    #expect(execute?.message == "no such table: nope")
  }

  @Test func aFileThatIsNotADatabaseIsDamage() async throws {
    try await withTemporaryDirectory { root throws in
      let garbage = root + "/garbage.sqlite"
      put(Array(repeating: 0x41, count: 4096), at: garbage)
      let database = try SQLiteDatabase(path: garbage)
      let error = #expect(throws: SQLiteError.self) { try database.enableWriteAheadLog() }
      #expect(error?.isDamage == true)
      #expect(error?.message == "file is not a database")

      #expect(mkdir(root + "/directory.sqlite", 0o700) == 0)
      let directory = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(path: root + "/directory.sqlite")
      }
      #expect(directory?.isDamage == true)
      #expect(directory?.description == "Cannot open \(root)/directory.sqlite: Is a directory")

      let missing = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(path: root + "/none/x.sqlite")
      }
      #expect(missing?.isDamage == false)
      #expect(
        missing?.description == "Cannot open \(root)/none/x.sqlite: No such file or directory")
    }
  }

  @Test func quickCheckPassesOnAHealthyFile() throws {
    let database = try SQLiteDatabase(path: ":memory:")
    #expect(!exists(":memory:"), "an in-memory database makes no file")
    try database.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    #expect(try database.passesQuickCheck())
    try database.setUserVersion(7)
    #expect(try database.userVersion() == 7)
  }
}
