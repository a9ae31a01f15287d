import Crypto
import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What remote mode fetched that is the same for everyone (catalog pages, class details, the
/// lessons), kept so that it stays usable while the server is away (SPEC §18):
/// `cache-<id>.sqlite` in the data directory, one per server. Each answer is kept as the
/// server sent it, under its path, replaced by the next answer to the same path. Personal
/// data is never kept here (it lives in the account's outbox file).
///
/// A cache that cannot be read or written is no cache: every call here fails quietly, and the
/// app works as it would without one. A file that is not a cache this version can use (damaged,
/// not a database, a newer version's) holds only copies: it is removed and made again.
package actor RemoteCache {
  static let schemaVersion = 1
  static let schema = """
    CREATE TABLE answers(
      path TEXT PRIMARY KEY,
      body BLOB NOT NULL,
      saved TEXT NOT NULL) WITHOUT ROWID;
    """

  nonisolated package let path: String
  private let directory: DataDirectory
  private var connection: SQLiteDatabase?
  /// The file the connection was opened on (device and inode), to remove only that file.
  private var opened: FileIdentity?

  package init(directory: DataDirectory, server: String) {
    self.directory = directory
    path = directory.path + "/" + Self.fileName(server: server)
  }

  /// `cache-` and 16 hex digits of SHA-256 of the server's URL.
  static func fileName(server: String) -> String {
    "cache-" + SHA256.hash(data: Array(server.utf8)).prefix(8).hexString + ".sqlite"
  }

  /// Keeps `body` as the answer for `path`, with the server's `ETag` for it (kept beside it, under
  /// `etag:` and the path, so the file's layout stays as it was).
  package func keep(_ body: Data, tag: String? = nil, for path: String) {
    let saved = UTCTimestamp.format(Date())
    let insert = "INSERT OR REPLACE INTO answers(path, body, saved) VALUES (?, ?, ?)"
    let tagPath = Self.tagPrefix + path
    try? withDatabase { database in
      try database.statement(insert).run([.text(path), .blob(Array(body)), .text(saved)])
      if let tag {
        try database.statement(insert).run([
          .text(tagPath), .blob(Array(tag.utf8)), .text(saved),
        ])
      } else {
        try database.statement("DELETE FROM answers WHERE path = ?").run([.text(tagPath)])
      }
    }
  }

  static let tagPrefix = "etag:"

  /// The `ETag` the server gave the answer kept for `path`, if any.
  package func tag(for path: String) -> String? {
    body(for: Self.tagPrefix + path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The answer kept for `path`, if any.
  package func body(for path: String) -> Data? {
    let bytes = try? withDatabase { database in
      try database.statement("SELECT body FROM answers WHERE path = ?")
        .firstRow([.text(path)]) { $0.blob(0) }
    }
    return bytes.flatMap { $0 }.map { Data($0) }
  }

  /// Every answer kept under a path that starts with `prefix`, oldest path first.
  package func bodies(under prefix: String) -> [Data] {
    let rows = try? withDatabase { database in
      try database.statement(
        "SELECT body FROM answers WHERE substr(path, 1, ?) = ? ORDER BY path"
      ).rows([.int(prefix.utf8.count), .text(prefix)]) { Data($0.blob(0)) }
    }
    return rows ?? []
  }

  /// Runs `body` on the open file; a file this version cannot use is removed (with its
  /// write-ahead log) and made again, and `body` runs once more.
  private func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
    do {
      return try body(try open())
    } catch let error as SQLiteError where error.isDamage {
      remove()
    } catch is NewerSchemaError {
      remove()
    }
    return try body(try open())
  }

  /// Closes the file and removes it, unless another copy of the app (same server, same data
  /// directory) has already made a new one in its place.
  private func remove() {
    connection = nil
    _ = try? DatabaseQuarantine.remove(path: path, ifStill: opened, directory: directory)
  }

  private func open() throws -> SQLiteDatabase {
    if let connection { return connection }
    opened = FileIdentity(path: path)
    let connection = try SQLiteDatabase(
      path: path, options: .init(interruptsWhenCancelled: false))
    if opened == nil { opened = FileIdentity(path: path) }
    try connection.enableWriteAheadLog()
    try connection.ensureSchema(Self.schema, version: Self.schemaVersion)
    self.connection = connection
    return connection
  }
}

extension ServiceError {
  /// The server is away or could not answer: what was kept may stand in.
  package var isServerAway: Bool {
    switch self {
    case .network, .timedOut: true
    case .server(let status): status >= 500
    default: false
    }
  }

  /// How a notice that shows what was kept begins: what happened to the server (a server that
  /// took the connection and said nothing is not one that cannot be reached).
  package var awayNotice: String {
    switch self {
    case .timedOut: "The server did not answer"
    case .server: "The server had a problem"
    default: "Can't reach the server"
    }
  }
}
