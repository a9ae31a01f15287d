/// Classes' rules (SPEC §11): search as you type after a pause, a list to move through, Enter to
/// open, Esc to clear the search or go back; signed out, Enter opens `Log in to watch`.
enum ClassesReducer {
  enum Delegate: Equatable, Sendable {
    /// Esc on the list with an empty search: the parent goes back.
    case back
    /// Signed in: open this class.
    case open(DanceClass)
    /// Signed out: the modal's `Create a new account`.
    case createAccount(email: String)
    /// Signed out: the modal logged the person in; open the class it was opened for.
    case signedIn(Session, opening: DanceClass)
    /// A line for the app's notice (a paste cut to fit the search).
    case notice(String)
  }

  /// A new Classes screen and the first fetch (the whole catalog, first page).
  static func opened(colors: PictureColors) -> (ClassesState, [Effect]) {
    (ClassesState(colors: colors), [search(query: "")])
  }

  /// `display`: the preview, and so the selected class's thumbnail, shows only on a terminal
  /// wide enough for it; a narrower one decodes nothing.
  static func reduce(
    _ state: inout ClassesState, _ action: ClassesAction, signedIn: Bool, display: Display
  ) -> Outcome<Delegate> {
    var outcome = reduceAction(&state, action, signedIn: signedIn)
    if display.size.width >= ClassesState.previewMinimumWidth {
      outcome.effects += ClassThumbnails.request(&state)
    }
    return outcome
  }

  /// The terminal resized: wide enough now for the preview, the selected class's thumbnail is
  /// asked for (a walk-through's preview, widened into view, showed none until the selection
  /// moved).
  static func resized(_ state: inout ClassesState, display: Display) -> [Effect] {
    display.size.width >= ClassesState.previewMinimumWidth ? ClassThumbnails.request(&state) : []
  }

  private static func reduceAction(
    _ state: inout ClassesState, _ action: ClassesAction, signedIn: Bool
  ) -> Outcome<Delegate> {
    if case .thumbnailLoaded(let slug, let picture) = action {
      ClassThumbnails.loaded(&state, slug: slug, picture)
      return .none
    }
    if case .watchedLoaded(let percents) = action {
      if let percents { state.watched.merge(percents) { _, new in new } }
      return .none
    }
    if case .pageLoaded(let query, let offset, let result) = action {
      loaded(&state, query: query, offset: offset, result)
      if state.endPending {
        // On to the end while pages bring classes; a new search, a failure (said on the count
        // line) or a page with none ends the way.
        guard offset > 0, case .success(let page) = result, !page.classes.isEmpty else {
          state.endPending = false
          return .none
        }
        return .effects(onToTheEnd(&state))
      }
      // The answer Enter waited for: its first class opens (none found: nothing does).
      guard state.openWhenFound, offset == 0, query == state.search.text else { return .none }
      state.openWhenFound = false
      guard case .success = result else { return .none }
      return open(&state, signedIn: signedIn)
    }
    if state.modal != nil {
      guard case .modal(let login) = action else { return .none }
      return reduceModal(&state, login)
    }
    switch action {
    case .searchEdited, .searchPasted, .selectionMoved, .selectionMovedToEnd, .rowClicked,
      .focusToggled, .escapePressed:
      // Another wish than the Enter that waits for an answer.
      state.openWhenFound = false
    default: break
    }
    switch action {
    case .searchEdited(let edit):
      state.focus = .search
      state.search.apply(edit)
      return TextInput.changesText(edit) ? queryChanged(&state) : .none
    case .searchPasted(let text):
      state.focus = .search
      let whole = state.search.insert(text)
      var outcome = queryChanged(&state)
      // Cut to fit, and said (as part one's forms and the lessons' blanks do).
      if !whole { outcome.delegate = .notice(Message.pasteCut(limit: FieldLimit.search)) }
      return outcome
    case .searchPauseEnded:
      guard let query = state.pendingQuery else { return .none }
      state.pendingQuery = nil
      state.load = state.results == nil ? .loading : .searching
      return .effects([search(query: query)])
    case .selectionMoved(let rows):
      return moveSelection(&state, by: rows)
    case .selectionMovedToEnd(let last):
      guard state.focus == .list, !state.classes.isEmpty else { return .none }
      state.endPending = last
      if last { return .effects(onToTheEnd(&state)) }
      state.selected = 0
      return .effects(moreIfNeeded(&state))
    case .rowClicked(let row):
      guard state.classes.indices.contains(row) else { return .none }
      state.endPending = false
      state.focus = .list
      state.selected = row
      return .effects(moreIfNeeded(&state))
    case .focusToggled:
      state.focus = state.focus == .search ? .list : .search
      return .none
    case .enterPressed:
      guard state.focus == .search else { return open(&state, signedIn: signedIn) }
      // In the field, Enter opens the first class that matches what is typed: when the list
      // shown is not yet the answer for it, once the answer comes (a walk-through's Enter
      // while the spinner turned opened the first class of the whole catalog).
      if let query = state.pendingQuery {
        // The pause after the last key still runs: the search starts now.
        state.pendingQuery = nil
        state.load = state.results == nil ? .loading : .searching
        state.openWhenFound = true
        return .effects([search(query: query)])
      }
      if state.load == .searching || state.load == .loading {
        state.openWhenFound = true
        return .none
      }
      if state.results?.query != state.search.text {
        // The list shown answers another query (the search for this one failed): asked again.
        state.load = state.results == nil ? .loading : .searching
        state.openWhenFound = true
        return .effects([search(query: state.search.text)])
      }
      state.selected = 0
      return open(&state, signedIn: signedIn)
    case .escapePressed:
      guard !state.search.text.isEmpty else { return .delegate(.back) }
      // Clearing the search cancels a search that runs (the new one supersedes it) and brings
      // the whole catalog back.
      state.search = TextInput(limit: FieldLimit.search)
      state.focus = .search
      state.pendingQuery = nil
      state.load = state.results == nil ? .loading : .searching
      return .effects([search(query: "")])
    case .pageLoaded, .modal, .thumbnailLoaded, .watchedLoaded:
      return .none
    }
  }

  /// The selected class opens: signed in, the Player; signed out, `Log in to watch` for it.
  private static func open(_ state: inout ClassesState, signedIn: Bool) -> Outcome<Delegate> {
    guard let chosen = state.selectedClass else { return .none }
    if signedIn { return .delegate(.open(chosen)) }
    state.modal = ClassLoginModal(form: LoginForm(email: state.signedOutEmail), opening: chosen)
    return .none
  }

  /// Signed in: the watched % of every class listed so far (one read of the person's progress;
  /// a newer request covers what an older one asked for).
  static func requestWatched(_ state: ClassesState, account: String) -> [Effect] {
    guard !state.classes.isEmpty else { return [] }
    return [
      .run(.watchedPercents, .watchedPercents(account: account, classes: state.classes))
    ]
  }

  /// The first page for a query, under the search's id: a newer search supersedes an older one.
  static func search(query: String) -> Effect {
    .run(.catalogSearch, .catalogPage(query: query, offset: 0, limit: ClassesState.pageSize))
  }

  private static func queryChanged(_ state: inout ClassesState) -> Outcome<Delegate> {
    state.pendingQuery = state.search.text
    return .none
  }

  private static func moveSelection(_ state: inout ClassesState, by rows: Int) -> Outcome<Delegate>
  {
    state.endPending = false
    switch state.focus {
    case .search:
      // Down from the field enters the list.
      guard rows > 0, !state.classes.isEmpty else { return .none }
      state.focus = .list
      state.selected = min(state.selected, state.classes.count - 1)
      return .none
    case .list:
      if rows < 0, state.selected == 0 {
        state.focus = .search
        return .none
      }
      guard !state.classes.isEmpty else { return .none }
      state.selected = min(max(0, state.selected + rows), state.classes.count - 1)
      return .effects(moreIfNeeded(&state))
    }
  }

  /// End (`endPending`): the last class loaded is selected and, while more are to come, the
  /// next of them are asked for, a large page at a time (later pages pay no latency). Ends
  /// with the last class of all, or when a page fails or brings nothing.
  private static func onToTheEnd(_ state: inout ClassesState) -> [Effect] {
    guard let results = state.results, !results.classes.isEmpty else {
      state.endPending = false
      return []
    }
    state.selected = results.classes.count - 1
    if state.loadingMore { return [] }  // the page on its way goes on from here
    guard results.hasMore else {
      state.endPending = false
      return []
    }
    return nextPage(&state, of: results, limit: ClassesState.endPageSize)
  }

  /// The page after those loaded of `results` (immediate: later pages pay no latency).
  private static func nextPage(_ state: inout ClassesState, of results: CatalogPage, limit: Int)
    -> [Effect]
  {
    state.loadingMore = true
    return [
      .run(
        .catalogMore,
        .catalogPage(query: results.query, offset: results.classes.count, limit: limit))
    ]
  }

  /// Near the end of what is loaded, the next page (immediate: later pages pay no latency).
  private static func moreIfNeeded(_ state: inout ClassesState) -> [Effect] {
    guard let results = state.results, results.hasMore, !state.loadingMore,
      state.selected >= results.classes.count - ClassesState.pageSize / 2
    else { return [] }
    return nextPage(&state, of: results, limit: ClassesState.pageSize)
  }

  private static func loaded(
    _ state: inout ClassesState, query: String, offset: Int,
    _ result: Result<CatalogPage, CatalogError>
  ) {
    switch result {
    case .success(let page) where offset == 0:
      state.results = page
      state.selected = 0
      state.load = .loaded
      state.moreFailed = nil
    case .success(let page):
      state.loadingMore = false
      state.moreFailed = nil
      guard var results = state.results, results.query == query,
        offset == results.classes.count
      else { return }
      results.classes += page.classes
      results.matching = page.matching
      results.isCapped = page.isCapped
      state.results = results
    case .failure(let error) where offset == 0:
      state.load = .failed(error.message)
    case .failure(let error):
      state.loadingMore = false
      state.moreFailed = "More classes could not be loaded (↓ tries again): " + error.message
    }
  }

  private static func reduceModal(_ state: inout ClassesState, _ action: LoginAction)
    -> Outcome<Delegate>
  {
    guard var modal = state.modal else { return .none }
    let outcome = LoginReducer.reduce(&modal.form, action)
    state.modal = modal
    switch outcome.delegate {
    case nil:
      return .effects(outcome.effects)
    case .cancelled?:
      state.modal = nil
      return .effects(outcome.effects)
    case .createAccount(let email)?:
      return Outcome(effects: outcome.effects, delegate: .createAccount(email: email))
    case .signedIn(let session)?:
      state.modal = nil
      return Outcome(effects: outcome.effects, delegate: .signedIn(session, opening: modal.opening))
    }
  }
}
