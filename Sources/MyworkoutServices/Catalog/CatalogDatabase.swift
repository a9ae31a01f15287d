import CSQLite
import MyworkoutCore

/// `catalog.sqlite`: the classes of one classes file in file order, a folded search text per
/// class with an FTS5 trigram index over it, and a meta table saying which version of which
/// file it holds. Not thread-safe, like its connection: `CatalogStore` owns it.
///
/// The index keeps only which rows hold each trigram (`detail = 'none'`, no column sizes,
/// since nothing is ranked): half the size and build time of one with positions. A term then finds the rows holding all its trigrams, and
/// `instr` keeps those where the term itself occurs.
final class CatalogDatabase {
  static let schemaVersion = 1

  static let schema = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE classes(
      position INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      title TEXT NOT NULL,
      instructor TEXT NOT NULL,
      level TEXT NOT NULL,
      song TEXT NOT NULL,
      video_url TEXT NOT NULL,
      thumbnail_slug TEXT NOT NULL,
      duration INTEGER NOT NULL,
      search TEXT NOT NULL);
    CREATE VIRTUAL TABLE classes_fts USING fts5(
      search, content = 'classes', content_rowid = 'position', tokenize = 'trigram',
      detail = 'none', columnsize = 0);
    CREATE UNIQUE INDEX classes_id ON classes(id);
    """

  /// The columns `danceClass(_:)` reads, in its order.
  static let classColumns =
    "id, title, instructor, level, song, video_url, thumbnail_slug, duration"

  let connection: SQLiteDatabase

  /// Opens (creating if new) the catalog at `path`. Throws an error whose `isDamage` is true
  /// when the file is not a catalog, and `NewerSchemaError` when a newer version made it
  /// (`CatalogStore` makes it again for this version: it is only a copy of its CSV).
  init(path: String) throws {
    connection = try SQLiteDatabase(path: path)
    try connection.refuseNewerSchema(than: Self.schemaVersion)
    // A cache: losing the last transactions to a power cut only means importing again.
    try connection.enableWriteAheadLog()
    try connection.execute("PRAGMA synchronous = NORMAL")
    try connection.ensureSchema(Self.schema, version: Self.schemaVersion)
  }

  /// Opens the catalog at `path` for reading only (the server's read connections): nothing is
  /// created or changed; WAL lets it read beside the connection that imports. A catalog of
  /// another version is not read here (its tables may mean something else).
  init(readingFrom path: String) throws {
    connection = try SQLiteDatabase(path: path, options: .init(readOnly: true))
    let found = try connection.userVersion()
    guard found == Self.schemaVersion else {
      throw SQLiteError(
        code: SQLITE_NOTADB, message: "schema version \(found), expected \(Self.schemaVersion)",
        context: "Cannot read \(path)")
    }
  }

  // MARK: Meta

  func meta(_ key: String) throws(SQLiteError) -> String? {
    try connection.statement("SELECT value FROM meta WHERE key = ?").firstRow([.text(key)]) {
      $0.text(0)
    }
  }

  func setMeta(_ key: String, _ value: String) throws(SQLiteError) {
    try connection.statement("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
      .run([.text(key), .text(value)])
  }

  /// The version of the classes file imported last, or nil before the first import (or when
  /// it was imported under other rules: `CatalogColumns.rules`).
  func source() throws(SQLiteError) -> SourceFingerprint? {
    guard try meta("source.rules") == CatalogColumns.rules,
      let path = try meta("source.path"),
      let size = try meta("source.size").flatMap(Int64.init),
      let modified = try meta("source.modified").flatMap(Int64.init),
      let sha256 = try meta("source.sha256")
    else { return nil }
    return SourceFingerprint(path: path, size: size, modified: modified, sha256: sha256)
  }

  func setSource(_ source: SourceFingerprint) throws(SQLiteError) {
    try setMeta("source.path", source.path)
    try setMeta("source.size", String(source.size))
    try setMeta("source.modified", String(source.modified))
    try setMeta("source.sha256", source.sha256)
    try setMeta("source.rules", CatalogColumns.rules)
  }

  /// How many classes the catalog holds.
  func total() throws(SQLiteError) -> Int {
    try meta("total").flatMap(Int.init) ?? 0
  }

  /// The notice about the last import's bad rows, if it skipped any.
  func skippedNotice() throws(SQLiteError) -> String? {
    try meta("skipped").flatMap { $0.isEmpty ? nil : $0 }
  }

  // MARK: Classes

  /// The class with `id`, or nil.
  func danceClass(id: String) throws(SQLiteError) -> DanceClass? {
    try connection.statement("SELECT \(Self.classColumns) FROM classes WHERE id = ?")
      .firstRow([.text(id)], Self.danceClass)
  }

  /// Reads a row of `classColumns`; a level that is not one of ours is damage.
  static func danceClass(_ row: SQLiteStatement) throws(SQLiteError) -> DanceClass {
    guard let level = ClassLevel(rawValue: row.text(3)), row.int(7) > 0 else {
      throw SQLiteError(code: SQLITE_CORRUPT, message: "a class row is damaged")
    }
    return DanceClass(
      id: row.text(0), title: row.text(1), instructor: row.text(2), level: level,
      song: row.text(4), videoURL: row.text(5), thumbnailSlug: row.text(6),
      duration: row.int(7))
  }
}
