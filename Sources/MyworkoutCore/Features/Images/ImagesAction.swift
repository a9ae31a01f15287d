/// What happens on Images.
package enum ImagesAction: Equatable, Sendable {
  /// A move of the selection in the grid.
  package enum Move: Equatable, Sendable {
    /// ←/→: to the other column of the same row.
    case left, right
    /// ↑/↓: a row.
    case up, down
    /// PgUp/PgDn: a screenful of rows.
    case pageUp, pageDown
    /// Home/End.
    case first, last
  }

  case moved(Move)
  /// A click on a tile (its image's index): selects it and shows it large.
  case tileClicked(Int)
  /// Enter: the selected image, large.
  case enterPressed
  /// Esc or Backspace (and ← on the large image): back to the grid, then to Profile.
  case backPressed
  /// The image service answered the list.
  case listLoaded(Result<[ImageInfo], ImageServiceError>)
  /// A picture was decoded for a tile; nil when the image cannot be shown.
  case pictureLoaded(TileKey, HalfBlockPicture?)

  /// An answer (as opposed to a key), delivered wherever the screen is.
  var isAnswer: Bool {
    switch self {
    case .listLoaded, .pictureLoaded: true
    default: false
    }
  }
}

extension ImagesAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    !isAnswer
  }
}
