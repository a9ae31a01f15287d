import MyworkoutCore

extension CatalogDatabase {
  /// A page of the classes matching every term (folded by `SearchText.terms`), in file order,
  /// and how many match, counted up to `CatalogPage.countCap` and one more.
  ///
  /// Terms of three or more characters are looked up in the trigram index; shorter ones (which
  /// a trigram index cannot look up) are checked with `instr` on the rows, which for a query of
  /// only short terms means a scan of the table.
  func search(terms: [String], offset: Int, limit: Int) throws(SQLiteError)
    -> (classes: [DanceClass], matching: Int, isCapped: Bool)
  {
    let filter = Self.filter(terms)
    let columns = Self.classColumns.split(separator: ", ").map { "c.\($0)" }.joined(
      separator: ", ")
    let page = try connection.statement(
      "SELECT \(columns) \(filter.from) ORDER BY c.position LIMIT ? OFFSET ?"
    ).rows(filter.values + [.int(limit), .int(offset)], Self.danceClass)
    guard !terms.isEmpty else { return (page, try total(), false) }
    let counted =
      try connection.statement(
        "SELECT count(*) FROM (SELECT 1 \(filter.from) LIMIT ?)"
      ).firstRow(filter.values + [.int(CatalogPage.countCap + 1)]) { $0.int(0) } ?? 0
    return (page, min(counted, CatalogPage.countCap), counted > CatalogPage.countCap)
  }

  /// The FROM and WHERE clauses selecting the rows (as `c`) that match every term.
  private static func filter(_ terms: [String]) -> (from: String, values: [SQLiteValue]) {
    let long = terms.filter { $0.unicodeScalars.count >= 3 }
    let short = terms.filter { $0.unicodeScalars.count < 3 }
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    var from = "FROM classes c"
    if !long.isEmpty {
      // FTS5 returns rowids in ascending order, so ORDER BY c.position needs no sort.
      from = "FROM classes_fts f JOIN classes c ON c.position = f.rowid"
      conditions.append("classes_fts MATCH ?")
      values.append(.text(long.map(phrase).joined(separator: " AND ")))
    }
    for term in short {
      conditions.append("instr(c.search, ?) > 0")
      values.append(.text(term))
    }
    guard !conditions.isEmpty else { return (from, values) }
    return (from + " WHERE " + conditions.joined(separator: " AND "), values)
  }

  /// `term` as an FTS5 phrase: in double quotes, its own quotes doubled, so that no character
  /// of the query is read as FTS5 syntax.
  private static func phrase(_ term: String) -> String {
    "\"" + term.replacing("\"", with: "\"\"") + "\""
  }
}
