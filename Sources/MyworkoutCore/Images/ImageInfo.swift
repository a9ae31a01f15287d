/// Where an image's bytes are.
package enum ImageLocation: Hashable, Sendable {
  /// A file on this machine (the embedded images, `--images-dir`).
  case file(String)
  /// A remote image (the server's list, SPEC §15).
  case url(String)
}

/// One image in a list: what a tile needs to caption it and to fetch its bytes.
package struct ImageInfo: Hashable, Sendable, Identifiable {
  /// Stable within its service (the file name; the server's id).
  package let id: String
  /// Shown under the tile: the file name without its extension, or the author.
  package let caption: String
  package let location: ImageLocation
  /// The full size, when the service knows it without decoding.
  package let size: PixelSize?

  package init(id: String, caption: String, location: ImageLocation, size: PixelSize? = nil) {
    self.id = id
    self.caption = caption
    self.location = location
    self.size = size
  }
}
