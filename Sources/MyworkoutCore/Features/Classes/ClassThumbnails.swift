/// The selected class's thumbnail in the Classes preview (SPEC §14): the image named by its
/// `thumbnailSlug` next to the catalog file, decoded by the same pipeline as the Images screen.
/// Each slug is asked for once, when a class using it is first selected; a missing or
/// unreadable file simply shows no thumbnail. One still on its way when the selection moves on
/// is no longer wanted: its request is cancelled (a decode not yet started never starts; one
/// under way finishes into the cache), and it is asked for again when its class is selected
/// again. Scrolling past many classes whose thumbnails are large files then decodes none of
/// them, where it decoded them all, one after another, ahead of everything else.
enum ClassThumbnails {
  /// The picture area: the preview's width, 7 rows (a 16:9 thumbnail is 25 x 7 cells).
  static let tile = TileSize(columns: 34, rows: 7)

  /// Cancels the thumbnails still loading that the selected class does not show, and asks for
  /// the selected class's thumbnail if it is not there or on its way.
  static func request(_ state: inout ClassesState) -> [Effect] {
    let wanted = state.selectedClass?.thumbnailSlug
    var effects: [Effect] = []
    for (slug, thumbnail) in state.thumbnails.sorted(by: { $0.key < $1.key })
    where thumbnail == .loading && slug != wanted {
      state.thumbnails[slug] = nil
      effects.append(.cancel(.thumbnail(slug: slug)))
    }
    guard let slug = wanted, !slug.isEmpty, state.thumbnails[slug] == nil else { return effects }
    state.thumbnails[slug] = .loading
    return effects + [
      .run(.thumbnail(slug: slug), .thumbnail(slug: slug, tile: tile, colors: state.colors))
    ]
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
