import Testing

@testable import MyworkoutCore

/// Remote mode's outbox on the screen (SPEC §18): the header's words, and the question asked
/// before logging out with changes the server does not have yet.
@Suite struct SyncReducerTests {
  let backToGetStarted = SignedOut(getStarted: GetStartedForm(email: "registered@email.com"))

  static func status(_ waiting: Int, offline: Bool, account: String = "auth0|ada") -> SyncStatus {
    SyncStatus(account: account, waiting: waiting, offline: offline)
  }

  @Test(
    arguments: [
      (0, false, nil), (0, true, nil), (1, true, "offline — 1 change waiting"),
      (3, true, "offline — 3 changes waiting"), (3, false, "syncing…"),
    ] as [(Int, Bool, String?)])
  func theHeaderSaysTheStateOnlyWhenItIsNotPlain(waiting: Int, offline: Bool, text: String?) {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(waiting, offline: offline))) {
      $0.sync = Self.status(waiting, offline: offline)
    }
    #expect(store.state.syncText == text)
  }

  @Test func anotherAccountsOutboxIsNotShown() {
    var store = TestStore(.signedInSample)
    let other = Self.status(3, offline: true, account: "auth0|someone-else")
    store.send(.syncChanged(other))
    #expect(store.state.syncText == nil)
    // Nor does it hold up logging out.
    store.send(.logOutPressed, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(backToGetStarted)
    }
  }

  /// Issue 28: another account's outbox (still counting its changes for its next log-in)
  /// reporting after ours must not hide ours: the header keeps ours, and Ctrl-O asks.
  @Test func anotherAccountsReportDoesNotHideOurs() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(1, offline: true))) {
      $0.sync = Self.status(1, offline: true)
    }
    store.send(.syncChanged(Self.status(0, offline: true, account: "auth0|someone-else")))
    #expect(store.state.syncText == "offline — 1 change waiting")
    store.send(.logOutPressed) {
      $0.logOutConfirmation = LogOutConfirmation(waiting: 1)
    }
  }

  /// Changes put aside stay visible: counted in the header and by the log-out question.
  @Test func changesPutAsideAreCountedAndAskedAbout() {
    var store = TestStore(.signedInSample)
    let aside = SyncStatus(account: "auth0|ada", waiting: 0, offline: false, aside: 2)
    store.send(.syncChanged(aside)) { $0.sync = aside }
    #expect(store.state.syncText == "2 changes put aside")
    store.send(.logOutPressed) {
      $0.logOutConfirmation = LogOutConfirmation(waiting: 2)
    }
    let both = SyncStatus(account: "auth0|ada", waiting: 1, offline: true, aside: 2)
    store.send(.syncChanged(both)) { $0.sync = both }
    #expect(store.state.syncText == "offline — 3 changes waiting")
  }

  /// A change refused for the session itself: the expiry screen (log in again); the changes
  /// wait in the outbox for that log-in.
  @Test func aSessionRefusedOnAChangeAsksToLogInAgain() {
    var store = TestStore(.signedInSample)
    let refused = SyncStatus(account: "auth0|ada", waiting: 2, offline: true, sessionRefused: true)
    store.send(.syncChanged(refused), effects: [.endSession(Sample.session)]) {
      $0.sync = refused
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
  }

  @Test func loggingOutWithNothingWaitingAsksNothing() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(0, offline: false))) {
      $0.sync = Self.status(0, offline: false)
    }
    store.send(.logOutPressed, effects: [.endSession(Sample.session)]) {
      $0.root = .signedOut(backToGetStarted)
    }
  }

  @Test func loggingOutWithChangesWaitingAsksFirstAndStayKeepsEverything() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(3, offline: true))) {
      $0.sync = Self.status(3, offline: true)
    }
    store.send(.logOutPressed) { $0.logOutConfirmation = LogOutConfirmation(waiting: 3) }
    #expect(
      store.state.logOutConfirmation?.question
        == "3 changes have not reached the server yet. Log out anyway?")
    #expect(store.state.logOutConfirmation?.focus == .stay)
    store.send(.logOutConfirmation(.pressed(.stay))) { $0.logOutConfirmation = nil }
    #expect(store.state.session == Sample.session)
  }

  /// Asked in the Player (Ctrl-O) while its video plays: the video goes on under the question,
  /// and staying leaves the class as it was (a walk-through found the player process ended by
  /// the question and a dead Player after "Stay logged in"); logging out ends it.
  @Test func theQuestionLeavesTheVideoPlayingUntilTheAnswerIsLogOut() {
    var state = PlayerVideoTests.showing()
    state.sync = Self.status(2, offline: true)
    var asking = state
    let asked = reduce(&asking, .logOutPressed)
    #expect(asking.logOutConfirmation == LogOutConfirmation(waiting: 2))
    #expect(!asked.contains(.video(.close)), "\(asked)")
    var stayed = asking
    _ = reduce(&stayed, .logOutConfirmation(.pressed(.stay)))
    #expect(stayed.playerOnTop.video == .showing)
    var leaving = asking
    let left = reduce(&leaving, .logOutConfirmation(.pressed(.logOut)))
    #expect(left.contains(.video(.close)), "\(left)")
    #expect(leaving.session == nil)
  }

  @Test func theLogOutButtonOnProfileAsksToo() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(1, offline: false))) {
      $0.sync = Self.status(1, offline: false)
    }
    store.send(.profile(.form(.focusMoved(.forward)))) { $0.profile.focus = .logOut }
    store.send(.profile(.form(.enterPressed))) {
      $0.logOutConfirmation = LogOutConfirmation(waiting: 1)
    }
    #expect(
      store.state.logOutConfirmation?.question
        == "1 change has not reached the server yet. Log out anyway?")
  }

  @Test func answeringLogOutLogsOut() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(2, offline: true))) {
      $0.sync = Self.status(2, offline: true)
    }
    store.send(.logOutPressed) { $0.logOutConfirmation = LogOutConfirmation(waiting: 2) }
    store.send(.logOutConfirmation(.focusMoved)) { $0.logOutConfirmation?.focus = .logOut }
    store.send(.logOutConfirmation(.focusMoved)) { $0.logOutConfirmation?.focus = .stay }
    store.send(.logOutConfirmation(.pressed(.logOut)), effects: [.endSession(Sample.session)]) {
      $0.logOutConfirmation = nil
      $0.root = .signedOut(backToGetStarted)
    }
  }

  @Test func anExpiryWhileAskingEndsTheQuestion() {
    var store = TestStore(.signedInSample)
    store.send(.syncChanged(Self.status(2, offline: true))) {
      $0.sync = Self.status(2, offline: true)
    }
    store.send(.logOutPressed) { $0.logOutConfirmation = LogOutConfirmation(waiting: 2) }
    store.send(.sessionExpired, effects: [.endSession(Sample.session)]) {
      $0.logOutConfirmation = nil
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
  }

  @Test func anAnswerWithNoQuestionOpenDoesNothing() {
    var store = TestStore(.signedInSample)
    store.send(.logOutConfirmation(.pressed(.logOut)))
    store.send(.logOutConfirmation(.focusMoved))
  }
}
