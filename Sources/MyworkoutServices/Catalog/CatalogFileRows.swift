import MyworkoutCore

/// A classes file read whole, with the same rules as `CatalogImport` (header by name, bad and
/// repeated rows skipped with one notice), for a store other than `catalog.sqlite` (the
/// server's PostgreSQL catalog). Nothing here is used by the embedded app.
package struct CatalogFileRows: Sendable {
  /// Lowercase hex SHA-256 of the file's bytes.
  package var sha256: String
  /// The good rows in file order, each with its folded search text (`SearchText.searchable`).
  package var classes: [(danceClass: DanceClass, search: String)]
  /// `Skipped N rows of FILE: lines …`, or nil.
  package var skippedNotice: String?

  /// The SHA-256 of the file at `path` (read in chunks), to tell whether it changed.
  package static func sha256(path: String) throws -> String {
    try SourceFile.read(path).sha256
  }

  /// What a store keeps to tell whether to import a file again: its SHA-256 and the import's
  /// rules (`CatalogColumns.rules`), so rows imported under older rules are imported again.
  package static func stamp(sha256: String) -> String {
    sha256 + "+rules" + CatalogColumns.rules
  }

  /// Reads the classes file at `path`. Throws a `FileError` when it cannot be read or is not a
  /// classes file (empty, or without a required column).
  package static func read(path: String) throws -> CatalogFileRows {
    var columns: CatalogColumns?
    var skipped = SkippedRows(path: path)
    var reader = CSVReader()
    var ids: Set<String> = []
    var classes: [(danceClass: DanceClass, search: String)] = []
    func take(_ record: CSVRecord) throws {
      guard let known = columns else {
        columns = try CatalogColumns(header: record.fields, path: path)
        return
      }
      if record.isBlank { return }
      guard let row = known.danceClass(record), ids.insert(row.id).inserted else {
        return skipped.add(line: record.line)
      }
      let search = SearchText.searchable(
        title: row.title, instructor: row.instructor, level: row.level, song: row.song)
      classes.append((row, search))
    }
    let source = try SourceFile.read(path) { chunk in try reader.read(chunk, take) }
    try reader.finish(take)
    guard columns != nil else {
      throw FileError(message: "\(skipped.fileName) is empty", isDamage: true)
    }
    return CatalogFileRows(sha256: source.sha256, classes: classes, skippedNotice: skipped.notice)
  }
}
