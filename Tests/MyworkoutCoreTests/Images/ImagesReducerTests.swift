import Testing

@testable import MyworkoutCore

@Suite struct ImagesReducerTests {
  typealias S = ImageSample

  /// Profile for the sample session, with an 80x24 256-colour terminal.
  func profile() -> TestStore {
    var state = AppState.signedInSample
    state.display = S.display
    return TestStore(state)
  }

  /// Images opened by `i`, its list loading.
  func opened() -> TestStore {
    var store = profile()
    store.send(.profile(.imagesPressed), effects: [.run(.imageList, .imageList)]) {
      $0.signedIn.path = [.images(ImagesState(display: S.display))]
    }
    return store
  }

  /// Images with a list of `count` images answered: the 4 tiles in view are asked for.
  func loaded(_ count: Int = 7) -> TestStore {
    var store = opened()
    store.send(
      .images(.listLoaded(.success(S.list(count)))),
      effects: (0..<min(4, count)).map { S.run($0) }
    ) {
      $0.images.load = .loaded
      $0.images.images = S.list(count)
      for index in 0..<min(4, count) { $0.images.pictures[S.key(index)] = .loading }
    }
    return store
  }

  @Test func iOnProfileOpensImagesLoadingItsList() {
    let store = opened()
    #expect(store.state.screen.kind == .images)
    #expect(store.state.running == [.imageList])
    #expect(subscriptions(store.state).contains(.spinner))
  }

  @Test func theImagesButtonOpensImagesToo() {
    var store = profile()
    for stop in [ProfileState.Focus.logOut, .classes, .lessons, .images] {
      store.send(.profile(.form(.focusMoved(.forward)))) { $0.profile.focus = stop }
    }
    store.send(.profile(.form(.enterPressed)), effects: [.run(.imageList, .imageList)]) {
      $0.signedIn.path = [.images(ImagesState(display: S.display))]
    }
  }

  @Test func theListAsksForTheVisibleTilesAndEachAnswerFillsItsTile() {
    var store = loaded()
    #expect(store.state.images.tile(0) == .loading)
    #expect(store.state.images.tile(4) == nil)
    store.send(.images(.pictureLoaded(S.key(0), S.picture))) {
      $0.images.pictures[S.key(0)] = .ready(S.picture)
    }
    // A file that cannot be shown fails in its own tile; the others are untouched.
    store.send(.images(.pictureLoaded(S.key(1), nil))) {
      $0.images.pictures[S.key(1)] = .failed
    }
    #expect(store.state.images.tile(1) == .failed)
    #expect(store.state.images.tile(2) == .loading)
    #expect(store.state.running == [.picture(S.key(2)), .picture(S.key(3))])
  }

  @Test func aFailedListShowsWhy() {
    var store = opened()
    store.send(.images(.listLoaded(.failure(.cannotList("/nowhere: No such file or directory"))))) {
      $0.images.load = .failed("Images could not be listed: /nowhere: No such file or directory")
    }
    #expect(!store.state.isBusy)
  }

  @Test func anEmptyFolderAsksForNothing() {
    var store = opened()
    store.send(.images(.listLoaded(.success([])))) { $0.images.load = .loaded }
    store.send(.images(.moved(.down)))
    store.send(.images(.enterPressed))
  }

  @Test func arrowsMoveBetweenColumnsAndRows() {
    var store = loaded()
    store.send(.images(.moved(.left)))
    store.send(.images(.moved(.right))) { $0.images.selected = 1 }
    store.send(.images(.moved(.right)))
    store.send(.images(.moved(.down))) { $0.images.selected = 3 }
    store.send(.images(.moved(.up))) { $0.images.selected = 1 }
    store.send(.images(.moved(.up)))
    store.send(.images(.moved(.left))) { $0.images.selected = 0 }
  }

  @Test func movingPastTheViewScrollsCancellingTilesScrolledAwayAndAskingForNewOnes() {
    var store = loaded()
    store.send(.images(.pictureLoaded(S.key(0), S.picture))) {
      $0.images.pictures[S.key(0)] = .ready(S.picture)
    }
    store.send(.images(.moved(.down))) { $0.images.selected = 2 }
    // Row 2 comes into view: rows 1 and 2 are shown, row 0 is not.
    store.send(
      .images(.moved(.down)), effects: [S.cancel(1), S.run(4), S.run(5)]
    ) {
      $0.images.selected = 4
      $0.images.firstRow = 1
      $0.images.pictures[S.key(1)] = nil
      $0.images.pictures[S.key(4)] = .loading
      $0.images.pictures[S.key(5)] = .loading
    }
    // The last row holds one image: Down from the right column lands on it.
    store.send(.images(.moved(.right))) { $0.images.selected = 5 }
    store.send(.images(.moved(.down)), effects: [S.cancel(2), S.cancel(3), S.run(6)]) {
      $0.images.selected = 6
      $0.images.firstRow = 2
      $0.images.pictures[S.key(2)] = nil
      $0.images.pictures[S.key(3)] = nil
      $0.images.pictures[S.key(6)] = .loading
    }
    // Back to the top: the picture made before is still there; the cancelled ones are asked
    // for again.
    store.send(
      .images(.moved(.first)),
      effects: [S.cancel(4), S.cancel(5), S.cancel(6), S.run(1), S.run(2), S.run(3)]
    ) {
      $0.images.selected = 0
      $0.images.firstRow = 0
      for index in [4, 5, 6] { $0.images.pictures[S.key(index)] = nil }
      for index in [1, 2, 3] { $0.images.pictures[S.key(index)] = .loading }
    }
    // A late answer for a cancelled tile changes nothing.
    store.send(.images(.pictureLoaded(S.key(6), S.picture)))
  }

  @Test func pagesMoveAScreenfulAndHomeEndJumpToTheEnds() {
    var store = loaded(9)
    store.send(.images(.moved(.pageDown)), effects: [S.cancel(0), S.cancel(1), S.run(4), S.run(5)])
    {
      $0.images.selected = 4
      $0.images.firstRow = 1
      $0.images.pictures[S.key(0)] = nil
      $0.images.pictures[S.key(1)] = nil
      $0.images.pictures[S.key(4)] = .loading
      $0.images.pictures[S.key(5)] = .loading
    }
    store.send(
      .images(.moved(.last)),
      effects: [S.cancel(2), S.cancel(3), S.cancel(4), S.cancel(5), S.run(6), S.run(7), S.run(8)]
    ) {
      $0.images.selected = 8
      $0.images.firstRow = 3
      for index in [2, 3, 4, 5] { $0.images.pictures[S.key(index)] = nil }
      for index in [6, 7, 8] { $0.images.pictures[S.key(index)] = .loading }
    }
    store.send(.images(.moved(.pageDown)))
    store.send(.images(.moved(.pageUp)), effects: [S.cancel(8), S.run(4), S.run(5)]) {
      $0.images.selected = 4
      $0.images.firstRow = 2
      $0.images.pictures[S.key(8)] = nil
      $0.images.pictures[S.key(4)] = .loading
      $0.images.pictures[S.key(5)] = .loading
    }
  }

  @Test func enterShowsTheSelectedImageLargeAndEscReturnsToTheGrid() {
    var store = loaded()
    store.send(.images(.pictureLoaded(S.key(1), S.picture))) {
      $0.images.pictures[S.key(1)] = .ready(S.picture)
    }
    store.send(.images(.moved(.right))) { $0.images.selected = 1 }
    let large = S.layout.large
    store.send(
      .images(.enterPressed),
      effects: [S.cancel(0), S.cancel(2), S.cancel(3), S.run(1, tile: large)]
    ) {
      $0.images.isOpen = true
      for index in [0, 2, 3] { $0.images.pictures[S.key(index)] = nil }
      $0.images.pictures[S.key(1, tile: large)] = .loading
    }
    #expect(store.state.images.largePicture == .loading)
    // Moves do nothing on the large image.
    store.send(.images(.moved(.down)))
    store.send(.images(.pictureLoaded(S.key(1, tile: large), S.picture))) {
      $0.images.pictures[S.key(1, tile: large)] = .ready(S.picture)
    }
    store.send(.images(.backPressed), effects: [S.run(0), S.run(2), S.run(3)]) {
      $0.images.isOpen = false
      $0.images.pictures[S.key(1, tile: large)] = nil
      for index in [0, 2, 3] { $0.images.pictures[S.key(index)] = .loading }
    }
    #expect(store.state.screen.kind == .images)
  }

  @Test func aClickOnATileShowsItLarge() {
    var store = loaded()
    let large = S.layout.large
    store.send(
      .images(.tileClicked(2)),
      effects: [S.cancel(0), S.cancel(1), S.cancel(2), S.cancel(3), S.run(2, tile: large)]
    ) {
      $0.images.selected = 2
      $0.images.isOpen = true
      for index in 0..<4 { $0.images.pictures[S.key(index)] = nil }
      $0.images.pictures[S.key(2, tile: large)] = .loading
    }
    store.send(.images(.tileClicked(3)))
  }

  @Test func escOnTheGridGoesBackToProfileCancellingWhatRuns() {
    var store = loaded()
    store.send(
      .images(.backPressed), effects: [S.cancel(0), S.cancel(1), S.cancel(2), S.cancel(3)]
    ) {
      $0.signedIn.path = []
    }
    #expect(store.state.screen.kind == .profile)
    #expect(!store.state.isBusy)
    // Answers on their way change nothing.
    store.send(.images(.pictureLoaded(S.key(0), S.picture)))
    store.send(.images(.listLoaded(.success(S.list(2)))))
  }

  @Test func escWhileTheListLoadsCancelsIt() {
    var store = opened()
    store.send(.images(.backPressed), effects: [.cancel(.imageList)]) { $0.signedIn.path = [] }
  }

  @Test func resizingReflowsAndAsksForTheTilesAtTheNewSize() {
    var store = loaded()
    store.send(.images(.pictureLoaded(S.key(0), S.picture))) {
      $0.images.pictures[S.key(0)] = .ready(S.picture)
    }
    let small = TerminalSize(width: 40, height: 12)
    let tile = ImagesLayout(terminal: small).tile
    store.send(
      .terminalResized(small),
      effects: [S.cancel(1), S.cancel(2), S.cancel(3), S.run(0, tile: tile), S.run(1, tile: tile)]
    ) {
      $0.display.size = small
      $0.images.layout = ImagesLayout(terminal: small)
      $0.images.pictures = [S.key(0, tile: tile): .loading, S.key(1, tile: tile): .loading]
    }
    // Only the height changed: the same tiles, more rows of them in view.
    let tall = TerminalSize(width: 40, height: 40)
    #expect(ImagesLayout(terminal: tall).tile == tile)
    store.send(.terminalResized(tall), effects: (2..<7).map { S.run($0, tile: tile) }) {
      $0.display.size = tall
      $0.images.layout = ImagesLayout(terminal: tall)
      for index in 2..<7 { $0.images.pictures[S.key(index, tile: tile)] = .loading }
    }
    // A resize elsewhere is only remembered; Images opened later is laid out for it.
    var profile = self.profile()
    profile.send(.terminalResized(small)) { $0.display.size = small }
  }

  @Test func scrolledDownAResizeKeepsTheSelectionInView() {
    var store = loaded()
    store.send(
      .images(.moved(.last)),
      effects: [S.cancel(0), S.cancel(1), S.cancel(2), S.cancel(3), S.run(4), S.run(5), S.run(6)]
    ) {
      $0.images.selected = 6
      $0.images.firstRow = 2
      $0.images.pictures = [S.key(4): .loading, S.key(5): .loading, S.key(6): .loading]
    }
    let small = TerminalSize(width: 40, height: 12)
    let tile = ImagesLayout(terminal: small).tile
    store.send(
      .terminalResized(small),
      effects: [S.cancel(4), S.cancel(5), S.cancel(6), S.run(6, tile: tile)]
    ) {
      $0.display.size = small
      $0.images.layout = ImagesLayout(terminal: small)
      $0.images.firstRow = 3
      $0.images.pictures = [S.key(6, tile: tile): .loading]
    }
  }

  @Test func thePicturesUseTheTerminalsColours() {
    var state = AppState.signedInSample
    state.display = Display(size: S.display.size, colors: .shades)
    var store = TestStore(state)
    var images = ImagesState(display: state.display)
    store.send(.profile(.imagesPressed), effects: [.run(.imageList, .imageList)]) {
      $0.signedIn.path = [.images(images)]
    }
    images.load = .loaded
    images.images = S.list(1)
    images.pictures = [S.key(0): .loading]
    store.send(
      .images(.listLoaded(.success(S.list(1)))), effects: [S.run(0, colors: .shades)]
    ) {
      $0.signedIn.path = [.images(images)]
    }
  }

  @Test func loggingOutWhileTilesDecodeCancelsEveryOne() {
    var store = loaded(2)
    store.send(
      .logOutPressed,
      effects: [
        .cancel(.picture(S.key(0))), .cancel(.picture(S.key(1))), .endSession(Sample.session),
      ]
    ) {
      $0.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: "registered@email.com")))
    }
  }

  @Test func keysOfAnImagesScreenUnderneathDoNothing() {
    // Images is only ever on top (opened from Profile), so keys always reach it; answers
    // arrive wherever it is. Here: no Images at all.
    var store = profile()
    store.send(.images(.moved(.down)))
    store.send(.images(.pictureLoaded(S.key(0), S.picture)))
  }
}
