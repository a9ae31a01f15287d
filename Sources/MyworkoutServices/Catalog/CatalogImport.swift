import MyworkoutCore

/// Imports a classes file into a catalog database in one transaction: every good row in file
/// order, bad rows skipped and counted, the file's fingerprint and the notice kept in the meta
/// table. Nothing changes unless the whole import succeeds.
enum CatalogImport {
  /// What an import did.
  struct Outcome: Equatable {
    var source: SourceFingerprint
    var imported: Int
    var skipped: SkippedRows
  }

  /// Replaces the catalog's classes with those of the file at `path`, unless (checked once the
  /// write lock is held) the catalog already holds `expected`, the version of the file just
  /// hashed: then another process imported it meanwhile and this returns nil.
  ///
  /// Throws a `FileError` when the file cannot be read or is not a classes file (empty, or
  /// without a required column), an `SQLiteError` when the database fails (cancelling the task
  /// interrupts it).
  static func run(
    path: String, into database: CatalogDatabase, unlessAlready expected: SourceFingerprint? = nil
  ) throws -> Outcome? {
    let connection = database.connection
    // Room for the whole import's pages, so that SQLite does not spill them to the log early.
    try connection.execute("PRAGMA cache_size = -65536")
    defer { try? connection.execute("PRAGMA cache_size = -2000") }
    return try connection.transaction(.immediate) { () throws -> Outcome? in
      if let expected, try database.source() == expected { return nil }
      // Emptied, filled, then indexed: building the id index once from sorted keys is much
      // faster than keeping it up to date through 100,000 inserts in random order.
      try connection.execute(
        """
        DROP INDEX classes_id; DELETE FROM classes;
        INSERT INTO classes_fts(classes_fts) VALUES ('delete-all')
        """)
      let insert = try connection.statement(
        """
        INSERT INTO classes(
          id, title, instructor, level, song, video_url, thumbnail_slug, duration, search)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      var columns: CatalogColumns?
      var skipped = SkippedRows(path: path)
      var imported = 0
      var reader = CSVReader()
      var ids: Set<String> = []
      func take(_ record: CSVRecord) throws {
        guard let known = columns else {
          columns = try CatalogColumns(header: record.fields, path: path)
          return
        }
        if record.isBlank { return }
        // A row already seen: the same title, instructor, level and song came earlier.
        guard let row = known.danceClass(record), ids.insert(row.id).inserted else {
          return skipped.add(line: record.line)
        }
        try insert.run(values(row))
        imported += 1
      }
      let source = try SourceFile.read(path) { chunk in try reader.read(chunk, take) }
      try reader.finish(take)
      guard columns != nil else {
        throw FileError(message: "\(skipped.fileName) is empty", isDamage: true)
      }
      try connection.execute(
        """
        CREATE UNIQUE INDEX classes_id ON classes(id);
        INSERT INTO classes_fts(classes_fts) VALUES ('rebuild')
        """)
      try database.setSource(source)
      try database.setMeta("total", String(imported))
      try database.setMeta("skipped", skipped.notice ?? "")
      return Outcome(source: source, imported: imported, skipped: skipped)
    }
  }

  private static func values(_ row: DanceClass) -> [SQLiteValue] {
    let search = SearchText.searchable(
      title: row.title, instructor: row.instructor, level: row.level, song: row.song)
    return [
      .text(row.id), .text(row.title), .text(row.instructor), .text(row.level.rawValue),
      .text(row.song), .text(row.videoURL), .text(row.thumbnailSlug), .int(row.duration),
      .text(search),
    ]
  }
}
