/// Images' rules (SPEC §14): the list loads once (with the service's latency), the arrows move
/// the selection and the grid scrolls to keep it in view, Enter shows it large, Esc goes back.
/// After every change the pictures in view are asked for and the ones scrolled away cancelled,
/// each under its own effect id (`EffectID.picture`).
enum ImagesReducer {
  enum Delegate: Equatable, Sendable {
    /// Esc or Backspace on the grid: the parent goes back to Profile.
    case back
  }

  /// A new Images screen for this terminal, and the list's fetch.
  static func opened(display: Display) -> (ImagesState, [Effect]) {
    (ImagesState(display: display), [.run(.imageList, .imageList)])
  }

  static func reduce(_ state: inout ImagesState, _ action: ImagesAction) -> Outcome<Delegate> {
    switch action {
    case .listLoaded(.success(let images)):
      guard state.load == .loading else { return .none }
      state.load = .loaded
      state.images = images
      return .effects(sync(&state))
    case .listLoaded(.failure(let error)):
      guard state.load == .loading else { return .none }
      state.load = .failed(error.description)
      return .none
    case .pictureLoaded(let key, let picture):
      guard state.pictures[key] == .loading else { return .none }
      state.pictures[key] = picture.map(TilePicture.ready) ?? .failed
      return .none
    case .moved(let move):
      guard !state.isOpen, !state.images.isEmpty else { return .none }
      state.selected = target(of: move, in: state)
      scrollToSelection(&state)
      return .effects(sync(&state))
    case .tileClicked(let index):
      guard !state.isOpen, state.images.indices.contains(index) else { return .none }
      state.selected = index
      state.isOpen = true
      return .effects(sync(&state))
    case .enterPressed:
      guard !state.isOpen, state.selectedImage != nil else { return .none }
      state.isOpen = true
      return .effects(sync(&state))
    case .backPressed:
      if state.isOpen {
        state.isOpen = false
        return .effects(sync(&state))
      }
      // Leaving: nothing this screen asked for is wanted any more.
      return Outcome(effects: cancelAll(&state), delegate: .back)
    }
  }

  /// The terminal changed size: the grid reflows, and the pictures are asked for at the new
  /// sizes (the ones at the old sizes are cancelled or dropped).
  static func resized(_ state: inout ImagesState, to display: Display) -> [Effect] {
    state.layout = ImagesLayout(terminal: display.size)
    scrollToSelection(&state)
    return sync(&state)
  }

  /// The index a move leads to, within the images.
  private static func target(of move: ImagesAction.Move, in state: ImagesState) -> Int {
    let last = state.images.count - 1
    let page = 2 * state.layout.visibleRows
    let index = state.selected
    return switch move {
    case .left: index % 2 == 1 ? index - 1 : index
    case .right: index % 2 == 0 && index < last ? index + 1 : index
    case .up: index >= 2 ? index - 2 : index
    case .down: index + 2 <= last ? index + 2 : (index / 2 < last / 2 ? last : index)
    case .pageUp: max(index % 2, index - page)
    case .pageDown: min(index + page <= last ? index + page : last, last)
    case .first: 0
    case .last: last
    }
  }

  /// Scrolls as little as needed for the selected row to be in view, and no further down than
  /// the last row allows.
  private static func scrollToSelection(_ state: inout ImagesState) {
    let row = state.selected / 2
    let visible = state.layout.visibleRows
    if row < state.firstRow { state.firstRow = row }
    if row >= state.firstRow + visible { state.firstRow = row - visible + 1 }
    state.firstRow = max(0, min(state.firstRow, state.rowCount - visible))
  }

  /// Asks for the pictures now in view that are not asked for yet; cancels the decodes no
  /// longer in view; forgets pictures of sizes no longer shown (the grid's own are kept, so
  /// scrolling back shows them at once).
  static func sync(_ state: inout ImagesState) -> [Effect] {
    let wanted = state.wanted
    let wantedSet = Set(wanted)
    var effects: [Effect] = []
    let stale = state.pictures.filter { key, picture in
      picture == .loading && !wantedSet.contains(key)
    }
    for key in stale.keys.sorted(by: order) {
      state.pictures[key] = nil
      effects.append(.cancel(.picture(key)))
    }
    state.pictures = state.pictures.filter { key, _ in
      wantedSet.contains(key) || key.tile == state.layout.tile
    }
    let byID = Dictionary(state.images.map { ($0.id, $0) }) { first, _ in first }
    for key in wanted where state.pictures[key] == nil {
      guard let image = byID[key.imageID] else { continue }
      state.pictures[key] = .loading
      effects.append(
        .run(.picture(key), .picture(image, tile: key.tile, colors: state.colors)))
    }
    return effects
  }

  private static func cancelAll(_ state: inout ImagesState) -> [Effect] {
    var effects: [Effect] = state.load == .loading ? [.cancel(.imageList)] : []
    let loading = state.pictures.filter { $0.value == .loading }.keys.sorted(by: order)
    for key in loading {
      state.pictures[key] = nil
      effects.append(.cancel(.picture(key)))
    }
    return effects
  }

  /// A fixed order for effects over a set of keys (tests state effects in order).
  private static func order(_ left: TileKey, _ right: TileKey) -> Bool {
    (left.imageID, left.tile.columns, left.tile.rows)
      < (right.imageID, right.tile.columns, right.tile.rows)
  }
}
