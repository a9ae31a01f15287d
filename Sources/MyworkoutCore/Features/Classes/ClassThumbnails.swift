/// The selected class's thumbnail in the Classes preview (SPEC §14): the image named by its
/// `thumbnailSlug` next to the catalog file, decoded by the same pipeline as the Images screen.
/// Each slug is asked for once, when a class using it is first selected; a missing or
/// unreadable file simply shows no thumbnail.
enum ClassThumbnails {
  /// The picture area: the preview's width, 7 rows (a 16:9 thumbnail is 25 x 7 cells).
  static let tile = TileSize(columns: 34, rows: 7)

  /// Asks for the selected class's thumbnail if it was never asked for.
  static func request(_ state: inout ClassesState) -> [Effect] {
    guard let slug = state.selectedClass?.thumbnailSlug, !slug.isEmpty,
      state.thumbnails[slug] == nil
    else { return [] }
    state.thumbnails[slug] = .loading
    return [.run(.thumbnail(slug: slug), .thumbnail(slug: slug, tile: tile, colors: state.colors))]
  }

  static func loaded(_ state: inout ClassesState, slug: String, _ picture: HalfBlockPicture?) {
    guard state.thumbnails[slug] == .loading else { return }
    state.thumbnails[slug] = picture.map(TilePicture.ready) ?? .failed
  }
}

extension ClassesState {
  /// The selected class's thumbnail, when it is ready.
  package var selectedThumbnail: HalfBlockPicture? {
    guard let slug = selectedClass?.thumbnailSlug else { return nil }
    return thumbnails[slug]?.picture
  }

  package static var thumbnailTile: TileSize { ClassThumbnails.tile }
}
