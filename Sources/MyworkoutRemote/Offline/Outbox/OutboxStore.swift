import Crypto
import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Remote mode's outbox of one account on one server (SPEC §18): `outbox-<id>.sqlite` in the
/// data directory (mode 0600, as every data file; full syncs, like progress), where every
/// change is written before it is sent and stays until the server has it. Changes leave in the
/// order they were written; one the server refused is put aside (kept, with the reason) so
/// that it no longer holds up the rest.
package actor OutboxStore {
  static let schemaVersion = 1
  static let schema = """
    CREATE TABLE changes(
      sequence INTEGER PRIMARY KEY AUTOINCREMENT,
      key TEXT NOT NULL UNIQUE,
      change TEXT NOT NULL,
      aside TEXT);
    CREATE TABLE known(
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL) WITHOUT ROWID;
    """

  nonisolated package let path: String
  nonisolated let directory: DataDirectory
  /// Told, in one line, when a damaged file was moved aside.
  let onNotice: @Sendable (String) -> Void
  private var connection: SQLiteDatabase?
  /// How the connection's commits wait for the disk now (it opens with `full`).
  private var syncing = Syncing.full
  /// The file the connection was opened on (moved aside only if it is still that one).
  private var opened: FileIdentity?

  package init(
    directory: DataDirectory, server: String, account: String,
    onNotice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    path = Self.path(in: directory, server: server, account: account)
    self.directory = directory
    self.onNotice = onNotice
  }

  /// Where the outbox of `account` on `server` is kept: `outbox-` and 16 hex digits of SHA-256
  /// of the server's URL and the account id, one file per server and account, with neither in
  /// its name.
  package static func path(in directory: DataDirectory, server: String, account: String)
    -> String
  {
    let digest = SHA256.hash(data: Array((server + "\n" + account).utf8))
    return directory.path + "/outbox-" + digest.prefix(8).hexString + ".sqlite"
  }

  // MARK: What the server last said

  /// Keeps `value` as the server's last word on `key` (a class's progress, the watched %, the
  /// lesson events), so that it can be shown while the server is away.
  package func remember(_ value: some Encodable, as key: String) throws {
    let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    try withDatabase(syncing: .normal) {
      try $0.statement("INSERT OR REPLACE INTO known(key, value) VALUES (?, ?)")
        .run([.text(key), .text(text)])
    }
  }

  /// The value kept under `key`, if any (one that no longer decodes counts as none).
  package func recall<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
    let text = try withDatabase {
      try $0.statement("SELECT value FROM known WHERE key = ?").firstRow([.text(key)]) {
        $0.text(0)
      }
    }
    return text.flatMap { try? JSONDecoder().decode(type, from: Data($0.utf8)) }
  }

  /// Whose outbox a file is: kept in it, so that an outbox whose account the server no longer
  /// knows (the server's data started over, the email signed up again) can be found and told.
  package struct Owner: Codable, Sendable, Equatable {
    package var server: String
    package var account: String
    package var email: String
  }

  static let ownerKey = "owner"

  /// The outboxes in `directory` that name their owner and still hold changes waiting: each
  /// one's path, owner and how many changes wait there, in the order of their names.
  private static func waitingOutboxes(in directory: DataDirectory) -> [(
    path: String, owner: Owner, waiting: Int
  )] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    var found: [(path: String, owner: Owner, waiting: Int)] = []
    for name in names.sorted() where name.hasPrefix("outbox-") && name.hasSuffix(".sqlite") {
      let path = directory.path + "/" + name
      guard
        let database = try? SQLiteDatabase(path: path),
        let text = try? database.statement("SELECT value FROM known WHERE key = ?")
          .firstRow([.text(ownerKey)], { $0.text(0) }),
        let owner = try? JSONDecoder().decode(Owner.self, from: Data(text.utf8)),
        case .integer(let count)? = try? database.scalar(
          "SELECT count(*) FROM changes WHERE aside IS NULL"),
        count > 0
      else { continue }
      found.append((path, owner, Int(count)))
    }
    return found
  }

  /// The outboxes in `directory` of `email` on `server` under an account other than
  /// `account` that still hold changes: their account and how many changes wait there.
  package static func stranded(
    in directory: DataDirectory, server: String, email: String, except account: String
  ) -> [(account: String, waiting: Int)] {
    waitingOutboxes(in: directory).filter {
      $0.owner.server == server && $0.owner.email == email && $0.owner.account != account
    }.map { ($0.owner.account, $0.waiting) }
  }

  /// The outboxes in `directory` of `account` and `email` filed under another spelling of a
  /// server's URL (`owner.server` is not `server`) that hold changes waiting: their paths.
  /// Account ids are the server's own (random, 96 bits): the same id and email is the same
  /// account, reached by another name (a walk-through's `127.0.0.1` and `localhost`).
  package static func sameAccountElsewhere(
    in directory: DataDirectory, server: String, account: String, email: String
  ) -> [String] {
    waitingOutboxes(in: directory).filter {
      $0.owner.server != server && $0.owner.account == account && $0.owner.email == email
    }.map(\.path)
  }

  /// Takes the changes waiting in the outbox at `other` into this one, each under its own key
  /// (a change the server applied without its answer arriving is applied once, not twice),
  /// after this outbox's changes; then removes them there. How many were taken.
  package func adopt(from other: String) throws -> Int {
    let source = try SQLiteDatabase(path: other, options: .init(interruptsWhenCancelled: false))
    let rows = try source.statement(
      "SELECT key, change FROM changes WHERE aside IS NULL ORDER BY sequence"
    ).rows([]) { row in (row.text(0), row.text(1)) }
    guard !rows.isEmpty else { return 0 }
    try withDatabase(syncing: .full) { database in
      try database.transaction(.immediate) {
        try Self.insert(rows.map { ($0.0, $0.1, .null) }, into: database)
      }
    }
    // Only once they are safe here: should this fail, they go again from both files under
    // their keys, which the server applies once.
    try source.transaction(.immediate) {
      for (key, _) in rows {
        try source.statement("DELETE FROM changes WHERE key = ?").run([.text(key)])
      }
    }
    return rows.count
  }

  /// Writes `change` (durably) with a new key; the entry.
  @discardableResult
  package func append(_ change: OutboxChange) throws -> OutboxEntry {
    let key = UUID()
    let text = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
    let sequence = try withDatabase(syncing: .full) { database in
      try database.statement("INSERT INTO changes(key, change) VALUES (?, ?)")
        .run([.text(key.uuidString), .text(text)])
      return try database.scalar("SELECT last_insert_rowid()")
    }
    guard case .integer(let number) = sequence else {
      throw ServiceError.storage("The outbox could not be written")
    }
    return OutboxEntry(sequence: number, key: key, change: change)
  }

  /// The changes waiting to be sent, oldest first.
  package func waiting() throws -> [OutboxEntry] {
    try entries(where: "aside IS NULL")
  }

  /// How many changes wait to be sent.
  package func count() throws -> Int {
    try counts().waiting
  }

  /// How many changes wait to be sent and how many are put aside, in one query.
  package func counts() throws -> (waiting: Int, aside: Int) {
    let row = try withDatabase {
      try $0.statement("SELECT count(*) - count(aside), count(aside) FROM changes")
        .firstRow([]) { ($0.int64(0), $0.int64(1)) }
    }
    return (Int(row?.0 ?? 0), Int(row?.1 ?? 0))
  }

  /// What `next()` found: the oldest change waiting, and how many rows before it this build
  /// could not read (a newer version's change, a damaged page), which it put aside.
  package struct Next: Sendable {
    package var entry: OutboxEntry?
    package var unreadable: Int
  }

  static let unreadableReason = "this version of the app could not read it"

  /// The oldest change waiting, if any. A row that does not decode is put aside (kept, with
  /// why) so that it never hides the changes after it (issue 28).
  package func next() throws -> Next {
    try withDatabase(syncing: .full) { database in try next(in: database) }
  }

  private func next(in database: SQLiteDatabase) throws -> Next {
    var unreadable = 0
    while true {
      let row = try database.statement(
        "SELECT sequence, key, change FROM changes WHERE aside IS NULL ORDER BY sequence LIMIT 1"
      ).firstRow([]) { row in (row.int64(0), row.text(1), row.text(2)) }
      guard let (sequence, key, change) = row else {
        return Next(entry: nil, unreadable: unreadable)
      }
      if let entry = Self.entry(sequence, key, change) {
        return Next(entry: entry, unreadable: unreadable)
      }
      try database.statement("UPDATE changes SET aside = ? WHERE sequence = ?")
        .run([.text(Self.unreadableReason), .integer(sequence)])
      unreadable += 1
    }
  }

  /// Puts every change put aside back in the queue, in its place (at a log-in, or when the
  /// person asks): what a proxy refused may go now; one this build cannot read is put aside
  /// again by `next()`. The number released.
  @discardableResult
  package func releaseAside() throws -> Int {
    let count = try counts().aside
    if count > 0 {
      try withDatabase(syncing: .full) {
        try $0.execute("UPDATE changes SET aside = NULL WHERE aside IS NOT NULL")
      }
    }
    return count
  }

  /// The changes put aside, oldest first, with why.
  package func putAside() throws -> [(entry: OutboxEntry, reason: String)] {
    return try withDatabase { database in
      try database.statement(
        "SELECT sequence, key, change, aside FROM changes WHERE aside IS NOT NULL ORDER BY sequence"
      ).rows([]) { row in (row.int64(0), row.text(1), row.text(2), row.text(3)) }
    }
    .compactMap { sequence, key, change, reason in
      Self.entry(sequence, key, change).map { ($0, reason) }
    }
  }

  /// Forgets a change the server has. Not waited for on the disk: should a power cut undo it,
  /// the change goes again under its own key, which the server applies once.
  package func remove(_ entry: OutboxEntry) throws {
    try withDatabase(syncing: .normal) {
      try $0.statement("DELETE FROM changes WHERE key = ?").run([.text(entry.key.uuidString)])
    }
  }

  /// Keeps a change the server refused out of the way, with why.
  package func putAside(_ entry: OutboxEntry, reason: String) throws {
    try withDatabase(syncing: .full) {
      try $0.statement("UPDATE changes SET aside = ? WHERE key = ?")
        .run([.text(reason), .text(entry.key.uuidString)])
    }
  }

  private func entries(where condition: String, limit: Int = -1) throws -> [OutboxEntry] {
    try withDatabase { database in
      try database.statement(
        "SELECT sequence, key, change FROM changes WHERE \(condition) ORDER BY sequence LIMIT ?"
      ).rows([.int(limit)]) { row in (row.int64(0), row.text(1), row.text(2)) }
    }.compactMap { Self.entry($0.0, $0.1, $0.2) }
  }

  private static func entry(_ sequence: Int64, _ key: String, _ change: String) -> OutboxEntry? {
    guard let key = UUID(uuidString: key),
      let change = try? JSONDecoder().decode(OutboxChange.self, from: Data(change.utf8))
    else { return nil }
    return OutboxEntry(sequence: sequence, key: key, change: change)
  }

  /// Runs `body` on the open file. A file that turns out to be damaged (truncated, not a
  /// database, a bad page) is moved aside as `NAME.corrupt-<time>`, said in one line, and a
  /// fresh outbox started, on which `body` runs once more (issue 28: saves go on working). A
  /// connection that can only read (SQLite opens a file it cannot write read-only, and stays
  /// so) is opened again for `body`'s second try: the file may be writable by now.
  private func withDatabase<T>(
    syncing: Syncing? = nil, _ body: (SQLiteDatabase) throws -> T
  ) throws -> T {
    do {
      return try body(try open(syncing: syncing))
    } catch let error as SQLiteError where error.isReadOnly {
      connection = nil
      return try body(try open(syncing: syncing))
    } catch let error as SQLiteError where error.isDamage {
      connection = nil
      let damaged = opened ?? FileIdentity(path: path)
      if let name = try DatabaseQuarantine.moveAside(
        path: path, ifStill: damaged, directory: directory, now: Date())
      {
        let file = String(path.split(separator: "/").last ?? "")
        onNotice(
          "\(file) (changes waiting for the server) could not be read; moved it aside to \(name) and started a new one"
        )
      }
      return try body(try open(syncing: syncing))
    }
  }

  /// The open file, its commits set to wait for the disk as `syncing` says (nil: as they do).
  private func open(syncing: Syncing?) throws -> SQLiteDatabase {
    let database = try open()
    if let syncing, syncing != self.syncing {
      try database.execute("PRAGMA synchronous = \(syncing.rawValue)")
      self.syncing = syncing
    }
    return database
  }

  /// How a commit waits for the disk (`PRAGMA synchronous`). With the write-ahead log, `normal`
  /// survives the app's crash but not a power cut, which may undo the last such commits (never
  /// part of one, never one before a later full one: the log keeps them in order).
  enum Syncing: String {
    /// Waits until the commit is on the disk: a change a person made.
    case full = "FULL"
    /// Leaves the commit to the system's own writing: what can be had again.
    case normal = "NORMAL"
  }

  /// The path no longer names the file this store has open (removed or replaced from
  /// outside: a walk-through's `rm` left the changes going into the removed file, gone when
  /// the app quit). What the open file holds (the changes and what the server last said) is
  /// kept here until it is written into the file at the path (made anew, or, when something
  /// else stands there, moved aside first: a directory put in its place), each change under
  /// its own key.
  private func carry(from old: SQLiteDatabase) {
    let changes =
      (try? old.statement("SELECT key, change, aside FROM changes ORDER BY sequence").rows([]) {
        row in (row.text(0), row.text(1), row.value(2))
      }) ?? []
    let known =
      (try? old.statement("SELECT key, value FROM known").rows([]) { ($0.text(0), $0.text(1)) })
      ?? []
    carried = Carried(
      changes: (carried?.changes ?? []) + changes, known: (carried?.known ?? []) + known)
    connection = nil
    opened = nil
  }

  /// Puts `changes` in `database`, each under its own key (one it holds already is left as
  /// it is): an outbox taken in, or one removed while open written anew.
  private static func insert(
    _ changes: [(key: String, change: String, aside: SQLiteValue)], into database: SQLiteDatabase
  ) throws {
    for (key, change, aside) in changes {
      try database.statement("INSERT OR IGNORE INTO changes(key, change, aside) VALUES (?, ?, ?)")
        .run([.text(key), .text(change), aside])
    }
  }

  /// What an outbox removed while open held, not yet written anew (see `carry`).
  private struct Carried {
    var changes: [(key: String, change: String, aside: SQLiteValue)]
    var known: [(key: String, value: String)]
  }
  private var carried: Carried?

  /// Writes what was carried into `fresh`, said in one line.
  private func writeCarried(into fresh: SQLiteDatabase) throws {
    guard let carried else { return }
    try fresh.transaction(.immediate) {
      try Self.insert(carried.changes, into: fresh)
      for (key, value) in carried.known {
        try fresh.statement("INSERT OR IGNORE INTO known(key, value) VALUES (?, ?)")
          .run([.text(key), .text(value)])
      }
    }
    self.carried = nil
    if !carried.changes.isEmpty {
      let file = String(path.split(separator: "/").last ?? "")
      let count =
        carried.changes.count == 1 ? "1 change" : "\(carried.changes.count) changes"
      onNotice("\(file) was removed while in use; its \(count) were written to a new one")
    }
  }

  /// `PRAGMA synchronous` on the open file now: 2 full, 1 normal (for tests).
  package func synchronousSetting() throws -> Int {
    guard case .integer(let value) = try open().scalar("PRAGMA synchronous") else { return -1 }
    return Int(value)
  }

  private func open() throws -> SQLiteDatabase {
    if let connection {
      if FileIdentity(path: path) == opened { return connection }
      carry(from: connection)
    }
    opened = FileIdentity(path: path)
    let connection = try SQLiteDatabase(
      path: path, options: .init(interruptsWhenCancelled: false))
    // A newer app's outbox keeps its changes for it: refused before anything in it changes.
    try connection.refuseNewerSchema(than: Self.schemaVersion)
    try connection.enableWriteAheadLog()
    // What a person did: every change reaches the disk before it is sent.
    try connection.execute("PRAGMA synchronous = FULL")
    syncing = .full
    try connection.ensureSchema(Self.schema, version: Self.schemaVersion)
    if opened == nil { opened = FileIdentity(path: path) }
    self.connection = connection
    try writeCarried(into: connection)
    return connection
  }
}
