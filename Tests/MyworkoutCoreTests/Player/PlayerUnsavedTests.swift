import Testing

@testable import MyworkoutCore

/// What a failed save carried is kept and goes with the next save, wherever its answer arrives
/// (a walk-through made the data dir read-only, played 3 s, paused and left: the closing save
/// failed after the Player had gone, and those seconds were never saved, even once the dir
/// could be written again).
@Suite struct PlayerUnsavedTests {
  typealias S = PlayerSample

  static let diskFull = ProgressError(
    message: "Progress could not be saved: attempt to write a readonly database")

  /// The Player over a list holding its class, 33 s played at 100× (0.33 s of wall time).
  static func playedThenLeft() -> (AppState, ProgressUpdate) {
    let (opened, _) = PlayerReducerTests.openedOverItsList(speed: PlaybackSpeed(hundredths: 10_000))
    var state = opened
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .clockRead(S.at(330)))
    let effects = reduce(&state, .player(.backPressed))
    guard case .recordProgress(let closing)? = effects.first(where: \.isProgressSave) else {
      Issue.record("no closing save in \(effects)")
      return (state, S.progressUpdate(position: 0))
    }
    return (state, closing)
  }

  /// A visit played and left, its closing save (stamped as the runtime stamps it) still on its
  /// way, and the class opened again, its read given up while that save is on its way (with
  /// where the latest save on its way leaves the class, if given); the stamped save.
  static func reopenedWhileItsSaveIsOnItsWay(latest: KeptPosition? = nil)
    -> (AppState, ProgressUpdate)
  {
    var (state, closing) = playedThenLeft()
    closing.changedAt = 1_800_000_000_000
    _ = reduce(&state, .classes(.enterPressed))
    var error = ProgressError(message: "on its way")
    error.savesOnTheirWay = latest
    _ = reduce(&state, .player(.progressLoaded(.failure(error))))
    return (state, closing)
  }

  static func saves(_ effects: [Effect]) -> [ProgressUpdate] {
    effects.compactMap {
      if case .recordProgress(let update) = $0 { return update }
      return nil
    }
  }

  /// Esc in the Player after a failed save: the closing save tries it once more.
  @Test func leavingThePlayerAfterAFailedSaveTriesItOnceMore() {
    var state = S.opened(speed: PlaybackSpeed(hundredths: 10_000))
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .clockRead(S.at(330)))
    let pause = Self.saves(reduce(&state, .player(.playPausePressed)))
    #expect(pause == [S.progressUpdate(position: 33_000, played: [0..<33_000], time: 330)])
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), pause[0])))
    #expect(state.notice == Self.diskFull.message)
    let closing = Self.saves(reduce(&state, .player(.backPressed)))
    #expect(closing == pause, "the failed save goes again on leaving")
  }

  /// A save every store refuses whole (a bound it would pass) is not kept: sent again it is
  /// refused again, with a notice over whatever plays then.
  @Test func aRefusedClosingSaveIsNotKept() {
    var (state, closing) = Self.playedThenLeft()
    let refused = ProgressError.tooManyClasses(limit: 3)
    _ = reduce(&state, .player(.progressSaved(.failure(refused), closing)))
    #expect(state.notice == refused.message)
    guard case .signedIn(let signedIn) = state.root else {
      Issue.record("not signed in")
      return
    }
    #expect(signedIn.unsavedProgress.isEmpty)
  }

  /// The closing save fails after the Player has gone: kept, and the next visit of the class
  /// shows it (resuming where the person left off) and its first save carries it.
  @Test func aClosingSaveThatFailsGoesWithTheClassesNextSave() {
    var (state, closing) = Self.playedThenLeft()
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    #expect(state.notice == Self.diskFull.message)
    // Opened again: the stored progress is what it was before the failure.
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress()))))
    #expect(state.playerOnTop.watchedPercent == 33)
    #expect(state.playerOnTop.timeInClass == 330)
    #expect(state.playerOnTop.resumeAt == 33_000)
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(1_500)))
    let next = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(
      next == [S.progressUpdate(position: 43_000, played: [0..<33_000], time: 330 + 500)],
      "the failed save's intervals and time go with the next")
    // Saved: nothing of it goes again.
    _ = reduce(&state, .player(.progressSaved(.success(ClassProgress()), next[0])))
    let after = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(after == [S.progressUpdate(position: 53_000)])
  }

  /// Kept for another class than the one playing now: it goes, as its own save, with the
  /// Player's next save; it never joins the class on screen.
  @Test func anotherClasssFailedSaveGoesWithTheNextSaveOfAnyClass() {
    var (state, closing) = Self.playedThenLeft()
    var other = closing
    other.classID = "c2"
    // The class opened again before the answer came.
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress()))))
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), other)))
    #expect(state.playerOnTop.unsavedPlayed.isEmpty, "c2's intervals are not c1's")
    #expect(state.playerOnTop.unsavedTime == 0)
    _ = reduce(
      &state,
      .player(.progressSaved(.success(ClassProgress(watched: IntervalSet([0..<90_000]))), other)))
    #expect(state.playerOnTop.watchedPercent == 0, "nor is c2's answer")
    let next = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(next == [S.progressUpdate(position: 10_000), other])
    // Sent: the save after carries only its own.
    let after = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(after == [S.progressUpdate(position: 20_000)])
  }

  /// Quitting (or logging out) with a failed save kept tries it once more.
  @Test func quittingTriesWhatIsKeptOnceMore() {
    for action in [Action.interruptPressed, .logOutPressed, .terminationRequested(status: 143)] {
      var (state, closing) = Self.playedThenLeft()
      _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
      #expect(Self.saves(reduce(&state, action)) == [closing], "\(action)")
    }
  }

  /// Two failures of the same class are kept as one: intervals merged, time added, the later
  /// position.
  @Test func failuresOfOneClassAddUp() {
    var (state, closing) = Self.playedThenLeft()
    var later = S.progressUpdate(position: 60_000, played: [50_000..<60_000], time: 100)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), later)))
    later.played = IntervalSet([0..<33_000, 50_000..<60_000])
    later.addedTimeInClass = 430
    #expect(Self.saves(reduce(&state, .interruptPressed)) == [later])
  }

  /// A remote save whose answer was lost may have been applied: sent again, its intervals
  /// merge harmlessly, but its time would count twice, so only the intervals are kept.
  @Test func aSaveThatMayHaveBeenAppliedKeepsItsIntervalsNotItsTime() {
    let lost = ProgressError(
      message: "Progress could not be saved: no answer in time", isServerAway: true,
      mayHaveBeenApplied: true)
    var state = S.opened(speed: PlaybackSpeed(hundredths: 10_000))
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .clockRead(S.at(330)))
    let pause = Self.saves(reduce(&state, .player(.playPausePressed)))
    _ = reduce(&state, .player(.progressSaved(.failure(lost), pause[0])))
    #expect(state.playerOnTop.timeInClass == 330, "counted as stored, once")
    #expect(
      Self.saves(reduce(&state, .player(.backPressed)))
        == [S.progressUpdate(position: 33_000, played: [0..<33_000])])
    // After the Player has gone, likewise.
    var (left, closing) = Self.playedThenLeft()
    _ = reduce(&left, .player(.progressSaved(.failure(lost), closing)))
    #expect(
      Self.saves(reduce(&left, .interruptPressed))
        == [S.progressUpdate(position: 33_000, played: [0..<33_000])])
  }

  /// A periodic save fails after the Player has gone and the closing save after it succeeds
  /// (saves run one after another): what is kept still goes, but from where the person left,
  /// not the earlier save's point (a review: the stored resume point moved back a minute).
  @Test func aLaterSaveThatSucceededMovesTheKeptPositionOn() {
    var (state, closing) = Self.playedThenLeft()
    let earlier = S.progressUpdate(position: 20_000, played: [0..<20_000], time: 200)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), earlier)))
    _ = reduce(&state, .player(.progressSaved(.success(ClassProgress()), closing)))
    var expected = earlier
    expected.position = closing.position
    var quitting = state
    #expect(Self.saves(reduce(&quitting, .interruptPressed)) == [expected])
    // Opened again: it resumes where the person left.
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress(lastPosition: 33_000)))))
    #expect(state.playerOnTop.resumeAt == 33_000)
  }

  /// Likewise when the class is open again and its progress is still being read: the closing
  /// save's success, arriving then, is where it resumes.
  @Test func aLaterSaveThatSucceededWhileTheProgressIsReadIsWhereItResumes() {
    var (state, closing) = Self.playedThenLeft()
    let earlier = S.progressUpdate(position: 20_000, played: [0..<20_000], time: 200)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), earlier)))
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressSaved(.success(ClassProgress()), closing)))
    // Read before the closing save was applied.
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress()))))
    #expect(state.playerOnTop.resumeAt == 33_000)
  }

  /// The class opened again with a failed save kept, and its progress cannot be read: leaving
  /// sends what was kept at its own position, never position 0 over the stored resume point.
  @Test func aKeptSaveWhoseClassFailsToLoadKeepsItsPosition() {
    var (state, closing) = Self.playedThenLeft()
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.failure(Self.diskFull))))
    #expect(state.playerOnTop.position == closing.position)
    #expect(Self.saves(reduce(&state, .player(.backPressed))) == [closing])
  }

  /// An earlier visit's save that fails after this visit read the progress: the progress read
  /// never held its time, so the time on screen is what is stored plus what is still to save.
  @Test func anEarlierVisitsFailureAfterTheLoadAddsItsTime() {
    var (state, closing) = Self.playedThenLeft()
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress(timeInClass: 1_000)))))
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    #expect(state.playerOnTop.timeInClass == 1_330)
    #expect(state.playerOnTop.unsavedTime == 330)
  }

  /// The Player's own save sent while the progress is read (Ctrl-Z) whose failure arrives after
  /// the read: the progress read never held its time either.
  @Test func aSaveSentWhileReadingThatFailsAfterTheReadAddsItsTime() {
    var (state, closing) = Self.playedThenLeft()
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    _ = reduce(&state, .classes(.enterPressed))
    let sent = Self.saves(reduce(&state, .suspended))
    #expect(sent == [closing])
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress(timeInClass: 1_000)))))
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    #expect(state.playerOnTop.timeInClass == 1_330)
  }

  /// An earlier visit's closing save fails after this visit read the progress (which did not
  /// have it), the person not having moved: the class resumes where that visit left it, and
  /// leaving sends that position, not the older one the read gave (a seeded model test).
  @Test func anEarlierVisitsFailureAfterTheLoadMovesAnUntouchedResumePoint() {
    var (state, closing) = Self.playedThenLeft()
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress(lastPosition: 20_000)))))
    #expect(state.playerOnTop.resumeAt == 20_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), closing)))
    #expect(state.playerOnTop.resumeAt == 33_000)
    #expect(state.playerOnTop.position == 33_000)
    #expect(Self.saves(reduce(&state, .player(.backPressed))) == [closing])
  }

  /// The runtime gives up a read while the class's earlier save is still on its way (a server
  /// that does not answer); that save, answered after, says where the class resumes while the
  /// person has not moved (the read gave nothing), not taken as stored (a seeded model test).
  @Test func anEarlierVisitsSaveAnsweredAfterAReadGivenUpResumesTheClass() {
    var (state, stamped) = Self.reopenedWhileItsSaveIsOnItsWay()
    #expect(state.playerOnTop.position == 0)
    _ = reduce(
      &state, .player(.progressSaved(.success(ClassProgress(lastPosition: 33_000)), stamped)))
    #expect(state.playerOnTop.resumeAt == 33_000)
    #expect(state.playerOnTop.position == 33_000)
    // Not taken as stored (another device's later position may be): leaving sends it with
    // its own time, which never moves a later one.
    let sent = Self.saves(reduce(&state, .player(.backPressed)))
    #expect(sent.map(\.position) == [33_000])
    #expect(sent.map(\.changedAt) == [1_800_000_000_000])
  }

  /// A read given up while the class's saves were on their way resumes where the latest of
  /// them leaves the class, not at each as it ends (a walk-through saw `Resume at 00:05` for
  /// a visit left at 00:30, and playing from there put 00:08 over 00:30).
  @Test func aReadGivenUpResumesWhereTheLatestSaveOnItsWayLeavesTheClass() {
    var (state, _) = Self.reopenedWhileItsSaveIsOnItsWay(
      latest: KeptPosition(position: 30_000, changedAt: 1_800_000_030_000))
    #expect(state.playerOnTop.resumeAt == 30_000)
    let earlier = ProgressUpdate(
      account: S.account, classID: S.item.id, position: 5_000, changedAt: 1_800_000_005_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), earlier)))
    #expect(state.playerOnTop.position == 30_000)
    let sent = Self.saves(reduce(&state, .player(.backPressed)))
    #expect(sent.map(\.position) == [30_000])
    #expect(sent.map(\.changedAt) == [1_800_000_030_000])
  }

  /// A save of a visit that did not move sends the position it read as "older than any"
  /// (`changed_at` 0): read from a copy kept offline, it may be older than another device's
  /// (a walk-through saw another device's 00:30 put back to 00:00).
  @Test func aVisitThatDidNotMoveLeavesTheStoredPosition() {
    var (state, list) = PlayerReducerTests.openedOverItsList()
    state.signedIn.path = [.classes(list)]
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress(lastPosition: 20_000)))))
    _ = reduce(&state, .clockRead(S.at(0)))
    _ = reduce(&state, .clockRead(S.at(1_500)))
    let sent = Self.saves(reduce(&state, .player(.backPressed)))
    #expect(sent.map(\.position) == [20_000])
    #expect(sent.map(\.changedAt) == [0])
  }

  /// The same save failing: the class resumes there, and the next save sends it with the time
  /// it was made (a later position of another device stays).
  @Test func anEarlierVisitsSaveFailingAfterAReadGivenUpIsSentAgainWithItsTime() {
    var (state, stamped) = Self.reopenedWhileItsSaveIsOnItsWay()
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), stamped)))
    #expect(state.playerOnTop.position == 33_000)
    let sent = Self.saves(reduce(&state, .player(.backPressed)))
    #expect(sent.map(\.position) == [33_000])
    #expect(sent.map(\.changedAt) == [1_800_000_000_000])
  }

  /// A move after a read given up is the person's: an earlier save answered after it does not
  /// move the Player.
  @Test func anEarlierVisitsSaveAnsweredAfterAMoveLeavesThePlayerWhereItIs() {
    var (state, stamped) = Self.reopenedWhileItsSaveIsOnItsWay()
    _ = reduce(&state, .player(.seekPressed(seconds: 10)))
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), stamped)))
    #expect(state.playerOnTop.position == 10_000)
  }

  /// An earlier visit's save of the same position with nothing played is not taken for this
  /// Player's own save (they differ only by the time they were made).
  @Test func anEarlierSaveLikeThisPlayersOwnIsToldApartByItsTime() {
    let own = ProgressUpdate(account: "a", classID: "c1", position: 0, changedAt: 0)
    var earlier = own
    earlier.changedAt = 1_800_000_000_000
    #expect(!own.isSameChange(as: earlier))
    var unstamped = own
    unstamped.changedAt = nil
    #expect(unstamped.isSameChange(as: earlier))
  }

  /// Time in class is the Player open (SPEC §12), its progress being read too: a walk-through
  /// opened a class while the server hung, and the 10 s of `Loading…` before the Player gave
  /// up on the read were missing from the time saved (the wait of a video tried again counted).
  @Test func timeWhileTheProgressIsReadIsTimeInClass() {
    var (state, _) = Self.playedThenLeft()
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(1_700)))
    #expect(state.playerOnTop.unsavedTime == 700)
    _ = reduce(&state, .player(.progressLoaded(.success(ClassProgress()))))
    _ = reduce(&state, .clockRead(S.at(2_000)))
    #expect(state.playerOnTop.unsavedTime == 1_000)
  }

  /// A Player left while its progress is read saves the time it was open with its position
  /// "older than any" (`changed_at` 0): the time counts, and no stored position moves (before,
  /// there was no position to save that time with, and it was lost).
  @Test func aPlayerLeftWhileItsProgressIsReadSavesItsTimeAndMovesNoPosition() {
    var (state, _) = Self.playedThenLeft()
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(11_000)))
    var left = S.progressUpdate(position: 0, time: 10_000)
    left.changedAt = 0
    #expect(Self.saves(reduce(&state, .player(.backPressed))) == [left])
  }

  /// Time saved while the progress is read (Ctrl-Z) goes with a position "older than any":
  /// whether its answer comes before the read or after, failing or not, the class resumes where
  /// the store has it (a kept 0 at 0 would have resumed it at the start).
  @Test(arguments: [false, true], [false, true])
  func timeSavedWhileReadingMovesNoPosition(answeredAfterTheRead: Bool, failing: Bool) {
    var (state, _) = Self.playedThenLeft()
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(3_000)))
    let sent = Self.saves(reduce(&state, .interruptPressed))
    #expect(sent.map(\.changedAt) == [0] && sent.map(\.addedTimeInClass) == [2_000])
    let answer = PlayerAction.progressSaved(
      failing ? .failure(Self.diskFull) : .success(ClassProgress()), sent[0])
    let read = PlayerAction.progressLoaded(.success(ClassProgress(lastPosition: 30_000)))
    for action in answeredAfterTheRead ? [read, answer] : [answer, read] {
      _ = reduce(&state, .player(action))
    }
    #expect(state.playerOnTop.position == 30_000)
    #expect(state.playerOnTop.resumeAt == 30_000)
  }

  /// A seek whose save failed, the Player still open: the position goes with the next save (it
  /// counted as stored, and leaving sent nothing; a seeded model test).
  @Test func aPositionWhoseSaveFailedGoesWithTheNextSave() {
    var state = S.opened()
    let seek = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(seek == [S.progressUpdate(position: 10_000)])
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), seek[0])))
    #expect(Self.saves(reduce(&state, .player(.backPressed))) == seek)
  }

  /// A kept save at position 0 (a seek back to the start whose save failed), the class opened
  /// again and left while its progress is read: the 0 goes (it was compared with the 0 of a
  /// progress not read yet, and lost; a seeded model test).
  @Test func aKeptStartGoesWhileTheProgressIsRead() {
    var (state, closing) = Self.playedThenLeft()
    var start = closing
    start.position = 0
    start.played = IntervalSet()
    start.addedTimeInClass = 0
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), start)))
    _ = reduce(&state, .classes(.enterPressed))
    #expect(Self.saves(reduce(&state, .interruptPressed)) == [start])
  }

  /// A save stamped when it was made, as the runtime sends it.
  static func stamped(_ update: ProgressUpdate, at milliseconds: Int64) -> ProgressUpdate {
    var stamped = update
    stamped.changedAt = milliseconds
    return stamped
  }

  /// Two failed saves of a class kept as one take the more recent position, whichever answer
  /// came last (a kept save sent again, failing after a later one, put its older point back).
  @Test func keptSavesTakeTheMoreRecentPosition() {
    let later = Self.stamped(S.progressUpdate(position: 0, time: 100), at: 2_000)
    let resent = Self.stamped(S.progressUpdate(position: 10_000, time: 50), at: 1_000)
    let merged = later.followed(by: resent)
    #expect(merged.position == 0)
    #expect(merged.changedAt == 2_000)
    #expect(merged.addedTimeInClass == 150)
    #expect(resent.followed(by: later).position == 0)
  }

  /// A save that succeeded moves a kept one's position only when it is at least as recent.
  @Test func anOlderSaveThatSucceededLeavesTheKeptPosition() {
    var (state, closing) = Self.playedThenLeft()
    let kept = Self.stamped(closing, at: 2_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), kept)))
    let older = Self.stamped(S.progressUpdate(position: 10_000), at: 1_000)
    _ = reduce(&state, .player(.progressSaved(.success(ClassProgress()), older)))
    #expect(Self.saves(reduce(&state, .interruptPressed)) == [kept])
  }

  /// While the progress is read, an earlier save's failure replaces the kept position only when
  /// it is at least as recent; a save sent then carries the kept position's time.
  @Test func whileReadingTheMoreRecentKeptPositionStays() {
    var (state, closing) = Self.playedThenLeft()
    let kept = Self.stamped(closing, at: 2_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), kept)))
    _ = reduce(&state, .classes(.enterPressed))
    let older = Self.stamped(S.progressUpdate(position: 10_000), at: 1_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), older)))
    #expect(state.playerOnTop.kept?.position == 33_000)
    let sent = Self.saves(reduce(&state, .suspended))
    #expect(sent.map(\.position) == [33_000])
    #expect(sent.map(\.changedAt) == [2_000])
  }

  /// After a read that failed, the time spent is saved with the position stamped 0 (older than
  /// any stored one, so it stays); once the person moves, the position goes as made now.
  @Test func afterAFailedReadTheTimeGoesWithoutMovingTheStoredPosition() {
    var (state, _) = Self.playedThenLeft()
    _ = reduce(
      &state, .player(.progressSaved(.success(ClassProgress()), S.progressUpdate(position: 33_000)))
    )
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.failure(Self.diskFull))))
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(1_400)))
    let paused = Self.saves(reduce(&state, .suspended))
    #expect(paused.map(\.position) == [0])
    #expect(paused.map(\.changedAt) == [0])
    #expect(paused.map(\.addedTimeInClass) == [400])
    let moved = Self.saves(reduce(&state, .player(.seekPressed(seconds: 10))))
    #expect(moved.map(\.position) == [10_000])
    #expect(moved.map(\.changedAt) == [nil])
  }

  /// A read that failed with a kept position: moving back to 0 is sent (the 0 of a progress
  /// never read is not what is stored).
  @Test func afterAFailedReadAMoveBackToTheStartIsSaved() {
    var (state, _) = Self.playedThenLeft()
    let seek = S.progressUpdate(position: 33_000)
    _ = reduce(&state, .player(.progressSaved(.failure(Self.diskFull), seek)))
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.failure(Self.diskFull))))
    #expect(state.playerOnTop.position == 33_000)
    let moved = Self.saves(reduce(&state, .player(.seekToEndPressed(last: false))))
    #expect(moved.map(\.position) == [0])
  }

  /// Leaving a Player whose progress could not be read: the list keeps the watched % it showed
  /// (the Player's own is only this visit's; watched time only grows).
  @Test func leavingAPlayerThatReadNothingKeepsTheListsPercent() {
    var (state, list) = PlayerReducerTests.openedOverItsList()
    list.watched = [S.item.id: 40]
    state.signedIn.path[0] = .classes(list)
    _ = reduce(&state, .player(.backPressed))
    guard case .classes(let shown)? = state.signedIn.path.last else {
      Issue.record("not back on the list")
      return
    }
    #expect(shown.watched[S.item.id] == 40)
  }

  /// Back from a Player opened with Enter from the search field, the list has the focus: the
  /// next ↓ moves to the next class (a walk-through's first ↓ only entered the list, and the
  /// Enter after it opened the class just left again, G2). Typing still goes to the field.
  @Test func backFromThePlayerTheListHasTheFocus() {
    var (state, list) = PlayerReducerTests.openedOverItsList()
    list.focus = .search
    state.signedIn.path = [.classes(list)]
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.backPressed))
    guard case .classes(let shown)? = state.signedIn.path.last else {
      Issue.record("not back on the list")
      return
    }
    #expect(shown.focus == .list)
  }
}
