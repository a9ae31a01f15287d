import Testing

@testable import MyworkoutCore

/// Brief 002's three cases of watched % (SPEC §12), exact: what counts is the union of the
/// media time actually played. At 100× a wall millisecond plays 100 media milliseconds, so
/// 100 ms of wall time is 10 % of the 100-second class.
@Suite struct BriefCasesTests {
  typealias S = PlayerSample
  static let fast = PlaybackSpeed(hundredths: 10_000)

  @Test func replayingTheFirstTenPercentAgainAndAgainIsTenPercent() {
    var store = TestStore(S.opened(speed: Self.fast))
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    var now = 0
    for round in 0..<3 {
      now += 100
      store.send(.clockRead(S.at(now))) {
        $0.playerOnTop.clock = S.at(now)
        $0.playerOnTop.position = 10_000
        $0.playerOnTop.unsavedPlayed = IntervalSet([0..<10_000])
        $0.playerOnTop.unsavedTime = 100
      }
      // Home: back to the start, what was played is saved (merged: the same 10 % again).
      store.send(
        .player(.seekToEndPressed(last: false)),
        effects: [S.update(position: 0, played: [0..<10_000], time: 100)]
      ) {
        $0.playerOnTop.savesInFlight += [
          S.progressUpdate(position: 0, played: [0..<10_000], time: 100)
        ]
        $0.playerOnTop.position = 0
        $0.playerOnTop.progress.watched = IntervalSet([0..<10_000])
        $0.playerOnTop.progress.timeInClass = 100 * (round + 1)
        $0.playerOnTop.unsavedPlayed = IntervalSet()
        $0.playerOnTop.unsavedTime = 0
        $0.playerOnTop.lastSave = S.at(now)
      }
      #expect(store.state.playerOnTop.watchedPercent == 10)
    }
    #expect(store.state.playerOnTop.watched.ranges == [0..<10_000], "merged, never a log")
  }

  @Test func zeroToFifteenThenSeekToTenAndPlayToTwentyFiveIsTwentyFivePercent() {
    var store = TestStore(S.opened(speed: Self.fast))
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.clockRead(S.at(150))) {
      $0.playerOnTop.clock = S.at(150)
      $0.playerOnTop.position = 15_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<15_000])
      $0.playerOnTop.unsavedTime = 150
    }
    store.send(
      .player(.percentPressed(1)),
      effects: [S.update(position: 10_000, played: [0..<15_000], time: 150)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 10_000, played: [0..<15_000], time: 150)
      ]
      $0.playerOnTop.position = 10_000
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 10_000, watched: IntervalSet([0..<15_000]), timeInClass: 150)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(150)
    }
    store.send(.clockRead(S.at(300))) {
      $0.playerOnTop.clock = S.at(300)
      $0.playerOnTop.position = 25_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([10_000..<25_000])
      $0.playerOnTop.unsavedTime = 150
    }
    store.send(
      .player(.playPausePressed),
      effects: [S.update(position: 25_000, played: [10_000..<25_000], time: 150)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 25_000, played: [10_000..<25_000], time: 150)
      ]
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 25_000, watched: IntervalSet([0..<25_000]), timeInClass: 300)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(300)
    }
    #expect(store.state.playerOnTop.watchedPercent == 25)
  }

  @Test func theFirstAndTheLastTenPercentAreTwentyPercent() {
    var store = TestStore(S.opened(speed: Self.fast))
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.clockRead(S.at(100))) {
      $0.playerOnTop.clock = S.at(100)
      $0.playerOnTop.position = 10_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<10_000])
      $0.playerOnTop.unsavedTime = 100
    }
    store.send(
      .player(.percentPressed(9)),
      effects: [S.update(position: 90_000, played: [0..<10_000], time: 100)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 90_000, played: [0..<10_000], time: 100)
      ]
      $0.playerOnTop.position = 90_000
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 90_000, watched: IntervalSet([0..<10_000]), timeInClass: 100)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(100)
    }
    // Played to the end: Finished, and saved at the end.
    store.send(
      .clockRead(S.at(250)),
      effects: [S.update(position: 100_000, played: [90_000..<100_000], time: 150)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 100_000, played: [90_000..<100_000], time: 150)
      ]
      $0.playerOnTop.clock = S.at(250)
      $0.playerOnTop.position = 100_000
      $0.playerOnTop.playback = .finished
      $0.playerOnTop.progress = ClassProgress(
        lastPosition: 100_000, watched: IntervalSet([0..<10_000, 90_000..<100_000]),
        timeInClass: 250)
      $0.playerOnTop.lastSave = S.at(250)
    }
    #expect(store.state.playerOnTop.watchedPercent == 20)
  }
}
