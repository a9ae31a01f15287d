/// Classes (`Classes`, SPEC §11): a search field over the catalog's list. Reached from Profile
/// when signed in and from Get started's `Browse classes` when signed out; a route keeps this
/// state, so the search and the selection are as they were when the person comes back.
package struct ClassesState: Equatable, Sendable {
  package enum Focus: Equatable, Sendable {
    case search
    case list
  }

  /// Where the list stands with the catalog.
  package enum Load: Equatable, Sendable {
    /// The first fetch: `Loading classes…`.
    case loading
    /// A search runs; the previous results stay until its answer arrives.
    case searching
    case loaded
    /// The catalog could not answer; the message says why.
    case failed(String)
  }

  /// How many classes a page holds.
  package static let pageSize = 50
  /// How many classes a page holds on the way to the last one after End (the stores' most).
  package static let endPageSize = 500
  /// Columns from which a preview of the selected class stands beside the list.
  package static let previewMinimumWidth = 100

  package var search = TextInput(limit: FieldLimit.search)
  package var focus: Focus = .search
  package var load: Load = .loading
  /// The results shown: the pages loaded so far for `results.query`, appended in order.
  package var results: CatalogPage?
  /// The selected row of the list (an index into `results.classes`).
  package var selected = 0
  /// The query waiting for the pause after the last key to end.
  package var pendingQuery: String?
  /// Enter was pressed in the search field before the answer for what is typed came: the first
  /// class it finds opens when it comes.
  package var openWhenFound = false
  /// A later page is being fetched (scrolling near the end of what is loaded).
  package var loadingMore = false
  /// End was pressed with more classes still to come: each page that comes moves the
  /// selection to the new last class and asks for the next, until the last class of all (a
  /// walk-through's End went 50 rows down a list of 351).
  package var endPending = false
  /// The last later page failed (issue 28): said on the count line until a page arrives; moving
  /// down at the end asks again.
  package var moreFailed: String?
  /// Signed in: how much of each class the person watched, by class id (blank if never).
  package var watched: [String: Int] = [:]
  /// Signed out: `Log in to watch` over the list, for the class it will open.
  package var modal: ClassLoginModal?
  /// Signed out: the email typed on Get started (when it is one), which `Log in to watch`
  /// starts from, as part one's Login does.
  package var signedOutEmail = ""
  /// The thumbnails asked for, by `thumbnailSlug` (classes share a handful of them).
  package var thumbnails: [String: TilePicture] = [:]
  /// The colours thumbnails are made in (the terminal's).
  package var colors: PictureColors

  package init(colors: PictureColors = .xterm256) {
    self.colors = colors
  }

  package var classes: [DanceClass] { results?.classes ?? [] }

  package var selectedClass: DanceClass? {
    classes.indices.contains(selected) ? classes[selected] : nil
  }

  /// The requests running for this screen.
  var running: Set<EffectID> {
    var ids: Set<EffectID> = []
    if load == .loading || load == .searching { ids.insert(.catalogSearch) }
    if modal?.form.phase.isRunning == true { ids.insert(.logIn) }
    for (slug, thumbnail) in thumbnails where thumbnail == .loading {
      ids.insert(.thumbnail(slug: slug))
    }
    return ids
  }
}

/// The signed-out `Log in to watch` modal: part one's login form, and the class that opens on
/// success.
package struct ClassLoginModal: Equatable, Sendable {
  package var form: LoginForm
  package var opening: DanceClass

  package init(form: LoginForm = LoginForm(email: ""), opening: DanceClass) {
    self.form = form
    self.opening = opening
  }
}
