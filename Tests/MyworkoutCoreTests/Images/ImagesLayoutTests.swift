import Testing

@testable import MyworkoutCore

@Suite struct ImagesLayoutTests {
  @Test func at80x24TwoRowsOfTwoTilesFit() {
    let layout = ImagesLayout(terminal: TerminalSize(width: 80, height: 24))
    // 22 rows of content: the heading and a blank row, then 2 rows of 8 + caption + blank.
    #expect(layout.contentHeight == 22)
    #expect(layout.top == 2)
    #expect(layout.tile == TileSize(columns: 38, rows: 8))
    #expect(layout.rowHeight == 10)
    #expect(layout.visibleRows == 2)
    #expect(layout.column(ofColumn: 0) == 1)
    #expect(layout.column(ofColumn: 1) == 41)
    #expect(layout.row(ofImage: 3, firstRow: 0) == 12)
    #expect(layout.row(ofImage: 3, firstRow: 1) == 2)
    #expect(layout.large == TileSize(columns: 78, rows: 20))
  }

  @Test func at40x12OneRowOfTilesTallerThanTwoThinOnes() {
    let layout = ImagesLayout(terminal: TerminalSize(width: 40, height: 12))
    #expect(layout.top == 1)
    #expect(layout.tile == TileSize(columns: 18, rows: 7))
    #expect(layout.visibleRows == 1)
    #expect(layout.showsPictures)
  }

  @Test func aTallTerminalKeepsTheTilesAt4By3AndShowsMoreRows() {
    let layout = ImagesLayout(terminal: TerminalSize(width: 80, height: 60))
    #expect(layout.tile == TileSize(columns: 38, rows: 14))
    #expect(layout.visibleRows == 3)
  }

  @Test func aTinyTerminalDecodesNothing() {
    let layout = ImagesLayout(terminal: TerminalSize(width: 6, height: 3))
    #expect(!layout.showsPictures)
    #expect(layout.visibleRows == 1)
  }

  @Test func theTerminalsColoursChooseThePictures() {
    #expect(Display.colors(count: 256, noColor: false) == .xterm256)
    // no-color.org: present and not empty (as an empty MYWORKOUT_DATA_DIR counts as unset).
    #expect(Display.noColor(in: ["NO_COLOR": "1"]))
    #expect(Display.noColor(in: ["NO_COLOR": "0"]))
    #expect(!Display.noColor(in: ["NO_COLOR": ""]))
    #expect(!Display.noColor(in: [:]))
    #expect(Display.colors(count: 16, noColor: false) == .basic8)
    #expect(Display.colors(count: 8, noColor: false) == .basic8)
    #expect(Display.colors(count: 0, noColor: false) == .shades)
    #expect(Display.colors(count: 256, noColor: true) == .shades)
  }
}
