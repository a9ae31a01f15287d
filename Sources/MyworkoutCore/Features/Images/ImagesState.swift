/// Images (`Images`, SPEC §14): a grid of 2 columns of pictures with their captions, opened
/// from Profile; Enter shows the selected one as large as the terminal allows.
///
/// The decoded pictures are kept here, as data (`TilePicture`), for the grid's tile size and
/// for the one image shown large; the runtime's `ImageCache` keeps them per size besides, so a
/// tile seen before comes back at once. A picture is a few bytes a cell (DECISIONS.md).
package struct ImagesState: Equatable, Sendable {
  /// Where the screen stands with the image list.
  package enum Load: Equatable, Sendable {
    /// The first fetch: `Loading images…`.
    case loading
    case loaded
    /// The list could not be had; the message says why.
    case failed(String)
  }

  package static let loadingText = "Loading images…"
  package static let emptyText = "No PNG or JPEG images here."

  package var load: Load = .loading
  package var images: [ImageInfo] = []
  /// The selected image (an index into `images`).
  package var selected = 0
  /// The row of tiles at the top of the view.
  package var firstRow = 0
  /// The selected image is shown large instead of the grid.
  package var isOpen = false
  package var layout: ImagesLayout
  package var colors: PictureColors
  /// Pictures asked for and made: the grid's tiles at `layout.tile`, and the large one.
  package var pictures: [TileKey: TilePicture] = [:]

  package init(display: Display) {
    layout = ImagesLayout(terminal: display.size)
    colors = display.colors
  }

  package var selectedImage: ImageInfo? {
    images.indices.contains(selected) ? images[selected] : nil
  }

  /// How many rows of tiles the grid has.
  package var rowCount: Int { (images.count + 1) / 2 }

  /// The images whose tiles are in view, in order.
  package var visible: Range<Int> {
    let start = min(images.count, firstRow * 2)
    return start..<min(images.count, start + layout.visibleRows * 2)
  }

  /// The picture a tile of the grid shows, if it was asked for.
  package func tile(_ index: Int) -> TilePicture? {
    guard images.indices.contains(index) else { return nil }
    return pictures[TileKey(imageID: images[index].id, tile: layout.tile)]
  }

  /// The picture of the image shown large, if it was asked for.
  package var largePicture: TilePicture? {
    guard let image = selectedImage else { return nil }
    return pictures[TileKey(imageID: image.id, tile: layout.large)]
  }

  /// The pictures this view needs now: the visible tiles, or the image shown large.
  var wanted: [TileKey] {
    guard load == .loaded else { return [] }
    if isOpen {
      guard let image = selectedImage, layout.large.columns >= 2, layout.large.rows >= 1
      else { return [] }
      return [TileKey(imageID: image.id, tile: layout.large)]
    }
    guard layout.showsPictures else { return [] }
    return visible.map { TileKey(imageID: images[$0].id, tile: layout.tile) }
  }

  /// The requests running for this screen: the list, and each picture being decoded.
  var running: Set<EffectID> {
    var ids: Set<EffectID> = load == .loading ? [.imageList] : []
    for (key, picture) in pictures where picture == .loading { ids.insert(.picture(key)) }
    return ids
  }
}
