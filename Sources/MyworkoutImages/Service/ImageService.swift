import MyworkoutCore

/// A source of images: the embedded folder, any folder, or (later) the server.
package protocol ImageService: Sendable {
  /// The images to show, in order. Pays the service's latency; cancellable (throws
  /// `CancellationError`); otherwise fails with `ImageServiceError`.
  func listImages() async throws -> [ImageInfo]

  /// One image's bytes; fails with `ImageError` (the tile then shows `Can't show this image`).
  func bytes(of image: ImageInfo) async throws -> [UInt8]
}
