import CImageCodecs
import MyworkoutCore

/// The format and full size an image file declares, read without decoding it.
package struct ImageHeader: Hashable, Sendable {
  package enum Format: Hashable, Sendable {
    case png, jpeg
  }

  package let format: Format
  package let size: PixelSize

  package init(format: Format, size: PixelSize) {
    self.format = format
    self.size = size
  }
}

/// Decodes PNG and JPEG files to RGBA through libpng and libjpeg-turbo (the `CImageCodecs`
/// wrapper). Bad input of any kind gives an `ImageError`, never a crash; images over
/// `maxPixels` are refused from their header, before any pixel is decoded.
package enum ImageDecoder {
  /// 40 megapixels: the largest image decoded (an 8000x5000 photo; 160 MB as RGBA).
  package static let maxPixels = 40_000_000
  /// Larger files are not read at all.
  package static let maxFileBytes = 64 << 20

  /// Decodes an image file. See `decode(bytes:fittingAtLeast:maxPixels:)`.
  package static func decode(
    path: String, fittingAtLeast box: PixelSize? = nil, maxPixels: Int = maxPixels
  ) throws(ImageError) -> DecodedImage {
    try decode(
      bytes: FileBytes.read(path, limit: maxFileBytes), fittingAtLeast: box, maxPixels: maxPixels)
  }

  /// Decodes PNG or JPEG bytes to RGBA.
  ///
  /// - Parameter box: the size the picture will be fitted into (aspect kept). A JPEG is then
  ///   decoded at 1/2, 1/4 or 1/8 scale when that still covers `box` on at least one axis, so
  ///   that fitting it never enlarges it; `nil` decodes at full size. A PNG is always full size.
  package static func decode(
    bytes: [UInt8], fittingAtLeast box: PixelSize? = nil, maxPixels: Int = maxPixels
  ) throws(ImageError) -> DecodedImage {
    try withDecoded(bytes: bytes, fittingAtLeast: box, maxPixels: maxPixels) { pixels in
      DecodedImage(
        width: pixels.width, height: pixels.height, pixels: Array(pixels.bytes),
        sourceSize: pixels.sourceSize)
    }
  }

  /// Decodes and lends the library's pixel buffer to `body` (freed after it), sparing a copy
  /// of a large image when only a scaled version is wanted.
  static func withDecoded<T>(
    bytes: [UInt8], fittingAtLeast box: PixelSize?, maxPixels: Int = maxPixels,
    _ body: (RGBAPixels) -> T
  ) throws(ImageError) -> T {
    var image = mwi_image()
    var message = [CChar](repeating: 0, count: Int(MWI_MESSAGE_SIZE))
    let status = bytes.withUnsafeBufferPointer { buffer in
      mwi_decode(
        buffer.baseAddress, buffer.count, dimension(box?.width), dimension(box?.height),
        UInt64(max(0, maxPixels)), &image, &message)
    }
    defer { mwi_image_free(&image) }
    if status == MWI_TOO_LARGE {
      throw .tooLarge(width: Int(image.source_width), height: Int(image.source_height))
    }
    try check(status, message)
    let width = Int(image.width)
    let height = Int(image.height)
    return body(
      RGBAPixels(
        width: width, height: height,
        bytes: UnsafeBufferPointer(start: image.pixels, count: width * height * 4),
        sourceSize: PixelSize(width: Int(image.source_width), height: Int(image.source_height))))
  }

  /// Reads only the header: the format and the declared size.
  package static func header(bytes: [UInt8]) throws(ImageError) -> ImageHeader {
    var header = mwi_header()
    var message = [CChar](repeating: 0, count: Int(MWI_MESSAGE_SIZE))
    let status = bytes.withUnsafeBufferPointer { buffer in
      mwi_read_header(buffer.baseAddress, buffer.count, &header, &message)
    }
    try check(status, message)
    let size = PixelSize(width: Int(header.width), height: Int(header.height))
    return ImageHeader(format: header.format == MWI_FORMAT_PNG ? .png : .jpeg, size: size)
  }

  private static func dimension(_ value: Int?) -> UInt32 {
    UInt32(clamping: max(0, value ?? 0))
  }

  private static func check(_ status: mwi_status, _ message: [CChar]) throws(ImageError) {
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch status {
    case MWI_OK: return
    case MWI_EMPTY: throw .empty
    case MWI_NOT_IMAGE: throw .notAnImage
    case MWI_TRUNCATED: throw .truncated(text)
    case MWI_UNSUPPORTED: throw .unsupported(text)
    case MWI_NO_MEMORY: throw .outOfMemory(text)
    default: throw .damaged(text)
    }
  }
}
