import MyworkoutCore
import MyworkoutView
import Testing

@Suite struct ImagesSnapshotTests {
  static let session = ScreenSnapshotTests.session

  static func list(_ count: Int) -> [ImageInfo] {
    (0..<count).map { index in
      ImageInfo(
        id: "photo-\(index).jpg", caption: "photo-\(index)",
        location: .file("/images/photo-\(index).jpg"))
    }
  }

  /// A picture of `columns` x `rows` cells: stripes, with some cells a single colour (drawn as
  /// spaces) so both kinds of cell show in the text.
  static func picture(columns: Int, rows: Int) -> HalfBlockPicture {
    let cells = (0..<(columns * rows)).map { index -> HalfBlockPicture.Cell in
      index % 3 == 0 ? .colors(upper: 21, lower: 21) : .colors(upper: 196, lower: 16)
    }
    return HalfBlockPicture(columns: columns, rows: rows, cells: cells)
  }

  /// Images on top of Profile for a terminal size, with the list loaded and `pictures` set.
  static func state(
    width: Int = 80, height: Int = 24, count: Int = 5, selected: Int = 0, open: Bool = false,
    tiles: (ImagesLayout) -> [Int: TilePicture]
  ) -> AppState {
    let display = Display(size: TerminalSize(width: width, height: height))
    var images = ImagesState(display: display)
    images.load = .loaded
    images.images = list(count)
    images.selected = selected
    images.isOpen = open
    for (index, tile) in tiles(images.layout) {
      let size = open ? images.layout.large : images.layout.tile
      images.pictures[TileKey(imageID: "photo-\(index).jpg", tile: size)] = tile
    }
    var state = AppState(root: .signedIn(SignedIn(session: session, path: [.images(images)])))
    state.display = display
    return state
  }

  @Test func theGridWithAFailedTileBesideReadyAndLoadingOnes() {
    let state = Self.state { layout in
      [
        0: .ready(Self.picture(columns: 21, rows: layout.tile.rows)),
        1: .failed,
        2: .loading,
        3: .ready(Self.picture(columns: layout.tile.columns, rows: 5)),
      ]
    }
    assertSnapshot(
      Renderer.render(state, width: 80, height: 24), named: "images-grid-failed-tile")
  }

  @Test func theListLoading() {
    var state = AppState(
      root: .signedIn(
        SignedIn(session: Self.session, path: [.images(ImagesState(display: Display()))])))
    state.spinnerFrame = 3
    assertSnapshot(Renderer.render(state, width: 80, height: 24), named: "images-loading")
  }

  @Test func theListFailing() {
    var images = ImagesState(display: Display())
    images.load = .failed("Images could not be listed: /nowhere: No such file or directory")
    let state = AppState(root: .signedIn(SignedIn(session: Self.session, path: [.images(images)])))
    assertSnapshot(Renderer.render(state, width: 80, height: 24), named: "images-list-failed")
  }

  @Test func oneImageLarge() {
    let state = Self.state(selected: 3, open: true) { layout in
      [3: .ready(Self.picture(columns: 60, rows: layout.large.rows))]
    }
    assertSnapshot(Renderer.render(state, width: 80, height: 24), named: "images-large")
  }

  @Test func at40x12OneRowOfTilesIsInView() {
    let state = Self.state(width: 40, height: 12, selected: 1) { layout in
      [0: .failed, 1: .ready(Self.picture(columns: 12, rows: layout.tile.rows))]
    }
    assertSnapshot(Renderer.render(state, width: 40, height: 12), named: "images-40x12")
  }

  @Test func theFooterAndKeysFollowTheView() {
    let grid = Self.state { _ in [:] }
    #expect(
      KeyBindings.hints(for: grid).map(\.text) == [
        "←→↑↓ move", "Enter show large", "Esc back", "? keys", "Ctrl-C quit",
      ])
    #expect(KeyBindings.action(for: .backspace, in: grid) == .images(.backPressed))
    #expect(KeyBindings.action(for: .left, in: grid) == .images(.moved(.left)))
    #expect(KeyBindings.action(for: .pageDown, in: grid) == .images(.moved(.pageDown)))
    #expect(KeyBindings.action(for: .end, in: grid) == .images(.moved(.last)))
    let large = Self.state(open: true) { _ in [:] }
    #expect(KeyBindings.action(for: .left, in: large) == .images(.backPressed))
    #expect(KeyBindings.action(for: .backspace, in: large) == .images(.backPressed))
    #expect(KeyBindings.action(for: .escape, in: large) == .images(.backPressed))
    #expect(KeyBindings.action(for: .down, in: large) == nil)
  }

  @Test func theClassesPreviewShowsTheSelectedClasssThumbnail() {
    let item = DanceClass(
      id: "a", title: "Hip Hop Foundations: The Bounce", instructor: "Zoë Okafor",
      level: .beginner, song: "Kitchen Floor Groove", videoURL: "https://v.example.com/a.mp4",
      thumbnailSlug: "class-thumbnail-1.jpg", duration: 540)
    var classes = ClassesState()
    classes.results = CatalogPage(
      query: "", offset: 0, classes: [item], matching: 1, isCapped: false, total: 1)
    classes.load = .loaded
    classes.thumbnails["class-thumbnail-1.jpg"] = .ready(Self.picture(columns: 25, rows: 7))
    let state = AppState(
      root: .signedIn(SignedIn(session: Self.session, path: [.classes(classes)])))
    assertSnapshot(
      Renderer.render(state, width: 110, height: 30), named: "classes-preview-thumbnail")
    // Too short for it: the details stay, the thumbnail goes.
    #expect(!Renderer.render(state, width: 110, height: 20).text.contains("▀"))
    #expect(Renderer.render(state, width: 110, height: 20).text.contains("Zoë Okafor"))
  }
}
