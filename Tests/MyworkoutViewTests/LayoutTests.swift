import Testing

@testable import MyworkoutView

@Suite struct RectTests {
  let screen = Rect(width: 80, height: 24)

  @Test func rowsGiveFixedPartsTheirSizeAndTheRestToFill() {
    let parts = screen.rows([.fill(), .fixed(2), .fixed(1)])
    #expect(
      parts == [
        Rect(x: 0, y: 0, width: 80, height: 21), Rect(x: 0, y: 21, width: 80, height: 2),
        Rect(x: 0, y: 23, width: 80, height: 1),
      ])
  }

  @Test func columnsShareByWeightWithGapsAndAddUp() {
    let parts = screen.columns([.fill(), .fill()], gap: 1)
    #expect(parts.map(\.width) == [40, 39])
    #expect(parts[1].x == 41)
    let weighted = Rect(width: 10, height: 1).columns([.fill(2), .fill(1)])
    #expect(weighted.map(\.width) == [7, 3])
  }

  @Test func tooSmallWholesGiveFixedPartsWhatIsLeftInOrder() {
    let parts = Rect(width: 10, height: 3).rows([.fixed(2), .fixed(2), .fill()])
    #expect(parts.map(\.height) == [2, 1, 0])
    #expect(Rect(width: 0, height: 0).rows([.fill()]) == [Rect(width: 0, height: 0)])
  }

  @Test func insetShrinksAndNeverGoesNegative() {
    #expect(
      screen.inset(top: 1, left: 2, bottom: 3, right: 4) == Rect(x: 2, y: 1, width: 74, height: 20))
    #expect(Rect(width: 2, height: 2).inset(left: 5).width == 0)
  }

  @Test func drawingIsClippedToTheRect() {
    var grid = Grid(width: 10, height: 3)
    let box = Rect(x: 2, y: 1, width: 4, height: 1)
    grid.put("abcdefgh", row: 0, column: 0, in: box, style: .normal)
    grid.put("zz", row: 1, column: 0, in: box, style: .normal)
    #expect(grid.lines == ["", "  abcd", ""])
    grid.fill(Rect(x: 0, y: 2, width: 3, height: 1), style: .footer)
    #expect(grid[2, 0].style == .footer)
    #expect(grid[2, 3].style == .normal)
  }
}

@Suite struct GridDiffTests {
  func grid(_ lines: [String], width: Int = 6) -> Grid {
    var grid = Grid(width: width, height: lines.count)
    for (row, line) in lines.enumerated() { grid.put(line, row: row, column: 0, style: .normal) }
    return grid
  }

  @Test func theFirstFrameOrANewSizeIsDrawnWhole() {
    let next = grid(["ab", "cd"])
    #expect(GridDiff.needsClear(from: nil, to: next))
    #expect(GridDiff.changes(from: nil, to: next).count == 12)
    #expect(GridDiff.needsClear(from: grid(["ab"]), to: next))
  }

  @Test func typingOneCharacterSendsOneCell() {
    let changes = GridDiff.changes(from: grid(["ab", ""]), to: grid(["abc", ""]))
    #expect(changes == [GridDiff.Change(row: 0, column: 2, cell: Cell("c"))])
    #expect(GridDiff.changes(from: grid(["ab"]), to: grid(["ab"])).isEmpty)
  }

  @Test func aWideCharacterIsResentWhenItsRightHalfChangesAndHalvesAreNeverSent() {
    let before = grid(["中x"])
    let after = grid(["中y"])
    #expect(
      GridDiff.changes(from: before, to: after) == [
        GridDiff.Change(row: 0, column: 2, cell: Cell("y"))
      ])
    // A wide character replacing two narrow ones: sent once, at its first cell.
    let wide = GridDiff.changes(from: grid(["ab"]), to: grid(["中"]))
    #expect(wide == [GridDiff.Change(row: 0, column: 0, cell: Cell("中"))])
    // Two narrow ones replacing a wide character: both sent.
    let narrow = GridDiff.changes(from: grid(["中"]), to: grid(["ab"]))
    #expect(narrow.map(\.column) == [0, 1])
  }

  @Test func aStyleChangeAloneIsSent() {
    var next = grid(["ab"])
    next.put("a", row: 0, column: 0, style: .error)
    #expect(GridDiff.changes(from: grid(["ab"]), to: next).map(\.column) == [0])
  }
}
