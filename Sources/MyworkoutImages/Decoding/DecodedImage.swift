import MyworkoutCore

/// A picture decoded to 8-bit RGBA with straight (not premultiplied) alpha, row after row:
/// what the decoders produce and the scaler reads.
package struct DecodedImage: Equatable, Sendable {
  package let width: Int
  package let height: Int
  /// `width * height * 4` bytes: R, G, B, A for each pixel.
  package let pixels: [UInt8]
  /// The size the file declares. A JPEG decoded at reduced scale is larger here than
  /// `width` x `height`; a PNG is always decoded at full size.
  package let sourceSize: PixelSize

  /// - Precondition: `pixels.count == width * height * 4` (a programming error otherwise).
  package init(width: Int, height: Int, pixels: [UInt8], sourceSize: PixelSize? = nil) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4)
    self.width = width
    self.height = height
    self.pixels = pixels
    self.sourceSize = sourceSize ?? PixelSize(width: width, height: height)
  }

  package var size: PixelSize { PixelSize(width: width, height: height) }

  /// The pixel at a position as (r, g, b, a).
  package func rgba(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
    let offset = (y * width + x) * 4
    return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
  }
}

/// RGBA pixels borrowed for the length of a call (a decoded image's or the decoder's buffer).
struct RGBAPixels {
  let width: Int
  let height: Int
  let bytes: UnsafeBufferPointer<UInt8>
  let sourceSize: PixelSize

  var size: PixelSize { PixelSize(width: width, height: height) }
}

extension DecodedImage {
  func withPixels<T>(_ body: (RGBAPixels) -> T) -> T {
    pixels.withUnsafeBufferPointer { buffer in
      body(RGBAPixels(width: width, height: height, bytes: buffer, sourceSize: sourceSize))
    }
  }
}
