@testable import MyworkoutCore

extension AppState {
  /// The Images screen on the signed-in path, for stating expectations: `$0.images.selected`.
  var images: ImagesState {
    get {
      guard let route = signedIn.path.last, case .images(let images) = route else {
        fatalError("no Images on top")
      }
      return images
    }
    set { signedIn.path[signedIn.path.count - 1] = .images(newValue) }
  }
}

enum ImageSample {
  /// `count` images named `image-0.png`, `image-1.png`, ...
  static func list(_ count: Int) -> [ImageInfo] {
    (0..<count).map { index in
      ImageInfo(
        id: "image-\(index).png", caption: "image-\(index)",
        location: .file("/images/image-\(index).png"))
    }
  }

  /// A 2 x 1 picture, standing for any decoded tile.
  static let picture = HalfBlockPicture(
    columns: 2, rows: 1, cells: [.colors(upper: 16, lower: 231), .colors(upper: 196, lower: 21)])

  static let display = Display(size: TerminalSize(width: 80, height: 24), colors: .xterm256)
  static var layout: ImagesLayout { ImagesLayout(terminal: display.size) }

  /// The grid's tile key of an image.
  static func key(_ index: Int, tile: TileSize = layout.tile) -> TileKey {
    TileKey(imageID: "image-\(index).png", tile: tile)
  }

  /// The request for an image's tile.
  static func run(_ index: Int, tile: TileSize = layout.tile, colors: PictureColors = .xterm256)
    -> Effect
  {
    .run(
      .picture(key(index, tile: tile)),
      .picture(list(index + 1)[index], tile: tile, colors: colors))
  }

  static func cancel(_ index: Int, tile: TileSize = layout.tile) -> Effect {
    .cancel(.picture(key(index, tile: tile)))
  }
}
