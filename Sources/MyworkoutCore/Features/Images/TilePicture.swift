/// One picture the Images screen or a class preview wants: an image at a tile size. Decoding
/// runs under an effect id made from it, so each tile (and each size of it) can be cancelled
/// on its own.
package struct TileKey: Hashable, Sendable {
  package var imageID: String
  package var tile: TileSize

  package init(imageID: String, tile: TileSize) {
    self.imageID = imageID
    self.tile = tile
  }
}

/// Where a picture stands: asked for (a decode runs; the tile reads `Loading…`), ready to draw,
/// or failed (the tile reads `Can't show this image`).
package enum TilePicture: Equatable, Sendable {
  case loading
  case ready(HalfBlockPicture)
  case failed

  /// What a tile shows for a picture that is not ready.
  package static let loadingText = "Loading…"
  package static let failedText = "Can't show this image"

  package var picture: HalfBlockPicture? {
    if case .ready(let picture) = self { return picture }
    return nil
  }
}
