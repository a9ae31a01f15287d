import Testing

@testable import MyworkoutCore
@testable import MyworkoutView

/// Drawing where nothing of it lands (past an edge of the grid or of its clip, at any size down
/// to none) draws nothing and never stops the app: a range whose ends cross traps in Swift, and a
/// class's pattern in a narrow area did (a walk-through's follow-up looked for the others).
@Suite struct GridEdgeTests {
  static let picture = HalfBlockPicture(
    columns: 3, rows: 2, cells: Array(repeating: .colors(upper: 1, lower: 4), count: 6))

  @Test func fillingPastTheEdgesDrawsNothing() {
    var grid = Grid(width: 10, height: 4)
    let blank = grid
    for (row, column, count) in [(0, 12, 3), (0, 10, 1), (1, -5, 2), (2, 3, -4), (5, 0, 3)] {
      grid.fill(row: row, from: column, count: count, style: .button)
    }
    #expect(grid == blank)
    grid.fill(Rect(x: 20, y: 1, width: 3, height: 2), style: .button)
    #expect(grid == blank)
  }

  @Test func aPictureOutsideTheGridOrItsClipDrawsNothing() {
    for (row, column) in [(0, 12), (6, 0), (-5, 0), (0, -9), (3, 9)] {
      var grid = Grid(width: 10, height: 4)
      grid.draw(Self.picture, row: row, column: column)
      grid.draw(Self.picture, row: 0, column: 0, clip: Rect(x: 12, y: 0, width: 2, height: 2))
      grid.draw(Self.picture, row: 0, column: 0, clip: Rect(x: 0, y: 5, width: 2, height: 2))
      let drawn = grid.text.filter { $0 != " " && $0 != "\n" }.count
      #expect(drawn <= 1, "at \(row),\(column): only what lands inside")
    }
  }
}
