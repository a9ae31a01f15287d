import MyworkoutCore
import MyworkoutView

extension HalfBlockPicture {
  /// Scales `image` to the largest size that fits `tile` with its aspect kept (area averaging,
  /// transparency over `background`), then turns each pair of pixel rows into a row of cells.
  package init(
    image: DecodedImage, tile: TileSize, colors: PictureColors, background: RGB = .black
  ) {
    self = image.withPixels { Self(pixels: $0, tile: tile, colors: colors, background: background) }
  }

  init(pixels image: RGBAPixels, tile: TileSize, colors: PictureColors, background: RGB) {
    let size = tile.fitted(image.size)
    guard size.width > 0 else {
      self.init(columns: 0, rows: 0, cells: [])
      return
    }
    let pixels = AreaScaler.scale(image, to: size, over: background)
    let rows = size.height / 2
    var cells: [Cell] = []
    cells.reserveCapacity(size.width * rows)
    var quantizer = ColorQuantizer(colors)
    for row in 0..<rows {
      for column in 0..<size.width {
        let upper = pixels[row * 2 * size.width + column]
        let lower = pixels[(row * 2 + 1) * size.width + column]
        if colors == .shades {
          cells.append(.shade(Self.shade(upper, lower)))
        } else {
          cells.append(
            .colors(upper: quantizer.index(for: upper), lower: quantizer.index(for: lower)))
        }
      }
    }
    self.init(columns: size.width, rows: rows, cells: cells)
  }

  /// Decodes image bytes (a JPEG at reduced scale where that is enough) and makes the picture
  /// for a tile: the whole pipeline for one tile, synchronous; run it off the main thread.
  package static func decoding(bytes: [UInt8], tile: TileSize, colors: PictureColors)
    throws(ImageError) -> HalfBlockPicture
  {
    try ImageDecoder.withDecoded(bytes: bytes, fittingAtLeast: tile.pixelBox) { pixels in
      HalfBlockPicture(pixels: pixels, tile: tile, colors: colors, background: .black)
    }
  }

  /// The shade level (0–4) for the mean perceived lightness (OKLab L) of two pixels: five
  /// equal steps of lightness.
  static func shade(_ upper: RGB, _ lower: RGB) -> UInt8 {
    let lightness = (OKLab(upper).l + OKLab(lower).l) / 2
    return UInt8(max(0, min(4, Int(lightness * 5))))
  }
}
