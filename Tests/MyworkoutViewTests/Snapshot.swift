import Foundation
import MyworkoutView
import Testing

/// Compares a frame with a recorded text file in `__Snapshots__`. Set `RECORD_SNAPSHOTS=1` to
/// write the files anew on purpose; a recording run fails, so it is never mistaken for a pass.
func assertSnapshot(
  _ grid: Grid, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")
  let file = directory.appendingPathComponent("\(name).txt")
  let actual = frameText(grid)
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try? actual.write(to: file, atomically: true, encoding: .utf8)
    Issue.record(
      "Recorded snapshot \(name); run again without RECORD_SNAPSHOTS.",
      sourceLocation: sourceLocation)
    return
  }
  guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
    Issue.record(
      "No snapshot \(name).txt; run with RECORD_SNAPSHOTS=1 to record it.",
      sourceLocation: sourceLocation)
    return
  }
  #expect(actual == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}

/// The frame framed by a ruler so trailing spaces and the size are visible in the file.
func frameText(_ grid: Grid) -> String {
  let rule = "+" + String(repeating: "-", count: grid.width) + "+"
  var text = rule + "\n"
  for line in grid.lines {
    let pad = String(repeating: " ", count: max(0, grid.width - widthOf(line)))
    text += "|" + line + pad + "|\n"
  }
  text += rule + "\n"
  if let cursor = grid.cursor { text += "cursor: row \(cursor.row), column \(cursor.column)\n" }
  return text
}

private func widthOf(_ line: String) -> Int { DisplayWidth.of(line) }
