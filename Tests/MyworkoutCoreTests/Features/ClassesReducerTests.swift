import Testing

@testable import MyworkoutCore

/// Classes (SPEC §11): opening, search as you type, paging, the back stack, and signed out the
/// `Log in to watch` modal that carries the catalog over to the signed-in stack.
@Suite struct ClassesReducerTests {
  static func item(_ index: Int, _ title: String = "", instructor: String = "Ada") -> DanceClass {
    DanceClass(
      id: "id\(index)", title: title.isEmpty ? "Class \(index)" : title, instructor: instructor,
      level: .beginner, song: "Song", videoURL: "v", thumbnailSlug: "t.jpg")
  }

  static func page(_ query: String, _ range: Range<Int>, matching: Int, offset: Int = 0)
    -> CatalogPage
  {
    CatalogPage(
      query: query, offset: offset, classes: range.map { item($0) }, matching: matching,
      isCapped: false, total: 351)
  }

  /// The signed-in list with `text` pasted into the search, and the Classes state it then has
  /// (the pause after the paste running); `searched`: the pause over, its search running.
  func pasted(_ text: String, searched: Bool = false) -> (TestStore, ClassesState) {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.searchPasted(text))) {
      expected.search = TextInput(text, limit: FieldLimit.search)
      expected.pendingQuery = text
      $0.signedIn.path = [.classes(expected)]
    }
    guard searched else { return (store, expected) }
    store.send(
      .classes(.searchPauseEnded),
      effects: [.run(.catalogSearch, .catalogPage(query: text, offset: 0, limit: 50))]
    ) {
      expected.pendingQuery = nil
      expected.load = .searching
      $0.signedIn.path = [.classes(expected)]
    }
    return (store, expected)
  }

  static let firstLoad = Effect.run(.catalogSearch, .catalogPage(query: "", offset: 0, limit: 50))

  /// Profile › Classes with the first page loaded.
  func signedInList() -> TestStore {
    var store = TestStore(.signedInSample)
    store.send(.profile(.classesPressed), effects: [Self.firstLoad]) {
      $0.signedIn.path = [.classes(ClassesState())]
    }
    #expect(store.state.running == [.catalogSearch])
    let loaded = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(
      .classes(.pageLoaded(query: "", offset: 0, .success(Self.page("", 0..<50, matching: 351)))),
      effects: Self.watched(loaded)
    ) {
      $0.signedIn.path = [.classes(loaded)]
    }
    return store
  }

  /// The Player a class opens in (80x24, 1×) and the requests it starts.
  static func opened(_ item: DanceClass, account: String = "auth0|ada")
    -> (PlayerState, [Effect])
  {
    let player = PlayerState(danceClass: item)
    let tile = PlayerLayout.pictureTile(for: TerminalSize(width: 80, height: 24))
    var asked = player
    asked.picture = .loading
    asked.pictureTile = tile
    return (
      asked,
      [
        .run(.progressLoad, .loadProgress(account: account, classID: item.id)),
        .run(.playerPicture, .classPicture(slug: "t.jpg", tile: tile, colors: .xterm256)),
      ]
    )
  }

  /// Signed in: the watched % asked for the classes listed.
  static func watched(_ state: ClassesState, account: String = "auth0|ada") -> [Effect] {
    [.run(.watchedPercents, .watchedPercents(account: account, classes: state.classes))]
  }

  static func loaded(_ page: CatalogPage) -> ClassesState {
    var state = ClassesState()
    state.results = page
    state.load = .loaded
    return state
  }

  @Test func cOrTheButtonOpensClassesWithTheFirstFetch() {
    var store = TestStore(.signedInSample)
    store.send(.profile(.form(.focusMoved(.forward)))) { $0.profile.focus = .logOut }
    store.send(.profile(.form(.focusMoved(.forward)))) { $0.profile.focus = .classes }
    store.send(.profile(.form(.enterPressed)), effects: [Self.firstLoad]) {
      $0.signedIn.path = [.classes(ClassesState())]
    }
    #expect(store.state.screen.kind == .classes)
    #expect(subscriptions(store.state).contains(.spinner), "Loading classes… turns")
  }

  @Test func typingWaitsForThePauseThenSearchesOnce() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    for (index, character) in "ann".enumerated() {
      expected.search = TextInput(String("ann".prefix(index + 1)), limit: FieldLimit.search)
      expected.pendingQuery = expected.search.text
      store.send(.classes(.searchEdited(.insert(String(character))))) {
        $0.signedIn.path = [.classes(expected)]
      }
      #expect(subscriptions(store.state).contains(.searchPause(query: expected.search.text)))
    }
    store.send(
      .classes(.searchPauseEnded),
      effects: [.run(.catalogSearch, .catalogPage(query: "ann", offset: 0, limit: 50))]
    ) {
      expected.pendingQuery = nil
      expected.load = .searching
      $0.signedIn.path = [.classes(expected)]
    }
    #expect(
      !subscriptions(store.state).contains(where: {
        if case .searchPause = $0 { return true }
        return false
      }))
    // The old results stay until the new ones arrive.
    #expect(store.state.screen == .classes(expected, signedIn: true))
    let answer = CatalogPage(
      query: "ann", offset: 0, classes: [Self.item(7)], matching: 1, isCapped: false, total: 351)
    expected.results = answer
    store.send(
      .classes(.pageLoaded(query: "ann", offset: 0, .success(answer))),
      effects: Self.watched(expected)
    ) {
      expected.load = .loaded
      $0.signedIn.path = [.classes(expected)]
    }
  }

  @Test func movingNearTheEndLoadsTheNextPageWithoutLatencyOnce() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(
      .classes(.selectionMoved(by: 30)),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 50))]
    ) {
      expected.selected = 30
      expected.loadingMore = true
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.selected = 31
      $0.signedIn.path = [.classes(expected)]
    }
    let more = Self.page("", 50..<100, matching: 351, offset: 50)
    expected.results?.classes += more.classes
    store.send(
      .classes(.pageLoaded(query: "", offset: 50, .success(more))), effects: Self.watched(expected)
    ) {
      expected.loadingMore = false
      $0.signedIn.path = [.classes(expected)]
    }
    #expect(store.state.screen == .classes(expected, signedIn: true))
  }

  @Test func upFromTheFirstRowReturnsToTheFieldAndHomeEndJump() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(
      .classes(.selectionMovedToEnd(last: true)),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 500))]
    ) {
      expected.selected = 49
      expected.loadingMore = true
      expected.endPending = true
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMovedToEnd(last: false))) {
      expected.selected = 0
      expected.endPending = false
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: -1))) {
      expected.focus = .search
      $0.signedIn.path = [.classes(expected)]
    }
  }

  /// SPEC §10: End jumps to the last item. A walk-through's End went 50 rows down the brief's
  /// 351 classes (the pages loaded so far); it now asks for the rest, a large page at a time
  /// with no latency, and selects the last class of all. A move before the end comes stops it.
  @Test func endGoesToTheLastClassOfAll() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(
      .classes(.selectionMovedToEnd(last: true)),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 500))]
    ) {
      expected.selected = 49
      expected.loadingMore = true
      expected.endPending = true
      $0.signedIn.path = [.classes(expected)]
    }
    // A store that gives fewer than asked (a server's own page limit): on from there.
    let part = Self.page("", 50..<200, matching: 351, offset: 50)
    expected.results?.classes += part.classes
    expected.selected = 199
    store.send(
      .classes(.pageLoaded(query: "", offset: 50, .success(part))),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 200, limit: 500))]
        + Self.watched(expected)
    ) {
      $0.signedIn.path = [.classes(expected)]
    }
    let rest = Self.page("", 200..<351, matching: 351, offset: 200)
    expected.results?.classes += rest.classes
    expected.selected = 350
    expected.loadingMore = false
    expected.endPending = false
    store.send(
      .classes(.pageLoaded(query: "", offset: 200, .success(rest))), effects: Self.watched(expected)
    ) {
      $0.signedIn.path = [.classes(expected)]
    }
    #expect(store.state.screen == .classes(expected, signedIn: true))
    #expect(expected.selectedClass?.id == "id350")
  }

  @Test func aMoveBeforeTheEndComesStopsTheWayThere() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(
      .classes(.selectionMovedToEnd(last: true)),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 500))]
    ) {
      expected.selected = 49
      expected.loadingMore = true
      expected.endPending = true
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: -1))) {
      expected.selected = 48
      expected.endPending = false
      $0.signedIn.path = [.classes(expected)]
    }
    let part = Self.page("", 50..<200, matching: 351, offset: 50)
    expected.results?.classes += part.classes
    expected.loadingMore = false
    store.send(
      .classes(.pageLoaded(query: "", offset: 50, .success(part))), effects: Self.watched(expected)
    ) {
      $0.signedIn.path = [.classes(expected)]
    }
  }

  /// Issue 28: a later page that fails is said on the count line, and moving down at the end
  /// asks for it again; the page arriving clears the message.
  @Test func aLaterPageThatFailsIsSaidAndAskedForAgain() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    let more: [Effect] = [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 50))]
    store.send(
      .classes(.selectionMovedToEnd(last: true)),
      effects: [.run(.catalogMore, .catalogPage(query: "", offset: 50, limit: 500))]
    ) {
      expected.selected = 49
      expected.loadingMore = true
      expected.endPending = true
      $0.signedIn.path = [.classes(expected)]
    }
    let error = CatalogError(message: "Can't reach the server. Try again.")
    store.send(.classes(.pageLoaded(query: "", offset: 50, .failure(error)))) {
      expected.endPending = false
      expected.loadingMore = false
      expected.moreFailed =
        "More classes could not be loaded (↓ tries again): Can't reach the server. Try again."
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: 1)), effects: more) {
      expected.loadingMore = true
      $0.signedIn.path = [.classes(expected)]
    }
    let page = Self.page("", 50..<100, matching: 351, offset: 50)
    var after = expected
    after.loadingMore = false
    after.moreFailed = nil
    after.results?.classes += page.classes
    store.send(
      .classes(.pageLoaded(query: "", offset: 50, .success(page))),
      effects: Self.watched(after)
    ) {
      $0.signedIn.path = [.classes(after)]
    }
  }

  @Test func enterOpensTheClassAndEscComesBackToTheListAsItWas() {
    var store = signedInList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: 2))) {
      expected.selected = 2
      $0.signedIn.path = [.classes(expected)]
    }
    let (player, opening) = Self.opened(Self.item(2))
    store.send(.classes(.enterPressed), effects: opening) {
      $0.signedIn.path = [.classes(expected), .player(player)]
    }
    // Back before anything was played: nothing to save, the list as it was (watched 0 %).
    store.send(.player(.backPressed)) {
      expected.watched[Self.item(2).id] = 0
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.escapePressed)) { $0.signedIn.path = [] }
    #expect(store.state.screen.kind == .profile)
  }

  /// Enter in the search field opens the first class that matches what is typed, also when it
  /// comes before the search's answer. A walk-through typed `anne` and pressed Enter while the
  /// spinner turned: the first class of the list as it stood (the whole catalog) opened, one
  /// that did not match, and got a 0 % row. Now Enter searches at once if the pause still runs,
  /// and opens the first match when the answer comes.
  @Test func enterBeforeTheSearchsAnswerOpensTheFirstMatchWhenItComes() {
    var (store, expected) = pasted("ann")
    // Enter in the pause: the search starts now, and nothing opens yet.
    store.send(
      .classes(.enterPressed),
      effects: [.run(.catalogSearch, .catalogPage(query: "ann", offset: 0, limit: 50))]
    ) {
      expected.pendingQuery = nil
      expected.load = .searching
      expected.openWhenFound = true
      $0.signedIn.path = [.classes(expected)]
    }
    // A second Enter while it runs changes nothing.
    store.send(.classes(.enterPressed))
    let answer = CatalogPage(
      query: "ann", offset: 0, classes: [Self.item(7), Self.item(9)], matching: 2,
      isCapped: false, total: 351)
    let (player, opening) = Self.opened(Self.item(7))
    var listed = expected
    listed.results = answer
    store.send(
      .classes(.pageLoaded(query: "ann", offset: 0, .success(answer))),
      effects: Self.watched(listed) + opening
    ) {
      expected.results = answer
      expected.load = .loaded
      expected.openWhenFound = false
      $0.signedIn.path = [.classes(expected), .player(player)]
    }
  }

  /// Enter while a search runs whose answer finds nothing opens nothing, and what is typed
  /// next does not open anything either.
  @Test func enterBeforeAnAnswerThatFindsNothingOpensNothing() {
    var (store, expected) = pasted("zz", searched: true)
    store.send(.classes(.enterPressed)) {
      expected.openWhenFound = true
      $0.signedIn.path = [.classes(expected)]
    }
    let none = CatalogPage(
      query: "zz", offset: 0, classes: [], matching: 0, isCapped: false, total: 351)
    store.send(.classes(.pageLoaded(query: "zz", offset: 0, .success(none)))) {
      expected.results = none
      expected.load = .loaded
      expected.openWhenFound = false
      $0.signedIn.path = [.classes(expected)]
    }
  }

  /// The `Keys` panel opened while an Enter waits for the search's answer: the answer opens
  /// nothing under the panel (a review's find: the Player opened beneath it).
  @Test func theKeysPanelOverAWaitingEnterForgetsIt() {
    var (store, expected) = pasted("ann")
    store.send(
      .classes(.enterPressed),
      effects: [.run(.catalogSearch, .catalogPage(query: "ann", offset: 0, limit: 50))]
    ) {
      expected.pendingQuery = nil
      expected.load = .searching
      expected.openWhenFound = true
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.keysPanelToggled) {
      $0.showsKeys = true
      expected.openWhenFound = false
      $0.signedIn.path = [.classes(expected)]
    }
    let answer = CatalogPage(
      query: "ann", offset: 0, classes: [Self.item(7)], matching: 1, isCapped: false, total: 351)
    var listed = expected
    listed.results = answer
    store.send(
      .classes(.pageLoaded(query: "ann", offset: 0, .success(answer))),
      effects: Self.watched(listed)
    ) {
      expected.results = answer
      expected.load = .loaded
      $0.signedIn.path = [.classes(expected)]
    }
  }

  /// Enter after the search for what is typed failed (the list still shows the catalog as it
  /// was): the search is asked again and its first class opens, not the catalog's first (a
  /// review's find). Another key before the answer forgets the Enter.
  @Test func enterAfterAFailedSearchSearchesAgainAndAnotherKeyForgetsIt() {
    var (store, expected) = pasted("zoe", searched: true)
    store.send(
      .classes(
        .pageLoaded(query: "zoe", offset: 0, .failure(CatalogError(message: "Catalog is away"))))
    ) {
      expected.load = .failed("Catalog is away")
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(
      .classes(.enterPressed),
      effects: [.run(.catalogSearch, .catalogPage(query: "zoe", offset: 0, limit: 50))]
    ) {
      expected.load = .searching
      expected.openWhenFound = true
      $0.signedIn.path = [.classes(expected)]
    }
    store.send(.classes(.selectionMoved(by: 1))) {
      expected.openWhenFound = false
      expected.focus = .list
      $0.signedIn.path = [.classes(expected)]
    }
    let answer = CatalogPage(
      query: "zoe", offset: 0, classes: [Self.item(3)], matching: 1, isCapped: false, total: 351)
    var listed = expected
    listed.results = answer
    store.send(
      .classes(.pageLoaded(query: "zoe", offset: 0, .success(answer))),
      effects: Self.watched(listed)
    ) {
      expected.results = answer
      expected.load = .loaded
      $0.signedIn.path = [.classes(expected)]
    }
  }

  @Test func escClearsANonEmptySearchFirstAndSupersedesTheRunningOne() {
    var (store, expected) = pasted("zoe", searched: true)
    // Esc while it runs: the field empties and a search for everything supersedes it.
    store.send(.classes(.escapePressed), effects: [Self.firstLoad]) {
      expected.search = TextInput(limit: FieldLimit.search)
      $0.signedIn.path = [.classes(expected)]
    }
  }

  @Test func aFailedFirstFetchSaysWhy() {
    var store = TestStore(.signedInSample)
    store.send(.profile(.classesPressed), effects: [Self.firstLoad]) {
      $0.signedIn.path = [.classes(ClassesState())]
    }
    let error = CatalogError.unavailable("Cannot read /x.csv")
    store.send(.classes(.pageLoaded(query: "", offset: 0, .failure(error)))) {
      var failed = ClassesState()
      failed.load = .failed(error.message)
      $0.signedIn.path = [.classes(failed)]
    }
    #expect(store.state.running.isEmpty)
  }

  @Test func anAnswerReachesTheCatalogUnderThePageButKeysDoNot() {
    var store = signedInList()
    let list = Self.loaded(Self.page("", 0..<50, matching: 351))
    let (player, opening) = Self.opened(Self.item(0))
    store.send(.classes(.enterPressed), effects: opening) {
      $0.signedIn.path = [.classes(list), .player(player)]
    }
    store.send(.classes(.searchEdited(.insert("x"))))
    let answer = Self.page("", 50..<51, matching: 351, offset: 50)
    // Not asked for (loadingMore is false): an answer that does not follow the list is dropped.
    store.send(.classes(.pageLoaded(query: "", offset: 60, .success(answer))))
  }

  // MARK: Signed out

  /// Get started › Classes (signed out), loaded.
  func signedOutList() -> TestStore {
    var store = TestStore(.launch(with: .none))
    store.send(.getStarted(.form(.focusMoved(.forward)))) { $0.getStarted.focus = .next }
    store.send(.getStarted(.form(.focusMoved(.forward)))) { $0.getStarted.focus = .browseClasses }
    store.send(.getStarted(.form(.enterPressed)), effects: [Self.firstLoad]) {
      $0.signedOut.path = [.classes(ClassesState())]
    }
    store.send(
      .classes(.pageLoaded(query: "", offset: 0, .success(Self.page("", 0..<50, matching: 351))))
    ) {
      $0.signedOut.path = [.classes(Self.loaded(Self.page("", 0..<50, matching: 351)))]
    }
    return store
  }

  @Test func signedOutEnterOpensLogInToWatchAndEscClosesIt() {
    var store = signedOutList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.enterPressed)) {
      expected.modal = ClassLoginModal(opening: Self.item(0))
      $0.signedOut.path = [.classes(expected)]
    }
    // Keys go to the modal's form, not the list.
    store.send(.classes(.selectionMoved(by: 1)))
    store.send(.classes(.modal(.form(.escapePressed)))) {
      expected.modal = nil
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.escapePressed)) { $0.signedOut.path = [] }
    #expect(store.state.screen.kind == .getStarted)
  }

  @Test func aLoginInTheModalOpensTheClassOverTheCatalogAsItWas() {
    var store = signedOutList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.enterPressed)) {
      expected.modal = ClassLoginModal(opening: Self.item(0))
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.modal(.form(.pasted("registered@email.com"))))) {
      expected.modal?.form.email = TextInput("registered@email.com", limit: FieldLimit.email)
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.modal(.form(.focusMoved(.forward))))) {
      expected.modal?.form.focus = .password
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.modal(.form(.pasted("password"))))) {
      expected.modal?.form.password = TextInput("password", limit: FieldLimit.password)
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(
      .classes(.modal(.form(.enterPressed))),
      effects: [.run(.logIn, .logIn(email: "registered@email.com", password: "password"))]
    ) {
      expected.modal?.form.phase = .running
      expected.modal?.form.focus = .logIn
      $0.signedOut.path = [.classes(expected)]
    }
    #expect(store.state.running == [.logIn])
    // The runner answers a login as `.login(.logInResponse)`; it reaches the modal.
    var kept = expected
    kept.modal = nil
    let (player, opening) = Self.opened(Self.item(0))
    store.send(
      .login(.logInResponse(.success(Sample.session))),
      effects: [.saveSession(Sample.session)] + Self.watched(kept) + opening
    ) {
      $0.root = .signedIn(
        SignedIn(session: Sample.session, path: [.classes(kept), .player(player)]))
    }
    #expect(store.state.screen.kind == .player)
  }

  @Test func createANewAccountFromTheModalAndCancelReturnsToIt() {
    var store = signedOutList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    store.send(.classes(.enterPressed)) {
      expected.modal = ClassLoginModal(opening: Self.item(0))
      $0.signedOut.path = [.classes(expected)]
    }
    for _ in 0..<4 {
      store.send(.classes(.modal(.form(.focusMoved(.forward))))) {
        let next = expected.modal?.form.focus.moved(.forward) ?? .email
        expected.modal?.form.focus = next
        $0.signedOut.path = [.classes(expected)]
      }
    }
    #expect(expected.modal?.form.focus == .createAccount)
    store.send(.classes(.modal(.form(.enterPressed)))) {
      $0.signedOut.path = [.classes(expected), .signup(SignupForm(email: ""))]
    }
    store.send(.signup(.form(.escapePressed))) { $0.signedOut.path = [.classes(expected)] }
    #expect(store.state.screen.kind == .classes)
  }

  /// Issue 24, item 11: `[ Log in ]` with empty fields, then Create a new account, then Esc:
  /// the modal comes back without its old error.
  @Test func returningToTheModalFromSignupClearsItsOldError() {
    var store = signedOutList()
    var expected = Self.loaded(Self.page("", 0..<50, matching: 351))
    expected.modal = ClassLoginModal(opening: Self.item(0))
    store.send(.classes(.enterPressed)) { $0.signedOut.path = [.classes(expected)] }
    store.send(.classes(.modal(.form(.focusMoved(.forward))))) {
      expected.modal?.form.focus = .password
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.modal(.form(.focusMoved(.forward))))) {
      expected.modal?.form.focus = .logIn
      $0.signedOut.path = [.classes(expected)]
    }
    store.send(.classes(.modal(.form(.enterPressed)))) {
      expected.modal?.form.phase = .invalid(Message.allFieldsRequired)
      expected.modal?.form.focus = .email
      $0.signedOut.path = [.classes(expected)]
    }
    #expect(expected.modal?.form.phase == .invalid(Message.allFieldsRequired))
    for _ in 0..<4 {
      store.send(.classes(.modal(.form(.focusMoved(.forward))))) {
        let next = expected.modal?.form.focus.moved(.forward) ?? .email
        expected.modal?.form.focus = next
        $0.signedOut.path = [.classes(expected)]
      }
    }
    #expect(expected.modal?.form.focus == .createAccount)
    #expect(expected.modal?.form.phase == .invalid(Message.allFieldsRequired), "still shown")
    var modal = expected
    store.send(.classes(.modal(.form(.enterPressed)))) {
      $0.signedOut.path = [.classes(modal), .signup(SignupForm(email: ""))]
    }
    store.send(.signup(.form(.escapePressed))) {
      modal.modal?.form.phase = .idle
      $0.signedOut.path = [.classes(modal)]
    }
  }

  @Test func aSignupFromTheModalOpensTheClassSignedIn() {
    var classes = Self.loaded(Self.page("", 0..<50, matching: 351))
    classes.modal = ClassLoginModal(opening: Self.item(3))
    var form = SignupForm(email: "new@email.com")
    form.phase = .running
    var store = TestStore(
      AppState(root: .signedOut(SignedOut(path: [.classes(classes), .signup(form)]))))
    var kept = classes
    kept.modal = nil
    let (player, opening) = Self.opened(Self.item(3), account: "auth0|newcomer")
    store.send(
      .signup(.signUpResponse(.success(Sample.newcomer))),
      effects: [.saveSession(Sample.newcomer)] + Self.watched(kept, account: "auth0|newcomer")
        + opening
    ) {
      $0.root = .signedIn(
        SignedIn(session: Sample.newcomer, path: [.classes(kept), .player(player)]))
    }
  }

  @Test func logOutFromAnySignedInScreenCancelsTheCatalogsRequests() {
    var store = TestStore(.signedInSample)
    store.send(.profile(.classesPressed), effects: [Self.firstLoad]) {
      $0.signedIn.path = [.classes(ClassesState())]
    }
    store.send(.logOutPressed, effects: [.cancel(.catalogSearch), .endSession(Sample.session)]) {
      $0.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: "registered@email.com")))
    }
  }

  @Test func theKeysPanelOpensAndClosesAndAScreenChangeClosesIt() {
    var store = signedInList()
    store.send(.keysPanelToggled) { $0.showsKeys = true }
    store.send(.keysPanelToggled) { $0.showsKeys = false }
    store.send(.keysPanelToggled) { $0.showsKeys = true }
    store.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.showsKeys = false
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
  }

  /// A paste longer than the search takes is cut, and the app's notice says so, signed in and
  /// signed out (a walk-through's long paste was cut without a word).
  @Test func aPasteCutToFitTheSearchSaysSo() {
    let long = String(repeating: "a", count: FieldLimit.search + 20)
    let cut = String(long.prefix(FieldLimit.search))
    for store in [signedInList(), signedOutList()] {
      var state = store.state
      _ = reduce(&state, .classes(.searchPasted(long)))
      #expect(state.notice == Message.pasteCut(limit: FieldLimit.search))
      #expect(Self.searchText(in: state) == cut)
      // A paste that fits says nothing.
      _ = reduce(&state, .classes(.escapePressed))
      _ = reduce(&state, .classes(.searchPasted("hip")))
      #expect(state.notice == nil)
      #expect(Self.searchText(in: state) == "hip")
    }
  }

  /// The search's text on the Classes screen on top, signed in or out.
  static func searchText(in state: AppState) -> String? {
    switch state.root {
    case .signedIn(let signedIn):
      if case .classes(let classes)? = signedIn.path.last { return classes.search.text }
    case .signedOut(let flow):
      if case .classes(let classes)? = flow.path.last { return classes.search.text }
    }
    return nil
  }
}

/// `Log in to watch` starts from the email typed on Get started (part one's Login does): a
/// walk-through typed its email, chose `[ Browse classes ]`, then a class, and met an empty
/// Email field. A text that is not yet an email is not carried over.
@Suite struct LogInToWatchEmailTests {
  func modalForm(afterTyping typed: String) -> LoginForm? {
    var state = AppState.launch(with: .none)
    _ = reduce(&state, .getStarted(.form(.pasted(typed))))
    _ = reduce(&state, .getStarted(.form(.focusMoved(.forward))))
    _ = reduce(&state, .getStarted(.form(.focusMoved(.forward))))
    _ = reduce(&state, .getStarted(.form(.enterPressed)))
    let page = ClassesReducerTests.page("", 0..<50, matching: 351)
    _ = reduce(&state, .classes(.pageLoaded(query: "", offset: 0, .success(page))))
    _ = reduce(&state, .classes(.enterPressed))
    guard case .classes(let classes)? = state.signedOut.path.last else { return nil }
    return classes.modal?.form
  }

  @Test func theEmailTypedOnGetStartedIsTheModalsEmail() {
    let form = modalForm(afterTyping: " Registered@Email.com ")
    #expect(form?.email.text == "Registered@Email.com")
    #expect(form?.focus == .password, "the first empty field has the focus")
    let partial = modalForm(afterTyping: "regis")
    #expect(partial?.email.text == "")
    #expect(partial?.focus == .email)
  }
}
