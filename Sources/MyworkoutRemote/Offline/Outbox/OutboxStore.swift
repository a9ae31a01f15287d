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
  private var connection: SQLiteDatabase?

  package init(directory: DataDirectory, server: String, account: String) {
    path = Self.path(in: directory, server: server, account: account)
  }

  /// Where the outbox of `account` on `server` is kept: `outbox-` and 16 hex digits of SHA-256
  /// of the server's URL and the account id, one file per server and account, with neither in
  /// its name.
  package static func path(in directory: DataDirectory, server: String, account: String)
    -> String
  {
    let digest = SHA256.hash(data: Array((server + "\n" + account).utf8))
    return directory.path + "/outbox-" + Hex.prefix(digest, bytes: 8) + ".sqlite"
  }

  // MARK: What the server last said

  /// Keeps `value` as the server's last word on `key` (a class's progress, the watched %, the
  /// lesson events), so that it can be shown while the server is away.
  package func remember(_ value: some Encodable, as key: String) throws {
    let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    try open().statement("INSERT OR REPLACE INTO known(key, value) VALUES (?, ?)")
      .run([.text(key), .text(text)])
  }

  /// The value kept under `key`, if any (one that no longer decodes counts as none).
  package func recall<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
    let text = try open().statement("SELECT value FROM known WHERE key = ?")
      .firstRow([.text(key)]) { $0.text(0) }
    return text.flatMap { try? JSONDecoder().decode(type, from: Data($0.utf8)) }
  }

  /// Writes `change` (durably) with a new key; the entry.
  @discardableResult
  package func append(_ change: OutboxChange) throws -> OutboxEntry {
    let key = UUID()
    let text = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
    let database = try open()
    try database.statement("INSERT INTO changes(key, change) VALUES (?, ?)")
      .run([.text(key.uuidString), .text(text)])
    let sequence = try database.scalar("SELECT last_insert_rowid()")
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
    guard
      case .integer(let count) = try open().scalar(
        "SELECT count(*) FROM changes WHERE aside IS NULL")
    else { return 0 }
    return Int(count)
  }

  /// The oldest change waiting, if any.
  package func next() throws -> OutboxEntry? {
    try entries(where: "aside IS NULL", limit: 1).first
  }

  /// The changes put aside, oldest first, with why.
  package func putAside() throws -> [(entry: OutboxEntry, reason: String)] {
    let database = try open()
    return try database.statement(
      "SELECT sequence, key, change, aside FROM changes WHERE aside IS NOT NULL ORDER BY sequence"
    ).rows([]) { row in (row.int64(0), row.text(1), row.text(2), row.text(3)) }
      .compactMap { sequence, key, change, reason in
        Self.entry(sequence, key, change).map { ($0, reason) }
      }
  }

  /// Forgets a change the server has.
  package func remove(_ entry: OutboxEntry) throws {
    try open().statement("DELETE FROM changes WHERE key = ?").run([.text(entry.key.uuidString)])
  }

  /// Keeps a change the server refused out of the way, with why.
  package func putAside(_ entry: OutboxEntry, reason: String) throws {
    try open().statement("UPDATE changes SET aside = ? WHERE key = ?")
      .run([.text(reason), .text(entry.key.uuidString)])
  }

  private func entries(where condition: String, limit: Int = -1) throws -> [OutboxEntry] {
    try open().statement(
      "SELECT sequence, key, change FROM changes WHERE \(condition) ORDER BY sequence LIMIT ?"
    ).rows([.int(limit)]) { row in (row.int64(0), row.text(1), row.text(2)) }
      .compactMap { Self.entry($0.0, $0.1, $0.2) }
  }

  private static func entry(_ sequence: Int64, _ key: String, _ change: String) -> OutboxEntry? {
    guard let key = UUID(uuidString: key),
      let change = try? JSONDecoder().decode(OutboxChange.self, from: Data(change.utf8))
    else { return nil }
    return OutboxEntry(sequence: sequence, key: key, change: change)
  }

  private func open() throws -> SQLiteDatabase {
    if let connection { return connection }
    let connection = try SQLiteDatabase(
      path: path, options: .init(interruptsWhenCancelled: false))
    try connection.enableWriteAheadLog()
    // What a person did: every change reaches the disk before it is sent.
    try connection.execute("PRAGMA synchronous = FULL")
    try connection.ensureSchema(Self.schema, version: Self.schemaVersion)
    self.connection = connection
    return connection
  }
}
