/// The bad rows of one import, reported in one notice (SPEC §11):
/// `Skipped 3 rows of classes-bad.csv: lines 3, 5, 6`, at most 10 line numbers, then
/// `and N more`.
struct SkippedRows: Equatable, Sendable {
  static let linesShown = 10

  /// The file's name (its last path component).
  let fileName: String
  private(set) var count = 0
  /// The first `linesShown` lines skipped, in file order.
  private(set) var lines: [Int] = []

  init(path: String) {
    fileName = PathParts.split(path).name
  }

  mutating func add(line: Int) {
    count += 1
    if lines.count < Self.linesShown { lines.append(line) }
  }

  /// The notice, or nil when nothing was skipped. One row reads `Skipped 1 row of x.csv: line 3`.
  var notice: String? {
    guard count > 0 else { return nil }
    let rows = count == 1 ? "1 row" : "\(count) rows"
    let numbers = lines.map(String.init).joined(separator: ", ")
    let more = count > lines.count ? " and \(count - lines.count) more" : ""
    return "Skipped \(rows) of \(fileName): \(count == 1 ? "line" : "lines") \(numbers)\(more)"
  }
}
