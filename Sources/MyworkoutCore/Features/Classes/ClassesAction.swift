/// What happens on Classes.
package enum ClassesAction: Equatable, Sendable {
  /// An edit of the search field (typing, deleting, moving the cursor).
  case searchEdited(TextEdit)
  case searchPasted(String)
  /// The pause after the last key ended (a timer while a query waits).
  case searchPauseEnded
  /// Up/Down (±1), PgUp/PgDn (± a page), in the list; Up from the first row returns to the field.
  case selectionMoved(by: Int)
  /// Home/End on the list.
  case selectionMovedToEnd(last: Bool)
  /// A click on a row (its index in the list).
  case rowClicked(Int)
  case enterPressed
  case escapePressed
  /// Tab/Shift-Tab: between the field and the list.
  case focusToggled
  /// The catalog answered a page for a query, at an offset.
  case pageLoaded(query: String, offset: Int, Result<CatalogPage, CatalogError>)
  /// Signed out: keys in the `Log in to watch` modal.
  case modal(LoginAction)
  /// A thumbnail was decoded for the preview; nil when there is none to show.
  case thumbnailLoaded(slug: String, HalfBlockPicture?)
  /// Signed in: the watched % of the listed classes the person opened, by class id (nil when
  /// the progress could not be read; the column stays as it was).
  case watchedLoaded([String: Int]?)

  /// An answer from the catalog (as opposed to a key), delivered even when the screen is not on
  /// top.
  var isAnswer: Bool {
    switch self {
    case .pageLoaded, .thumbnailLoaded, .watchedLoaded: true
    default: false
    }
  }
}

extension ClassesAction {
  /// Whether the person did this (a key, a click, a paste), as opposed to an answer or a timer.
  package var isInput: Bool {
    switch self {
    case .searchPauseEnded: false
    case .modal(let action): action.isInput
    default: !isAnswer
    }
  }
}
