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
  return text + styleText(grid)
}

/// The frame's styles, one letter a cell (issue 28: a styling regression must not pass the
/// snapshots), with a legend of the letters used.
func styleText(_ grid: Grid) -> String {
  var used: [Character: String] = [:]
  var text = "styles:\n"
  for row in 0..<grid.height {
    var line = "|"
    for column in 0..<grid.width {
      let (letter, name) = styleCode(grid[row, column].style)
      if letter != " " { used[letter] = name }
      line.append(letter)
    }
    text += line + "|\n"
  }
  let legend = used.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
  return text + "legend: " + (legend.isEmpty ? "(all normal)" : legend.joined(separator: ", "))
    + "\n"
}

/// A letter for each style (colour indices of pictures and coloured code are left to their
/// own tests; their kind is kept here).
private func styleCode(_ style: Style) -> (Character, String) {
  switch style {
  case .normal: (" ", "normal")
  case .heading: ("H", "heading")
  case .label: ("L", "label")
  case .hint: ("h", "hint")
  case .field: ("f", "field")
  case .valid: ("v", "valid")
  case .invalid: ("x", "invalid")
  case .button: ("B", "button")
  case .buttonDisabled: ("b", "button, disabled")
  case .error: ("E", "error")
  case .success: ("S", "success")
  case .notice: ("N", "notice")
  case .footer: ("F", "footer")
  case .spinner: ("*", "spinner")
  case .border: ("#", "border")
  case .match: ("M", "match")
  case .header: ("T", "header")
  case .avatar: ("A", "avatar colour")
  case .pixels: ("p", "picture")
  case .colored: ("c", "coloured code")
  case .blank: ("_", "typed blank")
  }
}

private func widthOf(_ line: String) -> Int { DisplayWidth.of(line) }
