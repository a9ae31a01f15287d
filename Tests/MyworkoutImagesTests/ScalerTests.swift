import MyworkoutCore
import MyworkoutImages
import MyworkoutView
import Testing

/// Area averaging: exact means of known pictures, alpha over the background, aspect kept.
@Suite struct ScalerTests {
  let twoByTwo = image(
    width: 2, height: 2,
    [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)])

  @Test func twoByTwoToOnePixelIsTheMean() {
    // (255+0+0+255)/4 = 127.5 → 128 for red and green; (0+0+255+255)/4 → 128 for blue.
    #expect(AreaScaler.scale(twoByTwo, to: PixelSize(width: 1, height: 1)) == [RGB(128, 128, 128)])
  }

  @Test func twoByTwoToOneColumnAveragesEachRow() {
    #expect(
      AreaScaler.scale(twoByTwo, to: PixelSize(width: 1, height: 2))
        == [RGB(128, 128, 0), RGB(128, 128, 255)])
  }

  @Test func twoByTwoToOneRowAveragesEachColumn() {
    #expect(
      AreaScaler.scale(twoByTwo, to: PixelSize(width: 2, height: 1))
        == [RGB(128, 0, 128), RGB(128, 255, 128)])
  }

  @Test func theSameSizeIsUnchanged() {
    #expect(
      AreaScaler.scale(twoByTwo, to: PixelSize(width: 2, height: 2))
        == [RGB(255, 0, 0), RGB(0, 255, 0), RGB(0, 0, 255), RGB(255, 255, 255)])
  }

  @Test func partlyCoveredPixelsCountByTheirShare() {
    // Three pixels 0, 90, 180 into two: the first output covers 0 and half of 90
    // (0·1 + 90·0.5)/1.5 = 30; the second covers the other half of 90 and 180: 150.
    let row = image(width: 3, height: 1, [(0, 0, 0, 255), (90, 90, 90, 255), (180, 180, 180, 255)])
    #expect(
      AreaScaler.scale(row, to: PixelSize(width: 2, height: 1)) == [
        RGB(30, 30, 30), RGB(150, 150, 150),
      ])
  }

  @Test func enlargingRepeatsPixels() {
    let row = image(width: 2, height: 1, [(10, 20, 30, 255), (200, 100, 0, 255)])
    #expect(
      AreaScaler.scale(row, to: PixelSize(width: 4, height: 1))
        == [RGB(10, 20, 30), RGB(10, 20, 30), RGB(200, 100, 0), RGB(200, 100, 0)])
  }

  @Test func alphaIsCompositedOverTheBackground() {
    let pixels = image(width: 2, height: 1, [(255, 255, 255, 0), (200, 100, 50, 128)])
    #expect(
      AreaScaler.scale(pixels, to: PixelSize(width: 2, height: 1))
        == [RGB(0, 0, 0), RGB(100, 50, 25)])
    #expect(
      AreaScaler.scale(pixels, to: PixelSize(width: 2, height: 1), over: RGB(0, 0, 255))
        == [RGB(0, 0, 255), RGB(100, 50, 152)])
  }

  @Test func transparentPixelsDoNotBleedTheirColour() {
    // A fully transparent pixel counts as background whatever colour it stores.
    let pixels = image(width: 2, height: 1, [(255, 0, 0, 0), (0, 0, 0, 255)])
    #expect(AreaScaler.scale(pixels, to: PixelSize(width: 1, height: 1)) == [RGB(0, 0, 0)])
  }

  @Test func aLargeFlatImageStaysFlat() {
    let flat = image(width: 97, height: 61, Array(repeating: (12, 200, 77, 255), count: 97 * 61))
    let scaled = AreaScaler.scale(flat, to: PixelSize(width: 13, height: 7))
    #expect(scaled.count == 13 * 7)
    #expect(scaled.allSatisfy { $0 == RGB(12, 200, 77) })
  }
}

/// Fitting an image into a tile of cells, two square pixels per cell.
@Suite struct TileFitTests {
  @Test(arguments: [
    // A 16:9 picture in 38x9 cells (38x18 pixels): height-bound, 32x18.
    (
      PixelSize(width: 1200, height: 675), TileSize(columns: 38, rows: 9),
      PixelSize(width: 32, height: 18)
    ),
    // A square in 40x10 cells (40x20 pixels): 20x20.
    (
      PixelSize(width: 180, height: 180), TileSize(columns: 40, rows: 10),
      PixelSize(width: 20, height: 20)
    ),
    // Very wide: width-bound, height rounded to whole cells, at least one.
    (
      PixelSize(width: 1000, height: 10), TileSize(columns: 20, rows: 5),
      PixelSize(width: 20, height: 2)
    ),
    // Very tall: at least one column.
    (
      PixelSize(width: 1, height: 1000), TileSize(columns: 20, rows: 5),
      PixelSize(width: 1, height: 10)
    ),
    // Small images are enlarged to fill the tile.
    (PixelSize(width: 4, height: 2), TileSize(columns: 8, rows: 8), PixelSize(width: 8, height: 4)),
  ])
  func fitted(image: PixelSize, tile: TileSize, expected: PixelSize) {
    let size = tile.fitted(image)
    #expect(size == expected)
    #expect(size.height % 2 == 0)
  }

  @Test func anEmptyTileHoldsNothing() {
    #expect(TileSize(columns: 0, rows: 5).fitted(PixelSize(width: 10, height: 10)).width == 0)
    #expect(TileSize(columns: -3, rows: 5).columns == 0)
  }
}
