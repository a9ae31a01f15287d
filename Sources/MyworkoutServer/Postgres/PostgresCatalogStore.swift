import Logging
import MyworkoutCore
import MyworkoutServices
import PostgresNIO

/// The catalog in the `classes` table, with SQLite's search semantics: every query term (folded
/// by `SearchText`, like the stored `search` column) must occur in the search text, as a
/// substring. `search LIKE '%term%'` is carried by the trigram GIN index for terms of three
/// characters or more; rows come in file order (`position`).
package struct PostgresCatalogStore: CatalogStoring {
  let database: PostgresDatabase

  /// The advisory lock an import takes (apart from the migrations' one).
  static let importLock: Int64 = 0x6D79_776F_726B_6F76

  package func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    let terms = SearchText.terms(of: query)
    let offset = max(0, offset)
    let limit = min(max(0, limit), CatalogStore.maximumLimit)
    let (filter, bindings) = Self.filter(terms)
    // One round trip: the page's rows each carry the catalog's total and, with terms, the
    // matches counted up to the cap and one more (both computed once, as init plans). Only an
    // empty page needs a second query for them.
    var totalsBindings = bindings
    var next = bindings.count + 1
    var matching = "(SELECT 0::bigint)"
    if !terms.isEmpty {
      totalsBindings.append(Int64(CatalogPage.countCap + 1))
      matching = "(SELECT count(*) FROM (SELECT 1 FROM classes \(filter) LIMIT $\(next)) AS m)"
      next += 1
    }
    let totals = """
      (SELECT coalesce((SELECT value::bigint FROM meta WHERE key = 'catalog.total'), 0)),
      \(matching)
      """
    var pageBindings = totalsBindings
    pageBindings.append(Int64(limit))
    pageBindings.append(Int64(offset))
    let pageSQL = """
      SELECT id, title, instructor, level, song, video_url, thumbnail_slug, duration, \(totals)
      FROM classes \(filter) ORDER BY position LIMIT $\(next) OFFSET $\(next + 1)
      """
    let pageQuery = PostgresQuery(unsafeSQL: pageSQL, binds: pageBindings)
    let totalsQuery = PostgresQuery(unsafeSQL: "SELECT \(totals)", binds: totalsBindings)
    return try await database.call("read the classes") { client in
      var classes: [DanceClass] = []
      var counts: (total: Int64, counted: Int64)?
      for try await row in try await client.query(pageQuery).decode(
        (String, String, String, String, String, String, String, Int64, Int64, Int64).self
      ) {
        guard let level = ClassLevel(rawValue: row.3) else {
          throw StoreError(failed: "Could not read the classes: a class row is damaged.")
        }
        classes.append(
          DanceClass(
            id: row.0, title: row.1, instructor: row.2, level: level, song: row.4,
            videoURL: row.5, thumbnailSlug: row.6, duration: Int(row.7)))
        counts = (row.8, row.9)
      }
      if counts == nil {
        for try await row in try await client.query(totalsQuery).decode((Int64, Int64).self) {
          counts = row
        }
      }
      let total = Int(counts?.total ?? 0)
      let counted = terms.isEmpty ? total : Int(counts?.counted ?? 0)
      return CatalogPage(
        query: query, offset: offset, classes: classes,
        matching: min(counted, CatalogPage.countCap),
        isCapped: !terms.isEmpty && counted > CatalogPage.countCap, total: total)
    }
  }

  package func danceClass(id: String) async throws -> DanceClass? {
    try await database.call("read the class") { client in
      for try await row in try await client.query(
        """
        SELECT id, title, instructor, level, song, video_url, thumbnail_slug, duration
        FROM classes WHERE id = \(id)
        """
      ).decode((String, String, String, String, String, String, String, Int64).self) {
        guard let level = ClassLevel(rawValue: row.3) else {
          throw StoreError(failed: "Could not read the class: its row is damaged.")
        }
        return DanceClass(
          id: row.0, title: row.1, instructor: row.2, level: level, song: row.4,
          videoURL: row.5, thumbnailSlug: row.6, duration: Int(row.7))
      }
      return nil
    }
  }

  /// The SHA-256 of the imported file, as the import wrote it in `meta`.
  package func version() async throws -> String {
    try await database.call("read the catalog's version") { client in
      for try await value in try await client.query(
        "SELECT value FROM meta WHERE key = 'catalog.sha256'"
      ).decode(String.self) {
        return value
      }
      return ""
    }
  }

  /// `WHERE search LIKE $1 AND …` with each term's `%`, `_` and `\` escaped.
  static func filter(_ terms: [String]) -> (String, PostgresBindings) {
    var bindings = PostgresBindings()
    guard !terms.isEmpty else { return ("", bindings) }
    var conditions: [String] = []
    for (index, term) in terms.enumerated() {
      var escaped = ""
      for character in term {
        if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
        escaped.append(character)
      }
      bindings.append("%" + escaped + "%")
      conditions.append("search LIKE $\(index + 1)")
    }
    return ("WHERE " + conditions.joined(separator: " AND "), bindings)
  }

  // MARK: Import

  /// Imports the classes file unless the database already holds this version of it (by
  /// SHA-256). One transaction under an advisory lock: instances starting at once import it
  /// once; readers see the old catalog or the new one, never a mix. A file that cannot be used
  /// gives way to the shipped one, as in the embedded store.
  static func importIfChanged(
    file: String, shipped: String, on connection: PostgresConnection, logger: Logger
  ) async throws {
    var path = file
    var sha256: String
    do {
      sha256 = try CatalogFileRows.sha256(path: file)
    } catch let error as FileError where file != shipped {
      sayNotice("\(error.message); serving the shipped classes instead")
      path = shipped
      sha256 = try CatalogFileRows.sha256(path: shipped)
    }
    if try await storedSHA(on: connection, logger: logger)
      == CatalogFileRows.stamp(sha256: sha256)
    {
      return
    }
    var rows: CatalogFileRows
    do {
      rows = try CatalogFileRows.read(path: path)
    } catch let error as FileError where path != shipped {
      sayNotice("\(error.message); serving the shipped classes instead")
      rows = try CatalogFileRows.read(path: shipped)
    }
    if let notice = rows.skippedNotice { sayNotice(notice) }
    try await connection.withTransaction(logger: logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(\(importLock))", logger: logger)
      let stamp = CatalogFileRows.stamp(sha256: rows.sha256)
      if try await storedSHA(on: connection, logger: logger) == stamp { return }
      try await connection.query("DELETE FROM classes", logger: logger)
      let batch = 5_000
      var start = 0
      while start < rows.classes.count {
        let slice = rows.classes[start..<min(start + batch, rows.classes.count)]
        let positions = slice.indices.map { Int64($0 + 1) }
        let classes = slice.map(\.danceClass)
        try await connection.query(
          """
          INSERT INTO classes (
            position, id, title, instructor, level, song, video_url, thumbnail_slug, duration,
            search)
          SELECT * FROM unnest(
            \(positions)::bigint[], \(classes.map(\.id))::text[], \(classes.map(\.title))::text[],
            \(classes.map(\.instructor))::text[], \(classes.map(\.level.rawValue))::text[],
            \(classes.map(\.song))::text[], \(classes.map(\.videoURL))::text[],
            \(classes.map(\.thumbnailSlug))::text[], \(classes.map { Int64($0.duration) })::bigint[],
            \(slice.map(\.search))::text[])
          """, logger: logger)
        start += batch
      }
      let total = String(rows.classes.count)
      try await connection.query(
        """
        INSERT INTO meta (key, value) VALUES ('catalog.sha256', \(stamp)),
          ('catalog.total', \(total))
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
        """, logger: logger)
    }
  }

  private static func storedSHA(on connection: PostgresConnection, logger: Logger) async throws
    -> String?
  {
    for try await value in try await connection.query(
      "SELECT value FROM meta WHERE key = 'catalog.sha256'", logger: logger
    ).decode(String.self) {
      return value
    }
    return nil
  }
}
