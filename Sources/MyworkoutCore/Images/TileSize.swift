/// A size in pixels.
package struct PixelSize: Hashable, Sendable {
  package var width: Int
  package var height: Int

  package init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// A rectangle of terminal cells to draw a picture in. A cell is about twice as tall as it is
/// wide, and shows two pixels stacked (`▀`): a tile of C x R cells holds C x 2R square pixels.
package struct TileSize: Hashable, Sendable {
  package var columns: Int
  package var rows: Int

  package init(columns: Int, rows: Int) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
  }

  /// The tile in (square) pixels.
  package var pixelBox: PixelSize { PixelSize(width: columns, height: rows * 2) }

  /// The largest pixel size with the image's aspect that fits in the tile, at least 1 pixel
  /// wide and 2 high (one cell), its height even so that it fills whole cells.
  /// A zero-sized tile gives 0 x 0.
  package func fitted(_ image: PixelSize) -> PixelSize {
    guard columns > 0, rows > 0 else { return PixelSize(width: 0, height: 0) }
    guard image.width > 0, image.height > 0 else { return PixelSize(width: 1, height: 2) }
    let box = pixelBox
    let scale = min(
      Double(box.width) / Double(image.width), Double(box.height) / Double(image.height))
    let width = Int((Double(image.width) * scale).rounded())
    let height = 2 * Int((Double(image.height) * scale / 2).rounded())
    return PixelSize(width: min(box.width, max(1, width)), height: min(box.height, max(2, height)))
  }
}
