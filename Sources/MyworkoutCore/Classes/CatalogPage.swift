/// One page of the catalog for a query (SPEC §11): the classes in file order, how many match
/// (counted only up to a cap, so that a broad query stays fast), and the catalog's size.
package struct CatalogPage: Sendable, Hashable {
  /// Matches are counted up to this many; beyond it the count line says `1,000+`.
  package static let countCap = 1_000

  /// The query as asked.
  package var query: String
  /// Where `classes` start among all matches.
  package var offset: Int
  package var classes: [DanceClass]
  /// How many classes match; `countCap` when more do (`isCapped`).
  package var matching: Int
  /// More than `countCap` classes match.
  package var isCapped: Bool
  /// How many classes the catalog holds.
  package var total: Int

  package init(
    query: String, offset: Int, classes: [DanceClass], matching: Int, isCapped: Bool, total: Int
  ) {
    self.query = query
    self.offset = offset
    self.classes = classes
    self.matching = matching
    self.isCapped = isCapped
    self.total = total
  }

  /// The count line above the list, e.g. `3 of 351 classes match "anne"`.
  package var countLine: String {
    CatalogCountLine.text(query: query, matching: matching, isCapped: isCapped, total: total)
  }

  /// The count line in its two parts (see `CatalogCountLine.parts`).
  package var countLineParts: (lead: String, quoted: String?) {
    CatalogCountLine.parts(query: query, matching: matching, isCapped: isCapped, total: total)
  }

  /// Whether matches may follow this page: when the count is capped, the number of matches is
  /// not known, so only a short page tells the end.
  package var hasMore: Bool { offset + classes.count < (isCapped ? Int.max : matching) }
}

/// The count line of the Classes screen, exactly as SPEC §11 writes it.
package enum CatalogCountLine {
  /// `351 classes` for an empty query; `3 of 351 classes match "anne"`;
  /// `No classes match "xyz"`; `1,000+ of 100,000 classes match "dan"` beyond the cap. One
  /// class is `1 class`, one match `1 of 351 classes matches "x"`, no class at all `No classes`.
  package static func text(query: String, matching: Int, isCapped: Bool, total: Int) -> String {
    let (lead, quoted) = parts(query: query, matching: matching, isCapped: isCapped, total: total)
    return quoted.map { "\(lead)\"\($0)\"" } ?? lead
  }

  /// The line as the words before the query and the query that goes between quotes (nil when
  /// the line names no query), so that a narrow screen can shorten the query and keep the quotes.
  package static func parts(query: String, matching: Int, isCapped: Bool, total: Int)
    -> (lead: String, quoted: String?)
  {
    let shown = query.trimmingWhitespace()
    let classes = total == 1 ? "1 class" : "\(grouped(total)) classes"
    guard !SearchText.terms(of: query).isEmpty else {
      return (total == 0 ? "No classes" : classes, nil)
    }
    guard matching > 0 else { return ("No classes match ", shown) }
    let count = isCapped ? "\(grouped(matching))+" : grouped(matching)
    let verb = matching == 1 && !isCapped ? "matches" : "match"
    return ("\(count) of \(classes) \(verb) ", shown)
  }

  /// `100000` as `100,000`.
  package static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return number < 0 ? "-" + result : result
  }
}
