import Testing

@testable import MyworkoutCore

/// The Classes preview's thumbnail: asked for once per `thumbnailSlug`, as classes are selected.
@Suite struct ClassThumbnailTests {
  static func danceClass(_ index: Int, thumbnail: String) -> DanceClass {
    DanceClass(
      id: "id-\(index)", title: "Class \(index)", instructor: "Ada", level: .beginner,
      song: "Song", videoURL: "https://videos.example.com/\(index).mp4", thumbnailSlug: thumbnail)
  }

  static let classes = [
    danceClass(0, thumbnail: "class-thumbnail-1.jpg"),
    danceClass(1, thumbnail: "class-thumbnail-1.jpg"),
    danceClass(2, thumbnail: "class-thumbnail-2.jpg"),
    danceClass(3, thumbnail: ""),
  ]
  static let page = CatalogPage(
    query: "", offset: 0, classes: classes, matching: 4, isCapped: false, total: 4)

  static func run(_ slug: String, colors: PictureColors = .basic8) -> Effect {
    .run(
      .thumbnail(slug: slug),
      .thumbnail(slug: slug, tile: ClassesState.thumbnailTile, colors: colors))
  }

  var classesState: ClassesState {
    get {
      guard case .classes(let classes, _) = store.state.screen else { fatalError("no Classes") }
      return classes
    }
  }

  var store: TestStore

  init() {
    var state = AppState.signedInSample
    state.display.colors = .basic8
    // Wide enough for the preview, where the thumbnail shows.
    state.display.size = TerminalSize(width: 110, height: 30)
    store = TestStore(state)
  }

  /// Profile → Classes, the first page loaded: the first class's thumbnail asked for. Returns
  /// the Classes state as it stands.
  mutating func openClasses() -> ClassesState {
    var classes = ClassesState(colors: .basic8)
    store.send(
      .profile(.classesPressed),
      effects: [
        .run(.catalogSearch, .catalogPage(query: "", offset: 0, limit: ClassesState.pageSize))
      ]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    classes.results = Self.page
    classes.load = .loaded
    classes.thumbnails = ["class-thumbnail-1.jpg": .loading]
    store.send(
      .classes(.pageLoaded(query: "", offset: 0, .success(Self.page))),
      effects: [
        Self.run("class-thumbnail-1.jpg"),
        .run(
          .watchedPercents,
          .watchedPercents(account: "auth0|ada", classes: Self.page.classes)),
      ]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    return classes
  }

  /// Opened narrow (no preview), then widened past 100 columns: the selected class's
  /// thumbnail is asked for at once (a walk-through's preview showed none until the selection
  /// moved); narrowed again, nothing is asked for.
  @Test mutating func widenedIntoThePreviewTheThumbnailIsAskedFor() {
    var state = AppState.signedInSample
    state.display.colors = .basic8
    state.display.size = TerminalSize(width: 80, height: 24)
    store = TestStore(state)
    var classes = ClassesState(colors: .basic8)
    store.send(
      .profile(.classesPressed),
      effects: [
        .run(.catalogSearch, .catalogPage(query: "", offset: 0, limit: ClassesState.pageSize))
      ]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    classes.results = Self.page
    classes.load = .loaded
    store.send(
      .classes(.pageLoaded(query: "", offset: 0, .success(Self.page))),
      effects: [
        .run(
          .watchedPercents,
          .watchedPercents(account: "auth0|ada", classes: Self.page.classes))
      ]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    let wide = TerminalSize(width: 120, height: 30)
    classes.thumbnails = ["class-thumbnail-1.jpg": .loading]
    store.send(.terminalResized(wide), effects: [Self.run("class-thumbnail-1.jpg")]) {
      $0.display.size = wide
      $0.signedIn.path = [.classes(classes)]
    }
  }

  @Test mutating func selectingAClassAsksForItsThumbnailOncePerSlug() {
    var classes = openClasses()
    #expect(store.state.running.contains(.thumbnail(slug: "class-thumbnail-1.jpg")))
    // The next class shares the thumbnail: nothing more to ask for.
    classes.focus = .list
    store.send(.classes(.selectionMoved(by: 1))) { $0.signedIn.path = [.classes(classes)] }
    classes.selected = 1
    store.send(.classes(.selectionMoved(by: 1))) { $0.signedIn.path = [.classes(classes)] }
    let picture = HalfBlockPicture(columns: 1, rows: 1, cells: [.colors(upper: 1, lower: 4)])
    classes.thumbnails["class-thumbnail-1.jpg"] = .ready(picture)
    store.send(.classes(.thumbnailLoaded(slug: "class-thumbnail-1.jpg", picture))) {
      $0.signedIn.path = [.classes(classes)]
    }
    classes.selected = 2
    classes.thumbnails["class-thumbnail-2.jpg"] = .loading
    store.send(
      .classes(.selectionMoved(by: 1)), effects: [Self.run("class-thumbnail-2.jpg")]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    // One is ready, the other is missing: the preview shows the first and nothing for the other.
    classes.thumbnails["class-thumbnail-2.jpg"] = .failed
    store.send(.classes(.thumbnailLoaded(slug: "class-thumbnail-2.jpg", nil))) {
      $0.signedIn.path = [.classes(classes)]
    }
    #expect(classesState.selectedThumbnail == nil)
    // A class without a thumbnail asks for none.
    classes.selected = 3
    store.send(.classes(.selectionMoved(by: 1))) { $0.signedIn.path = [.classes(classes)] }
    #expect(classesState.selectedThumbnail == nil)
    classes.selected = 0
    store.send(.classes(.selectionMovedToEnd(last: false))) {
      $0.signedIn.path = [.classes(classes)]
    }
    #expect(classesState.selectedThumbnail == picture)
    #expect(!store.state.isBusy)
  }

  /// A thumbnail still on its way when the selection moves on is no longer wanted: its request
  /// is cancelled (a decode not yet started then never starts), and it is asked for again when
  /// the class is selected again. A walk-through passed 20 classes whose thumbnails were large
  /// PNGs: their decodes ran one after another for 18 s of CPU, and the Player and the class
  /// list waited behind them.
  @Test mutating func aThumbnailPassedOverWhileItLoadsIsCancelledAndAskedForAgainLater() {
    var classes = openClasses()
    classes.focus = .list
    store.send(.classes(.selectionMoved(by: 1))) { $0.signedIn.path = [.classes(classes)] }
    // Class 1 shares class 0's thumbnail, still loading; class 2 has another.
    classes.selected = 1
    store.send(.classes(.selectionMoved(by: 1))) { $0.signedIn.path = [.classes(classes)] }
    classes.selected = 2
    classes.thumbnails = ["class-thumbnail-2.jpg": .loading]
    store.send(
      .classes(.selectionMoved(by: 1)),
      effects: [
        .cancel(.thumbnail(slug: "class-thumbnail-1.jpg")), Self.run("class-thumbnail-2.jpg"),
      ]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    classes.selected = 3
    classes.thumbnails = [:]
    store.send(
      .classes(.selectionMoved(by: 1)),
      effects: [.cancel(.thumbnail(slug: "class-thumbnail-2.jpg"))]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
    #expect(!store.state.isBusy)
    // A cancelled one's answer, should it come, is not taken.
    let picture = HalfBlockPicture(columns: 1, rows: 1, cells: [.colors(upper: 1, lower: 4)])
    store.send(.classes(.thumbnailLoaded(slug: "class-thumbnail-2.jpg", picture)))
    // Back on class 2: asked for again.
    classes.selected = 2
    classes.thumbnails = ["class-thumbnail-2.jpg": .loading]
    store.send(
      .classes(.selectionMoved(by: -1)), effects: [Self.run("class-thumbnail-2.jpg")]
    ) {
      $0.signedIn.path = [.classes(classes)]
    }
  }
}
