import MyworkoutCore

/// Why an image cannot be shown. Every case shows the same words in its tile
/// (`ImageError.tileMessage`); `description` keeps the reason for logs and tests.
package enum ImageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file has no bytes.
  case empty
  /// The bytes are neither a PNG nor a JPEG.
  case notAnImage
  /// The decoder refused the data; the library's reason.
  case damaged(String)
  /// The data ends before the image does.
  case truncated(String)
  /// The header claims more pixels than allowed; nothing was decoded.
  case tooLarge(width: Int, height: Int)
  /// A valid image of a kind the decoder does not convert.
  case unsupported(String)
  /// The pixels would not fit in memory.
  case outOfMemory(String)
  /// The file could not be read (missing, a folder, no permission, over the size limit).
  case unreadable(String)

  /// What a tile shows for any of these.
  package static let tileMessage = TilePicture.failedText

  package var description: String {
    switch self {
    case .empty: "the file is empty"
    case .notAnImage: "not a PNG or JPEG file"
    case .damaged(let reason): "damaged: \(reason)"
    case .truncated(let reason): "truncated: \(reason)"
    case .tooLarge(let width, let height):
      "\(width)x\(height) is over the limit of \(ImageDecoder.maxPixels / 1_000_000) megapixels"
    case .unsupported(let reason): "unsupported: \(reason)"
    case .outOfMemory(let reason): "out of memory: \(reason)"
    case .unreadable(let reason): "cannot read: \(reason)"
    }
  }
}
