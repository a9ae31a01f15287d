import Testing

@testable import MyworkoutCore

/// The Player's rules (SPEC §12) on the exhaustive `TestStore`: opening, resuming, the clock
/// (ticks, sleep, Ctrl-Z, paused time), saves, seeking, speed, leaving, and quitting.
@Suite struct PlayerReducerTests {
  typealias S = PlayerSample

  @Test func enterOpensThePlayerWhichReadsTheProgressThenWaitsPaused() {
    var state = AppState.signedInSample
    var list = ClassesState()
    list.results = CatalogPage(
      query: "", offset: 0, classes: [S.item], matching: 1, isCapped: false, total: 1)
    list.load = .loaded
    state.signedIn.path = [.classes(list)]
    var store = TestStore(state)
    let opened = PlayerState(danceClass: S.item)
    store.send(
      .classes(.enterPressed),
      effects: [.run(.progressLoad, .loadProgress(account: S.account, classID: S.item.id))]
    ) {
      $0.signedIn.path = [.classes(list), .player(opened)]
    }
    #expect(store.state.running == [.progressLoad])
    #expect(!subscriptions(store.state).contains { $0.isClock }, "no clock before it is ready")
    // Keys wait for the progress.
    store.send(.player(.playPausePressed))
    store.send(
      .player(.progressLoaded(.success(ClassProgress(lastPosition: 65_000, timeInClass: 9_000))))
    ) {
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.position = 65_000
      $0.playerOnTop.resumeAt = 65_000
      $0.playerOnTop.progress = ClassProgress(lastPosition: 65_000, timeInClass: 9_000)
      // What the store had: older than any position it may have now.
      $0.playerOnTop.positionChangedAt = 0
    }
    #expect(subscriptions(store.state).contains(.clock(every: nil)), "read before keys only")
    // The first reading sets the base.
    store.send(.clockRead(S.t0)) { $0.playerOnTop.clock = S.t0 }
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.resumeAt = nil
      $0.playerOnTop.lastSave = S.t0
    }
    #expect(subscriptions(store.state).contains(.clock(every: .milliseconds(250))))
  }

  /// While a video shows and plays, its player's reports (four a second) read the clock before
  /// they act, and a slow timer (once a second) reads it too: when the reports stop (a seek that
  /// waits for a stalled server, a player that hangs), the time in class still counts and the
  /// next report is not taken for a machine that slept (walk-throughs saw the class pause
  /// itself). Without a video, while it loads or buffers, the timer reads it when the screen
  /// next changes (`PlayerClockReadingTests`): for this 100-s class, whose bar moves an eighth
  /// of a cell every 164 ms at 80 columns, every tick.
  @Test func theClockTicksSlowlyWhileTheVideoReportsTime() {
    var state = S.opened()
    state.playerOnTop.playback = .playing
    let ticking = Subscription.clock(every: PlayerState.tick)
    for (phase, expected) in [
      (VideoPhase.none, ticking), (.loading, ticking), (.buffering, ticking),
      (.failed("the file is missing"), ticking),
      (.showing, .clock(every: PlayerState.videoTick)),
    ] {
      state.playerOnTop.video = phase
      #expect(subscriptions(state).filter(\.isClock) == [expected], "\(phase)")
    }
    state.playerOnTop.playback = .paused
    #expect(subscriptions(state).filter(\.isClock) == [.clock(every: nil)])
  }

  /// A class left in its first second opens at the start, as one never opened: `Resume at
  /// 00:00` (elapsed rounds down) told the person nothing (a walk-through saw it).
  @Test func aClassLeftInItsFirstSecondOpensAtTheStart() {
    for (left, duration, opensAt) in [(999, 100_000, 0), (1_000, 100_000, 1_000), (400, 500, 0)] {
      var loading = S.opened(duration: duration)
      loading.playerOnTop.playback = .loading
      var store = TestStore(loading)
      store.send(.player(.progressLoaded(.success(ClassProgress(lastPosition: left))))) {
        $0.playerOnTop.playback = .paused
        $0.playerOnTop.position = opensAt
        $0.playerOnTop.progress = ClassProgress(lastPosition: opensAt)
        $0.playerOnTop.resumeAt = opensAt > 0 ? opensAt : nil
        $0.playerOnTop.positionChangedAt = 0
      }
    }
  }

  @Test func aFinishedClassOpensAtTheStart() {
    let state = S.opened(stored: ClassProgress(lastPosition: 100_000))
    #expect(state.playerOnTop.position == 0)
    #expect(state.playerOnTop.resumeAt == nil)
    var loading = state
    loading.playerOnTop.playback = .loading
    var store = TestStore(loading)
    store.send(.player(.progressLoaded(.success(ClassProgress(lastPosition: 100_000))))) {
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.positionChangedAt = 0
    }
  }

  @Test func pausedTimeCountsAtTheNextEventAndPlayingSavesEveryFourSeconds() {
    var store = TestStore(S.opened())
    // Ten seconds paused: nothing wakes; the next reading counts them.
    store.send(.clockRead(S.at(10_000))) {
      $0.playerOnTop.clock = S.at(10_000)
      $0.playerOnTop.unsavedTime = 10_000
    }
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.at(10_000)
    }
    store.send(.clockRead(S.at(12_000))) {
      $0.playerOnTop.clock = S.at(12_000)
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<2_000])
      $0.playerOnTop.unsavedTime = 12_000
    }
    store.send(
      .clockRead(S.at(14_000)),
      effects: [S.update(position: 4_000, played: [0..<4_000], time: 14_000)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 4_000, played: [0..<4_000], time: 14_000)
      ]
      $0.playerOnTop.clock = S.at(14_000)
      $0.playerOnTop.position = 4_000
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 4_000, watched: IntervalSet([0..<4_000]), timeInClass: 14_000)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(14_000)
    }
  }

  @Test func aGapOverTwoSecondsWhilePlayingIsSleepAndCountsForNothing() {
    var store = TestStore(S.opened())
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.clockRead(S.at(250))) {
      $0.playerOnTop.clock = S.at(250)
      $0.playerOnTop.position = 250
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<250])
      $0.playerOnTop.unsavedTime = 250
    }
    // The machine slept an hour: paused where the last tick left it.
    store.send(
      .clockRead(S.at(3_600_250)), effects: [S.update(position: 250, played: [0..<250], time: 250)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 250, played: [0..<250], time: 250)
      ]
      $0.playerOnTop.clock = S.at(3_600_250)
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 250, watched: IntervalSet([0..<250]), timeInClass: 250)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(3_600_250)
    }
  }

  @Test func ctrlZPausesSavesAndTheStoppedTimeIsNotTimeInClass() {
    var store = TestStore(S.opened())
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.clockRead(S.at(1_000))) {
      $0.playerOnTop.clock = S.at(1_000)
      $0.playerOnTop.position = 1_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_000])
      $0.playerOnTop.unsavedTime = 1_000
    }
    store.send(.suspended, effects: [S.update(position: 1_000, played: [0..<1_000], time: 1_000)]) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 1_000, played: [0..<1_000], time: 1_000)
      ]
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 1_000, watched: IntervalSet([0..<1_000]), timeInClass: 1_000)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(1_000)
    }
    // The runtime reads the clock once more before the process stops (a paused Player's
    // clock starts): that is still time in class...
    store.send(.clockRead(S.at(1_000))) { _ in }
    // ...and `fg` an hour later restarts the clock: the hour counts for nothing.
    store.send(.resumed(S.at(3_601_000))) { $0.playerOnTop.clock = S.at(3_601_000) }
    store.send(.clockRead(S.at(3_602_000))) {
      $0.playerOnTop.clock = S.at(3_602_000)
      $0.playerOnTop.unsavedTime = 1_000
    }
  }

  @Test func endIsFinishedWithNothingPlayedAndSpacePlaysFromTheStart() {
    var store = TestStore(S.opened())
    store.send(.player(.seekToEndPressed(last: true)), effects: [S.update(position: 100_000)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 100_000)]
      $0.playerOnTop.position = 100_000
      $0.playerOnTop.playback = .finished
      $0.playerOnTop.progress.lastPosition = 100_000
      $0.playerOnTop.lastSave = S.t0
    }
    #expect(store.state.playerOnTop.watchedPercent == 0)
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.position = 0
      $0.playerOnTop.playback = .playing
    }
    // End again: what is stored already says the end, so there is nothing to save.
    store.send(.player(.seekToEndPressed(last: true))) {
      $0.playerOnTop.position = 100_000
      $0.playerOnTop.playback = .finished
    }
    // ← from Finished pauses 5 s before the end.
    store.send(.player(.seekPressed(seconds: -5)), effects: [S.update(position: 95_000)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 95_000)]
      $0.playerOnTop.position = 95_000
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 95_000
    }
    // Seeking before the start stops at 0; a seek that changes nothing saves nothing.
    store.send(.player(.seekToEndPressed(last: false)), effects: [S.update(position: 0)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0)]
      $0.playerOnTop.position = 0
      $0.playerOnTop.progress.lastPosition = 0
    }
    store.send(.player(.seekPressed(seconds: -5)))
  }

  @Test func aClickOnTheBarSeeksThere() {
    var store = TestStore(S.opened(stored: ClassProgress(lastPosition: 5_000)))
    store.send(.player(.barClicked(milliseconds: 42_000)), effects: [S.update(position: 42_000)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 42_000)]
      $0.playerOnTop.position = 42_000
      $0.playerOnTop.resumeAt = nil
      $0.playerOnTop.progress.lastPosition = 42_000
      $0.playerOnTop.lastSave = S.t0
    }
  }

  @Test func speedStepsThroughHalfToDoubleAndKeepsAStartOutsideThem() {
    var store = TestStore(S.opened())
    for hundredths in [125, 150, 200, 200] {
      store.send(.player(.speedChanged(faster: true))) {
        $0.playerOnTop.speed = PlaybackSpeed(hundredths: hundredths)
      }
    }
    var fast = S.opened(speed: PlaybackSpeed(hundredths: 10_000))
    store = TestStore(fast)
    store.send(.player(.speedChanged(faster: true)))
    store.send(.player(.speedChanged(faster: false))) {
      $0.playerOnTop.speed = PlaybackSpeed(hundredths: 200)
    }
    fast = S.opened(speed: PlaybackSpeed(hundredths: 25))
    store = TestStore(fast)
    store.send(.player(.speedChanged(faster: false)))
    store.send(.player(.speedChanged(faster: true))) {
      $0.playerOnTop.speed = PlaybackSpeed(hundredths: 50)
    }
  }

  /// Space at 100×, and the clock 330 ms later: 33 s of the 100-s class played, not yet saved.
  static func playThirtyThreeSeconds(_ store: inout TestStore) {
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.clockRead(S.at(330))) {
      $0.playerOnTop.clock = S.at(330)
      $0.playerOnTop.position = 33_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<33_000])
      $0.playerOnTop.unsavedTime = 330
    }
  }

  /// `S.opened(speed:)` over a loaded list that holds its class, and that list.
  static func openedOverItsList(speed: PlaybackSpeed = .normal) -> (AppState, ClassesState) {
    var opened = S.opened(speed: speed)
    var list = ClassesState()
    list.load = .loaded
    list.results = CatalogPage(
      query: "", offset: 0, classes: [opened.playerOnTop.danceClass], matching: 1,
      isCapped: false, total: 1)
    opened.signedIn.path[0] = .classes(list)
    return (opened, list)
  }

  @Test func escSavesGoesBackAndTheListShowsTheWatchedPercent() {
    var store = TestStore(S.opened(speed: PlaybackSpeed(hundredths: 10_000)))
    Self.playThirtyThreeSeconds(&store)
    store.send(
      .player(.backPressed), effects: [S.update(position: 33_000, played: [0..<33_000], time: 330)]
    ) {
      var list = ClassesState()
      list.load = .loaded
      list.watched = [S.item.id: 33]
      $0.signedIn.path = [.classes(list)]
    }
  }

  /// The closing save's answer comes after the Player has gone: the list shows what is stored
  /// now, with another copy's (or device's) intervals of the class, not only this visit's (a
  /// walk-through saw 12 % in the list and 24 % on reopening).
  @Test func theClosingSavesAnswerShowsInTheList() {
    let (opened, listed) = Self.openedOverItsList()
    var list = listed
    let item = opened.playerOnTop.danceClass
    var store = TestStore(opened)
    store.send(.player(.backPressed)) {
      list.watched = [item.id: 0]
      list.focus = .list
      $0.signedIn.path = [.classes(list)]
    }
    let update = ProgressUpdate(account: S.account, classID: item.id, position: 0)
    let stored = ClassProgress(
      lastPosition: 0, watched: IntervalSet([0..<3_000, 10_000..<13_000]), timeInClass: 6_000)
    store.send(.player(.progressSaved(.success(stored), update))) {
      list.watched = [item.id: 6]
      $0.signedIn.path = [.classes(list)]
    }
  }

  /// Remote mode answers a save with what is known here (the changes still waiting for the
  /// server), not the class's whole progress: such an answer must not pull the list's % below
  /// what the Player showed (a walk-through saw 26 % in the Player and 0 % in the list, online;
  /// 12 % and 3 % offline). Watched intervals only grow, so the list keeps the larger.
  @Test func aClosingSavesAnswerBelowWhatThePlayerShowedLeavesTheListAsItWas() {
    let (opened, listed) = Self.openedOverItsList(speed: PlaybackSpeed(hundredths: 10_000))
    var list = listed
    let item = opened.playerOnTop.danceClass
    var store = TestStore(opened)
    Self.playThirtyThreeSeconds(&store)
    let saved = S.progressUpdate(position: 33_000, played: [0..<33_000], time: 330)
    store.send(.player(.backPressed), effects: [.recordProgress(saved)]) {
      list.watched = [item.id: 33]
      list.focus = .list
      $0.signedIn.path = [.classes(list)]
    }
    let waitingOnly = ClassProgress(
      lastPosition: 33_000, watched: IntervalSet([30_000..<33_000]), timeInClass: 330)
    store.send(.player(.progressSaved(.success(waitingOnly), saved)))
  }

  /// A save made after one that failed: the notice that saves fail no longer holds and goes
  /// (a walk-through read `database is locked` under the saves that followed, until a key).
  /// Another notice stays.
  @Test func aSaveMadeClearsTheNoticeThatSavesFail() {
    var state = S.opened()
    let update = ProgressUpdate(
      account: S.account, classID: S.item.id, position: 7_000, played: IntervalSet([0..<7_000]),
      addedTimeInClass: 7_000)
    let error = ProgressError(message: "Progress could not be saved: database is locked")
    _ = reduce(&state, .player(.progressSaved(.failure(error), update)))
    #expect(state.notice == error.message)
    let stored = ClassProgress(
      lastPosition: 7_000, watched: IntervalSet([0..<7_000]), timeInClass: 7_000)
    _ = reduce(&state, .player(.progressSaved(.success(stored), update)))
    #expect(state.notice == nil)
    state.notice = "Another notice"
    _ = reduce(&state, .player(.progressSaved(.success(stored), update)))
    #expect(state.notice == "Another notice")
    // Joined to another notice (both raised before a key): only the saves' part goes.
    _ = reduce(&state, .player(.progressSaved(.failure(error), update)))
    #expect(state.notice == "Another notice; " + error.message)
    _ = reduce(&state, .player(.progressSaved(.success(stored), update)))
    #expect(state.notice == "Another notice")
  }

  @Test func aFailedSaveIsKeptForTheNextOneAndSaysSo() {
    var store = TestStore(S.opened())
    let update = ProgressUpdate(
      account: S.account, classID: S.item.id, position: 7_000, played: IntervalSet([0..<7_000]),
      addedTimeInClass: 7_000)
    let error = ProgressError(message: "Progress could not be saved: disk I/O error")
    store.send(.player(.progressSaved(.failure(error), update))) {
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<7_000])
      $0.playerOnTop.unsavedTime = 7_000
      $0.notice = error.message
    }
    // The next save carries it.
    store.send(
      .player(.seekPressed(seconds: 5)),
      effects: [S.update(position: 5_000, played: [0..<7_000], time: 7_000)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 5_000, played: [0..<7_000], time: 7_000)
      ]
      $0.notice = nil
      $0.playerOnTop.position = 5_000
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 5_000, watched: IntervalSet([0..<7_000]), timeInClass: 7_000)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.t0
    }
    // Another copy's intervals arrive with an answer and join ours.
    let stored = ClassProgress(
      lastPosition: 1, watched: IntervalSet([0..<7_000, 50_000..<60_000]), timeInClass: 20_000)
    store.send(.player(.progressSaved(.success(stored), update))) {
      $0.playerOnTop.progress.watched = IntervalSet([0..<7_000, 50_000..<60_000])
      $0.playerOnTop.progress.timeInClass = 20_000
    }
    #expect(store.state.playerOnTop.watchedPercent == 17)
  }

  @Test func quittingLoggingOutOrExpiringSavesFirst() {
    var opened = S.opened()
    opened.playerOnTop.unsavedTime = 3_000
    var store = TestStore(opened)
    store.send(
      .interruptPressed, effects: [S.update(position: 0, time: 3_000), .quit(status: 130)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0, time: 3_000)]
      $0.playerOnTop.progress.timeInClass = 3_000
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.t0
    }
    store = TestStore(opened)
    store.send(
      .terminationRequested(status: 143),
      effects: [S.update(position: 0, time: 3_000), .quit(status: 143)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0, time: 3_000)]
      $0.playerOnTop.progress.timeInClass = 3_000
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.t0
    }
    store = TestStore(opened)
    store.send(
      .logOutPressed, effects: [S.update(position: 0, time: 3_000), .endSession(Sample.session)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0, time: 3_000)]
      $0.root = .signedOut(SignedOut(getStarted: GetStartedForm(email: "registered@email.com")))
    }
    store = TestStore(opened)
    store.send(
      .sessionExpired, effects: [S.update(position: 0, time: 3_000), .endSession(Sample.session)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0, time: 3_000)]
      $0.root = .signedOut(
        SignedOut(path: [.sessionExpired(SessionExpiredScreen(email: "registered@email.com"))]))
    }
  }

  @Test func aClassWithoutADurationPlaysAsTenMinutes() {
    let state = S.opened(duration: 0)
    #expect(state.playerOnTop.duration == 600_000)
  }

  @Test func speedText() {
    #expect(PlaybackSpeed(text: "1.5")?.text == "1.5×")
    #expect(PlaybackSpeed(text: "0.75")?.text == "0.75×")
    #expect(PlaybackSpeed(text: "100")?.text == "100×")
    #expect(PlaybackSpeed(text: "0.25")?.text == "0.25×")
    #expect(PlaybackSpeed(text: "2.05")?.text == "2.05×")
    for bad in ["0.2", "101", "", "1.", ".5", "-1", "+1", "1.234", "abc", "1e2"] {
      #expect(PlaybackSpeed(text: bad) == nil, "\(bad)")
    }
  }
}

/// Issue 28: while every save fails (a full disk), the time in class on screen is the wall
/// time the Player was open, not that time plus each failed save's share again.
@Suite struct PlayerFailedSaveTests {
  typealias S = PlayerSample

  @Test func failedSavesDoNotCountTheirTimeTwiceOnScreen() {
    var state = S.opened()
    _ = reduce(&state, .clockRead(S.t0))
    _ = reduce(&state, .player(.playPausePressed))
    let error = ProgressError(message: "Progress could not be saved: database or disk is full")
    var saves = 0
    for second in 1...16 {
      let effects = reduce(&state, .clockRead(S.at(second * 1_000)))
      for case .recordProgress(let update) in effects {
        saves += 1
        _ = reduce(&state, .player(.progressSaved(.failure(error), update)))
      }
      #expect(state.playerOnTop.timeInClass == second * 1_000, "after \(second) s")
    }
    #expect(saves >= 3)
  }

  /// A stored time past every bound (a server that had none) shows as the bound, and Space
  /// and the clock go on without trapping.
  @Test func aStoredTimePastTheBoundsNeitherTrapsNorOverflows() {
    var state = S.opened(stored: ClassProgress(timeInClass: Int.max))
    _ = reduce(&state, .clockRead(S.t0))
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .clockRead(S.at(5_000)))
    _ = reduce(&state, .player(.playPausePressed))
    #expect(state.playerOnTop.timeInClass <= 100 * 366 * 86_400_000)
  }
}
