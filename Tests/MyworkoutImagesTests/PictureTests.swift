import MyworkoutCore
import MyworkoutImages
import MyworkoutView
import Testing

/// Pictures in cells: two pixels per cell, the colour kinds, shading, and drawing into a Grid.
@Suite struct PictureTests {
  /// 2 columns x 4 rows of pixels: red over blue, then white over black (x2 columns).
  let stripes = image(
    width: 2, height: 4,
    [
      (255, 0, 0, 255), (255, 0, 0, 255), (0, 0, 255, 255), (0, 0, 255, 255),
      (255, 255, 255, 255), (255, 255, 255, 255), (0, 0, 0, 255), (0, 0, 0, 255),
    ])

  @Test func eachCellHoldsTheUpperAndLowerPixel() {
    let picture = HalfBlockPicture(
      image: stripes, tile: TileSize(columns: 2, rows: 2), colors: .xterm256)
    #expect(picture.columns == 2 && picture.rows == 2)
    #expect(picture[0, 0] == .colors(upper: 196, lower: 21))
    #expect(picture[1, 1] == .colors(upper: 231, lower: 16))
  }

  @Test func eightColourPicturesUseTheBasics() {
    let picture = HalfBlockPicture(
      image: stripes, tile: TileSize(columns: 2, rows: 2), colors: .basic8)
    #expect(
      picture.cells == Array(repeating: .colors(upper: 1, lower: 4), count: 2)
        + Array(repeating: .colors(upper: 7, lower: 0), count: 2))
  }

  @Test func shadesFollowTheMeanLightness() {
    let picture = HalfBlockPicture(
      image: stripes, tile: TileSize(columns: 2, rows: 2), colors: .shades)
    // Red (L 0.63) with blue (L 0.45): mean 0.54 → level 2 (▒); white (1) with black (0): 0.5 → 2.
    #expect(picture.cells.allSatisfy { $0 == .shade(2) })
    let levels = [(0, 0), (30, 30), (110, 110), (160, 160), (220, 220), (255, 255), (255, 0)].map {
      (upper, lower) in
      let cell = image(
        width: 1, height: 2,
        [
          (UInt8(upper), UInt8(upper), UInt8(upper), 255),
          (UInt8(lower), UInt8(lower), UInt8(lower), 255),
        ])
      return HalfBlockPicture(image: cell, tile: TileSize(columns: 1, rows: 1), colors: .shades)
        .cells
    }
    #expect(
      levels == [
        [.shade(0)], [.shade(1)], [.shade(2)], [.shade(3)], [.shade(4)], [.shade(4)], [.shade(2)],
      ])
  }

  @Test(.enabled(if: steezyPresent, steezyMissing)) func aPictureFitsItsTileWithItsAspect() throws {
    let decoded = try ImageDecoder.decode(path: steezyDirectory + "/class-thumbnail-2.jpg")
    let picture = HalfBlockPicture(
      image: decoded, tile: TileSize(columns: 38, rows: 9), colors: .xterm256)
    #expect(picture.columns == 32 && picture.rows == 9)
  }

  @Test func theWholePipelineMakesATile() throws {
    let bytes = fileBytes(assetsDirectory + "/leaf-alpha.png")
    let picture = try HalfBlockPicture.decoding(
      bytes: bytes, tile: TileSize(columns: 20, rows: 5), colors: .xterm256)
    #expect(picture.columns == 10 && picture.rows == 5)
    // The transparent corner is black (16) over black; the reference patch, green at alpha 64
    // over black, averaged with the transparent pixels around it, is a dark green.
    #expect(picture[4, 0] == .colors(upper: 16, lower: 16))
    guard case .colors(let upper, _) = picture[0, 0] else {
      Issue.record("not a colour cell")
      return
    }
    #expect(XtermPalette.rgb(upper).g > 0 && XtermPalette.rgb(upper).r == 0)
  }

  @Test func drawingPutsHalfBlocksInPictureStyles() {
    let picture = HalfBlockPicture(
      image: stripes, tile: TileSize(columns: 2, rows: 2), colors: .xterm256)
    var grid = Grid(width: 5, height: 3)
    grid.draw(picture, row: 1, column: 2)
    #expect(grid.lines == ["", "  ▀▀", "  ▀▀"])
    #expect(grid[1, 2].style == .pixels(foreground: 196, background: 21))
    #expect(grid[2, 3].style == .pixels(foreground: 231, background: 16))
    #expect(grid[0, 2].style == .normal)
  }

  @Test func aCellOfOneColourIsASpaceInThatColour() {
    let flat = image(width: 1, height: 2, [(0, 0, 255, 255), (0, 0, 255, 255)])
    let picture = HalfBlockPicture(
      image: flat, tile: TileSize(columns: 1, rows: 1), colors: .xterm256)
    var grid = Grid(width: 1, height: 1)
    grid.draw(picture, row: 0, column: 0)
    #expect(grid[0, 0] == Cell(" ", style: .pixels(foreground: 21, background: 21)))
  }

  @Test func drawingIsClippedAtTheEdges() {
    let picture = HalfBlockPicture(
      image: stripes, tile: TileSize(columns: 2, rows: 2), colors: .xterm256)
    var grid = Grid(width: 2, height: 2)
    grid.draw(picture, row: -1, column: 1)
    #expect(grid.lines == [" ▀", ""])
    #expect(grid[0, 1].style == .pixels(foreground: 231, background: 16))
  }

  @Test func shadesAreDrawnAsCharacters() {
    let picture = HalfBlockPicture(columns: 5, rows: 1, cells: (0...4).map { .shade($0) })
    var grid = Grid(width: 5, height: 1)
    grid.draw(picture, row: 0, column: 0)
    #expect(grid.lines == [" ░▒▓█"])
    #expect(grid.cells.allSatisfy { $0.style == .normal })
  }
}

/// A picture far wider than high (or higher than wide) still shows, as one row (or column) of
/// cells in its colour. (A walk-through took a 10000x1 red PNG's tile for empty: its cells are
/// spaces on red, which a text capture of the screen shows as blanks.)
@Suite struct ExtremeAspectTests {
  @Test(arguments: [(10_000, 1, 44, 11), (1, 10_000, 44, 11), (3_000, 2, 80, 20), (1, 1, 1, 1)])
  func aThinPictureIsAtLeastOneCellAcross(
    width: Int, height: Int, columns: Int, rows: Int
  ) throws {
    let red = image(
      width: width, height: height, Array(repeating: (255, 0, 0, 255), count: width * height))
    let picture = HalfBlockPicture(
      image: red, tile: TileSize(columns: columns, rows: rows), colors: .xterm256)
    #expect(picture.columns >= 1 && picture.rows >= 1, "\(picture.columns)x\(picture.rows)")
    #expect(
      picture.cells.allSatisfy { $0 == .colors(upper: 196, lower: 196) }, "\(picture.cells)")
  }
}
