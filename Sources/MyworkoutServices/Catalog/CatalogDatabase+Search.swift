import MyworkoutCore

extension CatalogDatabase {
  /// A page of the classes matching every term (folded by `SearchText.terms`), in file order,
  /// and how many match, counted up to `CatalogPage.countCap` and one more.
  ///
  /// Terms of three or more characters narrow the rows through the trigram index (the rows
  /// holding every trigram of every such term); every term is then checked with `instr`, which
  /// for a query of only short terms (too short for a trigram) means a scan of the table.
  func search(terms: [String], offset: Int, limit: Int) throws(SQLiteError)
    -> (classes: [DanceClass], matching: Int, isCapped: Bool)
  {
    let filter = Self.filter(terms)
    let columns = Self.classColumns.split(separator: ", ").map { "c.\($0)" }.joined(
      separator: ", ")
    let page = try connection.statement(
      "SELECT \(columns) \(filter.from) ORDER BY \(filter.order) LIMIT ? OFFSET ?"
    ).rows(filter.values + [.int(limit), .int(offset)], Self.danceClass)
    guard !terms.isEmpty else { return (page, try total(), false) }
    let counted =
      try connection.statement(
        "SELECT count(*) FROM (SELECT 1 \(filter.from) LIMIT ?)"
      ).firstRow(filter.values + [.int(CatalogPage.countCap + 1)]) { $0.int(0) } ?? 0
    return (page, min(counted, CatalogPage.countCap), counted > CatalogPage.countCap)
  }

  /// The FROM and WHERE clauses selecting the rows (as `c`) that match every term, and the
  /// order of file positions that needs no sort.
  private static func filter(_ terms: [String]) -> (
    from: String, order: String, values: [SQLiteValue]
  ) {
    let trigrams = Set(terms.flatMap(trigrams)).sorted()
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    var from = "FROM classes c"
    var order = "c.position"
    if !trigrams.isEmpty {
      // FTS5 hands out rowids in ascending order when asked to: no sort, and LIMIT stops early.
      from = "FROM classes_fts f JOIN classes c ON c.position = f.rowid"
      order = "f.rowid"
      conditions.append("classes_fts MATCH ?")
      values.append(.text(trigrams.map(phrase).joined(separator: " AND ")))
    }
    for term in terms {
      conditions.append("instr(c.search, ?) > 0")
      values.append(.text(term))
    }
    guard !conditions.isEmpty else { return (from, order, values) }
    return (from + " WHERE " + conditions.joined(separator: " AND "), order, values)
  }

  /// The trigrams of `term` (none when it is shorter than three characters), as the trigram
  /// tokenizer cuts them: every run of three Unicode scalars.
  private static func trigrams(_ term: String) -> [String] {
    let scalars = Array(term.unicodeScalars)
    guard scalars.count >= 3 else { return [] }
    return (0...(scalars.count - 3)).map { start in
      String(String.UnicodeScalarView(scalars[start..<start + 3]))
    }
  }

  /// `text` as an FTS5 phrase: in double quotes, its own quotes doubled, so that no character
  /// of the query is read as FTS5 syntax.
  private static func phrase(_ text: String) -> String {
    "\"" + text.replacing("\"", with: "\"\"") + "\""
  }
}
