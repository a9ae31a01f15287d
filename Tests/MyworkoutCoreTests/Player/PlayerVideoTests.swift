import Testing

@testable import MyworkoutCore

/// The Player with a video (SPEC §19): the video player's reports move the position, only
/// media time actually shown counts as watched (a loop's repeat once, buffering not at all),
/// and a video that fails leaves §12's clock in charge.
@Suite struct PlayerVideoTests {
  typealias S = PlayerSample

  /// The 100-second sample class with its video showing (320x180) at 80x24, paused at 0.
  static func showing() -> AppState {
    var state = S.opened()
    state.display.video = true
    state.playerOnTop.video = .showing
    state.playerOnTop.videoSize = PixelSize(width: 320, height: 180)
    state.playerOnTop.videoFit = VideoFit(
      tile: PlayerLayout.pictureTile(for: state.display.size), videoWidth: 320, videoHeight: 180)
    return state
  }

  /// `f` at 80x24: all 24 rows but the last, 16:9, as VideoFit says.
  static func enterFullScreen(_ store: inout TestStore) {
    let fit = VideoFit(tile: TileSize(columns: 80, rows: 23), videoWidth: 320, videoHeight: 180)
    store.send(
      .player(.fullScreenPressed),
      effects: [.video(.size(width: fit.pixelWidth, height: fit.pixelHeight))]
    ) {
      $0.playerOnTop.fullScreen = true
      $0.playerOnTop.videoFit = fit
    }
  }

  /// A class whose video is streamed (remote mode, or an absolute URL in the catalog).
  static let streamURL = "http://127.0.0.1:8080/videos/v.mp4"

  /// `showing()` for a class streamed from `streamURL`.
  static func showingStream() -> AppState {
    var state = showing()
    let item = state.playerOnTop.danceClass
    state.playerOnTop.danceClass = DanceClass(
      id: item.id, title: item.title, instructor: item.instructor, level: item.level,
      song: item.song, videoURL: streamURL, thumbnailSlug: "", duration: item.duration)
    return state
  }

  /// `showingStream()` after its stream stopped mid-class (`no connection`), standing
  /// `playback` at `position`.
  static func stoppedStream(_ playback: PlayerState.Playback, at position: Int) -> AppState {
    var state = showingStream()
    state.playerOnTop.video = .failed("no connection")
    state.playerOnTop.streamStoppedMidClass = true
    state.playerOnTop.playback = playback
    state.playerOnTop.position = position
    return state
  }

  /// Space on a stream stopped at 500 ms, the clock reading `clock`: it is opened again there.
  static func spaceTriesTheStreamAt500(_ store: inout TestStore, clock: Int) {
    store.send(
      .player(.playPausePressed),
      effects: [
        .video(.open(source: streamURL)), .video(.seek(milliseconds: 500)), .video(.play),
      ]
    ) {
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.at(clock)
      $0.playerOnTop.video = .loading
    }
  }

  static func playing(_ showing: AppState = showing()) -> TestStore {
    var store = TestStore(showing)
    store.send(.player(.playPausePressed), effects: [.video(.play)]) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    return store
  }

  /// Played from 0 to 500 ms, then the video failed (`reason`) mid-class: what was shown is
  /// saved, nothing after it counts, and the class stands paused at 500 as the clock reads 1 s.
  static func stoppedAt500(_ showing: AppState, because reason: String, stream: Bool)
    -> TestStore
  {
    var store = playing(showing)
    store.send(.player(.video(.time(milliseconds: 500)))) {
      $0.playerOnTop.position = 500
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<500])
    }
    store.send(
      .player(.video(.failed(reason))), effects: [S.update(position: 500, played: [0..<500])]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 500, played: [0..<500])]
      $0.playerOnTop.video = .failed(reason)
      $0.playerOnTop.streamStoppedMidClass = stream
      $0.playerOnTop.videoFit = nil
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 500
      $0.playerOnTop.progress.watched = IntervalSet([0..<500])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
    store.send(.clockRead(S.at(1_000))) {
      $0.playerOnTop.clock = S.at(1_000)
      $0.playerOnTop.unsavedTime = 1_000
    }
    #expect(store.state.playerOnTop.position == 500)
    return store
  }

  @Test func aClassWithAVideoOpensItAndAsksForThePictureOnceItsSizeIsKnown() {
    var display = Display(video: true)
    display.size = TerminalSize(width: 80, height: 24)
    let (state, effects) = PlayerReducer.opened(
      S.item, account: S.account, speed: .normal, display: display)
    #expect(state.video == .loading)
    #expect(effects.contains(.video(.open(source: "v"))))
    var player = state
    player.playback = .paused
    let answer = PlayerVideoReducer.reduce(
      &player, .ready(durationMilliseconds: 100_000, width: 320, height: 180, hasSound: true),
      account: S.account, display: display)
    // 80x24: the picture area is 76x14 cells; 16:9 at 14 rows is 50 cells across (a cell is
    // twice as tall as wide), two pixels a cell each way.
    #expect(PlayerLayout.pictureTile(for: display.size) == TileSize(columns: 76, rows: 14))
    #expect(
      player.videoFit
        == VideoFit(tile: TileSize(columns: 76, rows: 14), videoWidth: 320, videoHeight: 180))
    #expect(player.videoFit?.columns == 50 && player.videoFit?.rows == 14)
    #expect(answer == [.video(.size(width: 100, height: 28))])
  }

  /// The video's pictures change size mid-class (a stream that switched quality, clips joined
  /// end to end): the player says `ready` again with the new size, and the picture is fitted to
  /// it; the class plays on where it stood.
  @Test func aNewPictureSizeMidClassFitsThePictureAgain() {
    var store = Self.playing()
    store.send(.player(.video(.shown(milliseconds: 1_000)))) {
      $0.playerOnTop.position = 1_000
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_000])
    }
    let square = VideoFit(
      tile: PlayerLayout.pictureTile(for: store.state.display.size), videoWidth: 180,
      videoHeight: 180)
    #expect(square.columns == 28 && square.rows == 14)
    store.send(
      .player(
        .video(.ready(durationMilliseconds: 100_000, width: 180, height: 180, hasSound: true))),
      effects: [.video(.size(width: square.pixelWidth, height: square.pixelHeight))]
    ) {
      $0.playerOnTop.videoSize = PixelSize(width: 180, height: 180)
      $0.playerOnTop.videoDuration = 100_000
      $0.playerOnTop.videoFit = square
    }
    store.send(.player(.video(.shown(milliseconds: 1_250)))) {
      $0.playerOnTop.position = 1_250
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_250])
    }
  }

  /// A class whose `videoUrl` is empty says so (`No video: this class has none`, SPEC §19: the
  /// source is missing) and plays on the clock; a walk-through saw only `❚❚ Paused`.
  @Test func aClassWithoutAVideoSaysSoAndPlaysOnTheClock() {
    let item = DanceClass(
      id: S.item.id, title: S.item.title, instructor: S.item.instructor, level: S.item.level,
      song: S.item.song, videoURL: "", thumbnailSlug: S.item.thumbnailSlug,
      duration: S.item.duration)
    let (state, effects) = PlayerReducer.opened(
      item, account: S.account, speed: .normal, display: Display(video: true))
    #expect(state.video == .failed("this class has none"))
    #expect(!state.video.drivesPosition)
    #expect(!effects.contains { if case .video = $0 { true } else { false } })
  }

  @Test func withoutAVideoPlayerTheClassPlaysOnTheClockAsBefore() {
    let (state, effects) = PlayerReducer.opened(
      S.item, account: S.account, speed: .normal, display: Display())
    #expect(state.video == .none)
    #expect(!effects.contains { if case .video = $0 { true } else { false } })
  }

  @Test func theClockCountsTimeInClassAndThePicturesMoveThePosition() {
    var store = Self.playing()
    store.send(.clockRead(S.at(250))) {
      $0.playerOnTop.clock = S.at(250)
      $0.playerOnTop.unsavedTime = 250
    }
    store.send(.player(.video(.time(milliseconds: 240)))) {
      $0.playerOnTop.position = 240
      $0.playerOnTop.positionReadAt = S.at(250)
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<240])
    }
    store.send(.player(.video(.shown(milliseconds: 1_000)))) {
      $0.playerOnTop.position = 1_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_000])
    }
    // A report from before a seek (behind, or far ahead) plays nothing.
    store.send(.player(.video(.time(milliseconds: 500))))
    store.send(.player(.video(.time(milliseconds: 9_000))))
  }

  /// The clock says the app stood still (a sleep, or the app stopped from outside) while the
  /// video's player may have run on: what it reports next (a backlog of pictures nobody saw,
  /// its end) is not believed, and play goes on from where the app stood (a walk-through saw
  /// 9 s counted as watched for 1 s of play after a stop).
  @Test func afterAStandstillTheVideoIsPutBackNotBelieved() {
    var store = Self.playing()
    store.send(.clockRead(S.at(250))) {
      $0.playerOnTop.clock = S.at(250)
      $0.playerOnTop.unsavedTime = 250
    }
    store.send(.player(.video(.time(milliseconds: 250)))) {
      $0.playerOnTop.position = 250
      $0.playerOnTop.positionReadAt = S.at(250)
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<250])
    }
    store.send(
      .clockRead(S.at(8_250)),
      effects: [.video(.pause), S.update(position: 250, played: [0..<250], time: 250)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 250, played: [0..<250], time: 250)
      ]
      $0.playerOnTop.clock = S.at(8_250)
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 250
      $0.playerOnTop.progress.watched = IntervalSet([0..<250])
      $0.playerOnTop.progress.timeInClass = 250
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(8_250)
      $0.playerOnTop.videoAdrift = true
    }
    // The backlog, and the end the player reached meanwhile: nothing.
    for milliseconds in stride(from: 500, through: 2_500, by: 250) {
      store.send(.player(.video(.time(milliseconds: milliseconds))))
    }
    store.send(.player(.video(.shown(milliseconds: 2_600))))
    store.send(.player(.video(.ended)))
    // Play: from where the app stood.
    store.send(
      .player(.playPausePressed), effects: [.video(.seek(milliseconds: 250)), .video(.play)]
    ) {
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.videoAdrift = false
    }
    store.send(.player(.video(.time(milliseconds: 500)))) {
      $0.playerOnTop.position = 500
      $0.playerOnTop.positionReadAt = S.at(8_250)
      $0.playerOnTop.unsavedPlayed = IntervalSet([250..<500])
    }
  }

  /// `--speed 10` (SPEC §12: for demos and tests): a quarter second of wall time is 2.5 s of
  /// media, and reports that far apart are play, not a seek's leftovers (the position stood at
  /// 00:02 for ever behind a video that played on).
  @Test func atTenTimesTheReportsFarApartArePlay() {
    var state = Self.showing()
    state.playerOnTop.speed = PlaybackSpeed(hundredths: 1_000)
    var store = TestStore(state)
    store.send(.player(.playPausePressed), effects: [.video(.play)]) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.player(.video(.time(milliseconds: 2_600)))) {
      $0.playerOnTop.position = 2_600
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<2_600])
    }
    store.send(.player(.video(.time(milliseconds: 5_300)))) {
      $0.playerOnTop.position = 5_300
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<5_300])
    }
  }

  @Test func aSeekTellsTheVideoAndPlaysNothing() {
    var store = Self.playing()
    store.send(
      .player(.seekPressed(seconds: 5)),
      effects: [.video(.seek(milliseconds: 5_000)), S.update(position: 5_000)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 5_000)]
      $0.playerOnTop.position = 5_000
      $0.playerOnTop.progress.lastPosition = 5_000
    }
    #expect(store.state.playerOnTop.watchedPercent == 0)
  }

  /// Playing, with `l` pressed at 2 s and again at 4 s: the loop A 2 s, B 4 s, play at B.
  static func loopingFromTwoToFourSeconds() -> TestStore {
    var store = Self.playing()
    store.send(.player(.video(.time(milliseconds: 2_000)))) {
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<2_000])
    }
    store.send(.player(.loopPressed)) { $0.playerOnTop.loop = LoopMarks(start: 2_000) }
    store.send(.player(.video(.time(milliseconds: 4_000)))) {
      $0.playerOnTop.position = 4_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<4_000])
    }
    // The player is told B, so that it says the moment play reaches it (not up to a quarter
    // second later, in its next report: each turn of the loop would run over by a different
    // amount).
    store.send(.player(.loopPressed), effects: [.video(.mark(milliseconds: 4_000))]) {
      $0.playerOnTop.loop = LoopMarks(start: 2_000, end: 4_000)
    }
    return store
  }

  /// `l` marks where play is at the key, not where the last report left the position: the
  /// reports come four times a second, and a mark set from the last one alone lay up to a
  /// quarter second early (at 2×, half a second of media). A report that is late (a stall)
  /// moves the mark on by half a second at most.
  @Test func aLoopMarkIsWherePlayIsAtTheKey() {
    var store = Self.playing()
    let faster = PlaybackSpeed(hundredths: 125)
    store.send(.player(.speedChanged(faster: true)), effects: [.video(.speed(faster))]) {
      $0.playerOnTop.speed = faster
    }
    store.send(.player(.video(.time(milliseconds: 2_000)))) {
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<2_000])
    }
    // The runtime reads the clock before every key: 200 ms of wall time, 250 of media.
    store.send(.clockRead(S.at(200))) {
      $0.playerOnTop.clock = S.at(200)
      $0.playerOnTop.unsavedTime = 200
    }
    store.send(.player(.loopPressed)) { $0.playerOnTop.loop = LoopMarks(start: 2_250) }
    store.send(.clockRead(S.at(2_000))) {
      $0.playerOnTop.clock = S.at(2_000)
      $0.playerOnTop.unsavedTime = 2_000
    }
    store.send(.player(.loopPressed), effects: [.video(.mark(milliseconds: 2_625))]) {
      $0.playerOnTop.loop = LoopMarks(start: 2_250, end: 2_625)
    }
  }

  @Test func anABLoopCountsItsStretchOnce() {
    var store = Self.loopingFromTwoToFourSeconds()
    store.send(
      .player(.video(.time(milliseconds: 4_010))), effects: [.video(.seek(milliseconds: 2_000))]
    ) {
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<4_010])
    }
    // Round and round: each time B is reached, back to A.
    for _ in 0..<3 {
      store.send(.player(.video(.time(milliseconds: 3_000)))) {
        $0.playerOnTop.position = 3_000
        $0.playerOnTop.positionReadAt = S.t0
      }
      store.send(
        .player(.video(.time(milliseconds: 4_010))), effects: [.video(.seek(milliseconds: 2_000))]
      ) {
        $0.playerOnTop.position = 2_000
        $0.playerOnTop.positionReadAt = nil
      }
    }
    #expect(store.state.playerOnTop.watched.ranges == [0..<4_010])
    store.send(.player(.loopPressed), effects: [.video(.mark(milliseconds: nil))]) {
      $0.playerOnTop.loop = LoopMarks()
    }
  }

  /// B sends play back to A when play reaches it, not when a seek went past it: → past the
  /// loop plays on there (a walk-through found every seek past B thrown back to A).
  @Test func aSeekPastTheLoopPlaysOnThere() {
    var store = Self.loopingFromTwoToFourSeconds()
    store.send(
      .player(.seekPressed(seconds: 5)),
      effects: [.video(.seek(milliseconds: 9_000)), S.update(position: 9_000, played: [0..<4_000])]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 9_000, played: [0..<4_000])]
      $0.playerOnTop.position = 9_000
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.progress.lastPosition = 9_000
      $0.playerOnTop.progress.watched = IntervalSet([0..<4_000])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
    store.send(.player(.video(.time(milliseconds: 9_250)))) {
      $0.playerOnTop.position = 9_250
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([9_000..<9_250])
    }
    // Back before B, play reaches it again: the loop holds.
    store.send(
      .player(.seekPressed(seconds: -6)),
      effects: [
        .video(.seek(milliseconds: 3_250)), S.update(position: 3_250, played: [9_000..<9_250]),
      ]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 3_250, played: [9_000..<9_250])]
      $0.playerOnTop.position = 3_250
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.progress.lastPosition = 3_250
      $0.playerOnTop.progress.watched = IntervalSet([0..<4_000, 9_000..<9_250])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
    store.send(
      .player(.video(.time(milliseconds: 4_010))), effects: [.video(.seek(milliseconds: 2_000))]
    ) {
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([3_250..<4_010])
    }
  }

  /// Keys pressed while the video loads (full view, a loop) do not outlive its failure: the
  /// clock's Player has neither, and `f`/`l` no longer reach them. A video that may open on
  /// the next try keeps them for it.
  @Test func aFailedVideoLeavesNoFullViewOrLoopBehind() {
    var state = Self.showing()
    state.playerOnTop.video = .loading
    state.playerOnTop.playback = .playing
    state.playerOnTop.fullScreen = true
    state.playerOnTop.loop = LoopMarks(start: 1_000)
    var store = TestStore(state)
    store.send(.player(.video(.failed("no connection")))) {
      $0.playerOnTop.video = .failed("no connection")
      $0.playerOnTop.videoFit = nil
      $0.playerOnTop.fullScreen = false
      $0.playerOnTop.loop = LoopMarks()
      // For the next Space's try of the video (`no connection` may pass).
      $0.playerOnTop.keptForRetry = PlayerState.KeptForRetry(
        loop: LoopMarks(start: 1_000), fullScreen: true)
    }
    #expect(store.state.playerOnTop.openFailedForNow)
  }

  @Test func bufferingCountsAsTimeInClassAndPlaysNothing() {
    var store = Self.playing()
    store.send(.player(.video(.buffering(true)))) { $0.playerOnTop.video = .buffering }
    store.send(.clockRead(S.at(1_500))) {
      $0.playerOnTop.clock = S.at(1_500)
      $0.playerOnTop.unsavedTime = 1_500
    }
    #expect(store.state.playerOnTop.watched.isEmpty)
    store.send(.player(.video(.buffering(false)))) { $0.playerOnTop.video = .showing }
  }

  /// A stream that stops mid-class pauses the class where it stood (the clock playing on would
  /// count as watched what nobody saw: a walk-through saw 2 % become 38 %). Space tries it again
  /// from there (its server may be back: it stayed dead for the rest of the visit); back, its
  /// pictures play on from there. (A try that fails: `aStreamsTryThatFails…` below.)
  @Test func aStreamThatStopsMidClassPausesAndSpaceTriesItAgainFromThere() {
    var store = Self.stoppedAt500(
      Self.showingStream(), because: "the stream stopped (no connection)", stream: true)
    Self.spaceTriesTheStreamAt500(&store, clock: 1_000)
    // Loading plays nothing.
    store.send(.clockRead(S.at(2_000))) {
      $0.playerOnTop.clock = S.at(2_000)
      $0.playerOnTop.unsavedTime = 2_000
    }
    #expect(store.state.playerOnTop.position == 500)
    // Back: the pictures play on from there, and Space pauses them as usual.
    store.send(.player(.video(.time(milliseconds: 750)))) {
      $0.playerOnTop.positionReadAt = S.at(2_000)
      $0.playerOnTop.video = .showing
      $0.playerOnTop.position = 750
      $0.playerOnTop.unsavedPlayed = IntervalSet([500..<750])
    }
    store.send(
      .player(.playPausePressed),
      effects: [.video(.pause), S.update(position: 750, played: [500..<750], time: 2_000)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 750, played: [500..<750], time: 2_000)
      ]
      $0.playerOnTop.pausedFromPlay = true
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 750
      $0.playerOnTop.progress.watched = IntervalSet([0..<750])
      $0.playerOnTop.progress.timeInClass = 2_000
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(2_000)
    }
    store.send(.player(.playPausePressed), effects: [.video(.play)]) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.pausedFromPlay = false
    }
  }

  /// Space on a Finished class whose stream had stopped starts it again from 00:00 with the
  /// stream tried again (a walk-through saw the clock run from 00:00 over the thumbnail, its
  /// time counted as watched).
  @Test func startingAgainAfterAStoppedStreamTriesTheStream() {
    var store = TestStore(Self.stoppedStream(.finished, at: 100_000))
    store.send(
      .player(.playPausePressed),
      effects: [
        .video(.open(source: Self.streamURL)), .video(.seek(milliseconds: 0)), .video(.play),
      ]
    ) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.position = 0
      $0.playerOnTop.lastSave = S.t0
      $0.playerOnTop.video = .loading
    }
  }

  /// The video tried again keeps what the person chose for it: its speed, sound and volume.
  @Test func aVideoTriedAgainKeepsItsSpeedSoundAndVolume() {
    var state = Self.stoppedStream(.paused, at: 2_000)
    state.playerOnTop.speed = PlaybackSpeed(hundredths: 50)
    state.playerOnTop.soundOn = false
    state.playerOnTop.volume = 60
    var store = TestStore(state)
    store.send(
      .player(.playPausePressed),
      effects: [
        .video(.open(source: Self.streamURL)), .video(.speed(PlaybackSpeed(hundredths: 50))),
        .video(.sound(false)),
        .video(.volume(60)), .video(.seek(milliseconds: 2_000)), .video(.play),
      ]
    ) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.t0
      $0.playerOnTop.video = .loading
    }
  }

  /// A stream that stops mid-class takes the A–B loop and the full-screen picture with it (the
  /// clock's Player has neither, and the failure must be seen); Space's try brings both back as
  /// they were, and a try that fails keeps them for the next (a walk-through found a short
  /// network hiccup lost a loop set up with care).
  @Test func aStreamTriedAgainBringsBackItsLoopAndFullScreen() {
    var showing = Self.showingStream()
    showing.playerOnTop.loop = LoopMarks(start: 200, end: 2_000)
    showing.playerOnTop.fullScreen = true
    var store = Self.playing(showing)
    store.send(.player(.video(.time(milliseconds: 500)))) {
      $0.playerOnTop.position = 500
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<500])
    }
    let kept = PlayerState.KeptForRetry(loop: LoopMarks(start: 200, end: 2_000), fullScreen: true)
    store.send(
      .player(.video(.failed("no connection"))),
      effects: [S.update(position: 500, played: [0..<500])]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 500, played: [0..<500])]
      $0.playerOnTop.video = .failed("no connection")
      $0.playerOnTop.streamStoppedMidClass = true
      $0.playerOnTop.videoFit = nil
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 500
      $0.playerOnTop.progress.watched = IntervalSet([0..<500])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.fullScreen = false
      $0.playerOnTop.loop = LoopMarks()
      $0.playerOnTop.keptForRetry = kept
    }
    store.send(
      .player(.playPausePressed),
      effects: [
        .video(.open(source: Self.streamURL)), .video(.mark(milliseconds: 2_000)),
        .video(.seek(milliseconds: 500)), .video(.play),
      ]
    ) {
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.video = .loading
      $0.playerOnTop.fullScreen = true
      $0.playerOnTop.loop = LoopMarks(start: 200, end: 2_000)
      $0.playerOnTop.keptForRetry = nil
    }
    // Failing again: put away again, for the next try (the clock plays on meanwhile).
    store.send(.player(.video(.failed("no connection")))) {
      $0.playerOnTop.video = .failed("no connection")
      $0.playerOnTop.fullScreen = false
      $0.playerOnTop.loop = LoopMarks()
      $0.playerOnTop.keptForRetry = kept
    }
  }

  /// A file that stops mid-class (cut short, or a seek past where it is cut) pauses the class
  /// where it stood, as a stream does; a seek opens it again there, paused (sought back before
  /// the cut, its frame shows), and Space plays. (Before, the clock took over for the rest of
  /// the visit: a walk-through's seek back to 00:24 played the thumbnail and counted it.)
  @Test func aFileThatStopsMidClassIsOpenedAgainWhereItIsSought() {
    var store = Self.stoppedAt500(
      Self.showing(), because: "the file is cut short", stream: true)
    let file = store.state.playerOnTop.danceClass.videoURL
    store.send(
      .player(.seekToEndPressed(last: false)),
      effects: [
        .video(.open(source: file)), .video(.seek(milliseconds: 0)),
        S.update(position: 0, time: 1_000),
      ]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 0, time: 1_000)]
      $0.playerOnTop.position = 0
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.video = .loading
      $0.playerOnTop.lastSave = S.at(1_000)
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.progress.timeInClass = 1_000
      $0.playerOnTop.progress.lastPosition = 0
    }
    store.send(.player(.video(.shown(milliseconds: 0)))) {
      $0.playerOnTop.video = .showing
    }
    store.send(.player(.playPausePressed), effects: [.video(.play)]) {
      $0.playerOnTop.playback = .playing
    }
    store.send(.player(.video(.time(milliseconds: 250)))) {
      $0.playerOnTop.positionReadAt = S.at(1_000)
      $0.playerOnTop.video = .showing
      $0.playerOnTop.position = 250
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<250])
    }
  }

  /// A file cut short that fails again when Space tries it (play stood past its cut) leaves
  /// the clock playing on over the thumbnail (SPEC §19: after `No video`, §12's clock): a
  /// walk-through's class, sought past the cut, stood paused for ever, Space after Space. (A
  /// stream's try that fails does so too; one that fails after showing pictures pauses.)
  @Test func aFileThatFailsAgainWhenTriedPlaysTheClockOn() {
    var store = Self.fileCutShortTriedAgainAt500()
    let file = store.state.playerOnTop.danceClass.videoURL
    store.send(.player(.video(.failed("the file is cut short")))) {
      $0.playerOnTop.video = .failed("the file is cut short")
    }
    Self.theClockPlaysOnFrom500(&store)
    // Sought back before the cut, the file is opened there again, playing.
    store.send(
      .player(.seekToEndPressed(last: false)),
      effects: [
        .video(.open(source: file)), .video(.seek(milliseconds: 0)), .video(.play),
        S.update(position: 0, played: [500..<1_500], time: 2_000),
      ]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 0, played: [500..<1_500], time: 2_000)
      ]
      $0.playerOnTop.position = 0
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.video = .loading
      $0.playerOnTop.lastSave = S.at(2_000)
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.progress.timeInClass = 2_000
      $0.playerOnTop.progress.lastPosition = 0
      $0.playerOnTop.progress.watched = IntervalSet([0..<1_500])
    }
  }

  /// A file cut short whose try opens (Space from before the cut's last picture) and plays
  /// back into the cut fails there again: the clock plays on over the thumbnail, as when the
  /// try itself fails. (A walk-through's truncated file stood `❚❚ Paused` at 00:27 on 9 of 9
  /// Space presses: each reopened it, played the pictures left, failed and paused again.)
  @Test func aFileThatFailsAgainAtItsCutAfterItsTryOpenedPlaysTheClockOn() {
    var store = Self.fileCutShortTriedAgainAt500()
    store.send(.player(.video(.shown(milliseconds: 480)))) {
      $0.playerOnTop.video = .showing
    }
    store.send(.player(.video(.failed("the file is cut short")))) {
      $0.playerOnTop.video = .failed("the file is cut short")
    }
    Self.theClockPlaysOnFrom500(&store)
  }

  /// The player process stopping (killed, crashed) is not the file's fault: a file's try that
  /// showed pictures and then lost its player pauses at its last picture, as the first stop
  /// did, and Space tries again (a walk-through's second crash in a visit left the clock
  /// playing over the thumbnail, Space only pausing it).
  @Test func aFilesTryThatLosesItsPlayerAfterItsPicturesPauses() {
    var store = Self.fileCutShortTriedAgainAt500(because: VideoPhase.playerStopped)
    store.send(.player(.video(.shown(milliseconds: 480)))) {
      $0.playerOnTop.video = .showing
    }
    var state = store.state
    _ = reduce(&state, .player(.video(.failed(VideoPhase.playerStopped))))
    #expect(state.playerOnTop.playback == .paused)
    #expect(state.playerOnTop.videoTriedAgainOnPlay)
  }

  /// `stoppedAt500` for a file cut short, then Space: the file is opened again at 500 and
  /// played (the clock reads 1 s).
  static func fileCutShortTriedAgainAt500(because reason: String = "the file is cut short")
    -> TestStore
  {
    var store = stoppedAt500(showing(), because: reason, stream: true)
    let file = store.state.playerOnTop.danceClass.videoURL
    store.send(
      .player(.playPausePressed),
      effects: [.video(.open(source: file)), .video(.seek(milliseconds: 500)), .video(.play)]
    ) {
      $0.playerOnTop.positionReadAt = nil
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.lastSave = S.at(1_000)
      $0.playerOnTop.video = .loading
    }
    return store
  }

  /// Still playing after the file failed again: the clock plays on from 500, and its second
  /// counts as watched.
  static func theClockPlaysOnFrom500(_ store: inout TestStore) {
    #expect(store.state.playerOnTop.playback == .playing)
    store.send(.clockRead(S.at(2_000))) {
      $0.playerOnTop.clock = S.at(2_000)
      $0.playerOnTop.position = 1_500
      $0.playerOnTop.unsavedPlayed = IntervalSet([500..<1_500])
      $0.playerOnTop.unsavedTime = 2_000
    }
  }

  /// A stream's try that fails before its first picture (its server still away, or refusing)
  /// leaves §12's clock playing from where the class stood (SPEC §19: after `No video`, the
  /// clock), and the next Space that plays tries the stream again. Before, the class stood
  /// paused: a walk-through pressed Space again and again with its server down and nothing
  /// ever played until it left the class.
  @Test(arguments: ["not found (404)", "the stream stopped (no connection)", "no connection"])
  func aStreamsTryThatFailsBeforeAPicturePlaysTheClockOn(reason: String) {
    var store = Self.stoppedAt500(
      Self.showingStream(), because: "the stream stopped (no connection)", stream: true)
    Self.spaceTriesTheStreamAt500(&store, clock: 1_000)
    store.send(.player(.video(.failed(reason)))) {
      $0.playerOnTop.video = .failed(reason)
    }
    Self.theClockPlaysOnFrom500(&store)
    #expect(store.state.playerOnTop.videoTriedAgainOnPlay, "the next play tries it again")
  }

  /// A stream's try that opened and showed pictures, then stopped again mid-class, pauses
  /// where its last picture was, as it did the first time (the clock would count what nobody
  /// saw).
  @Test func aStreamsTryThatStopsAgainAfterItsPicturesPauses() {
    var store = Self.stoppedAt500(
      Self.showingStream(), because: "the stream stopped (no connection)", stream: true)
    Self.spaceTriesTheStreamAt500(&store, clock: 1_000)
    var state = store.state
    _ = reduce(&state, .player(.video(.shown(milliseconds: 520))))
    _ = reduce(&state, .player(.video(.failed("the stream stopped (no connection)"))))
    #expect(state.playerOnTop.playback == .paused)
  }

  /// Ctrl-Z pauses as Space does: the picture left on screen, said after the pause, was
  /// played, and is saved (a review: it moved the position on without counting it).
  @Test func aSuspendKeepsThePictureOnScreenAsPlayed() {
    var state = Self.showing()
    for action: PlayerAction in [.playPausePressed, .video(.time(milliseconds: 1_758))] {
      _ = reduce(&state, .player(action))
    }
    _ = reduce(&state, .suspended)
    let effects = reduce(&state, .player(.video(.shown(milliseconds: 2_000))))
    #expect(state.playerOnTop.watched.ranges == [0..<2_000])
    #expect(effects.contains { if case .recordProgress = $0 { true } else { false } })
  }

  /// `showing` playing, its video loading, then failed with `reason` before its first picture
  /// (`forNow`: a reason that may pass, tried again on the next play).
  static func failedToOpen(_ showing: AppState = showing(), because reason: String, forNow: Bool)
    -> TestStore
  {
    var loading = playing(showing).state
    loading.playerOnTop.video = .loading
    var store = TestStore(loading)
    store.send(.player(.video(.failed(reason)))) {
      $0.playerOnTop.video = .failed(reason)
      $0.playerOnTop.videoFit = nil
    }
    #expect(store.state.playerOnTop.openFailedForNow == forNow)
    return store
  }

  /// The clock plays the first second over the thumbnail, and Space pauses it there: what was
  /// played is saved, and nothing is sent to the video that failed.
  static func clockPlaysASecondThenSpacePauses(_ store: inout TestStore) {
    store.send(.clockRead(S.at(1_000))) {
      $0.playerOnTop.clock = S.at(1_000)
      $0.playerOnTop.unsavedTime = 1_000
      $0.playerOnTop.position = 1_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_000])
    }
    store.send(
      .player(.playPausePressed),
      effects: [S.update(position: 1_000, played: [0..<1_000], time: 1_000)]
    ) {
      $0.playerOnTop.savesInFlight += [
        S.progressUpdate(position: 1_000, played: [0..<1_000], time: 1_000)
      ]
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.progress.lastPosition = 1_000
      $0.playerOnTop.progress.watched = IntervalSet([0..<1_000])
      $0.playerOnTop.progress.timeInClass = 1_000
      $0.playerOnTop.unsavedPlayed = IntervalSet()
      $0.playerOnTop.unsavedTime = 0
      $0.playerOnTop.lastSave = S.at(1_000)
    }
  }

  /// A stream that could not be opened for a reason that may pass (no connection, no answer,
  /// a 5xx) is tried again when Space next plays the class: a walk-through's `No video: the
  /// server did not answer` stayed after the server came back, until the class was opened
  /// again. Failing again, the clock plays on as it did the first time.
  @Test func aStreamThatCouldNotOpenIsTriedAgainWhenSpacePlays() {
    var store = Self.failedToOpen(
      Self.showingStream(), because: "the server did not answer", forNow: true)
    Self.clockPlaysASecondThenSpacePauses(&store)
    store.send(
      .player(.playPausePressed),
      effects: [
        .video(.open(source: Self.streamURL)), .video(.seek(milliseconds: 1_000)), .video(.play),
      ]
    ) {
      $0.playerOnTop.playback = .playing
      $0.playerOnTop.video = .loading
    }
    #expect(!store.state.playerOnTop.openFailedForNow)
    // Loading plays nothing; failing again, the clock plays on from there.
    store.send(.clockRead(S.at(1_500))) {
      $0.playerOnTop.clock = S.at(1_500)
      $0.playerOnTop.unsavedTime = 500
    }
    store.send(.player(.video(.failed("no connection")))) {
      $0.playerOnTop.video = .failed("no connection")
    }
    #expect(store.state.playerOnTop.openFailedForNow)
    store.send(.clockRead(S.at(2_500))) {
      $0.playerOnTop.clock = S.at(2_500)
      $0.playerOnTop.unsavedTime = 1_500
      $0.playerOnTop.position = 2_000
      $0.playerOnTop.unsavedPlayed = IntervalSet([1_000..<2_000])
    }
  }

  /// A video that cannot be opened for a reason that stays (not there, refused, not a video)
  /// is not tried again: Space plays the clock.
  @Test(arguments: ["file not found", "not found (404)", "not a video this player can read"])
  func aVideoThatCannotOpenForGoodIsNotTriedAgain(reason: String) {
    var store = Self.failedToOpen(Self.showingStream(), because: reason, forNow: false)
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .paused
    }
    store.send(.player(.playPausePressed)) {
      $0.playerOnTop.playback = .playing
    }
  }

  @Test func aVideoThatFailsToOpenLeavesTheClockInCharge() {
    var store = Self.failedToOpen(because: "file not found", forNow: false)
    Self.clockPlaysASecondThenSpacePauses(&store)
  }

  /// A clip longer than the class the catalog lists: the class ends at its listed end, and the
  /// video stops there (it played on under a clock that stood at the end).
  @Test func theClassEndsAtItsListedEndWhenTheClipIsLonger() {
    var state = Self.playing().state
    state.playerOnTop.position = 99_800
    state.playerOnTop.unsavedPlayed = IntervalSet([0..<99_800])
    var store = TestStore(state)
    store.send(
      .player(.video(.time(milliseconds: 100_050))),
      effects: [.video(.pause), S.update(position: 100_000, played: [0..<100_000])]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 100_000, played: [0..<100_000])]
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.playback = .finished
      $0.playerOnTop.position = 100_000
      $0.playerOnTop.progress.lastPosition = 100_000
      $0.playerOnTop.progress.watched = IntervalSet([0..<100_000])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
    #expect(store.state.playerOnTop.watchedPercent == 100)
  }

  /// The video's end while playing with `watched` unsaved (nothing saved before): the class
  /// finishes at its end, and what was played is saved.
  static func endFinishesTheClass(_ store: inout TestStore, watched: [Range<Int>]) {
    store.send(
      .player(.video(.ended)), effects: [S.update(position: 100_000, played: watched)]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 100_000, played: watched)]
      $0.playerOnTop.playback = .finished
      $0.playerOnTop.position = 100_000
      $0.playerOnTop.progress.lastPosition = 100_000
      $0.playerOnTop.progress.watched = IntervalSet(watched)
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
  }

  @Test func theEndFinishesTheClassWithItsLastPicturesPlayed() {
    var store = Self.playing()
    store.send(.player(.video(.time(milliseconds: 1_000)))) {
      $0.playerOnTop.position = 1_000
      $0.playerOnTop.positionReadAt = S.t0
      $0.playerOnTop.unsavedPlayed = IntervalSet([0..<1_000])
    }
    var state = store.state
    state.playerOnTop.position = 99_800
    state.playerOnTop.unsavedPlayed = IntervalSet([0..<99_800])
    store = TestStore(state)
    Self.endFinishesTheClass(&store, watched: [0..<100_000])
    #expect(store.state.playerOnTop.watchedPercent == 100)
  }

  /// A loop whose B is the video's end (set after `End`, or on the last picture) goes back to A
  /// when the video ends, each time round: the end is play reaching B. (A walk-through saw such
  /// a loop finish the class after one round, or none with sound: the video ended before any
  /// report at B came.) The player stopped at its end, so it is told to play on.
  @Test(arguments: [100_000, 99_960])
  func aLoopToTheVideosEndGoesBackToAWhenItEnds(end: Int) {
    var state = Self.showing()
    state.playerOnTop.position = 98_000
    state.playerOnTop.loop = LoopMarks(start: 98_000, end: end)
    var store = Self.playing(state)
    for round in 0..<2 {
      store.send(.player(.video(.time(milliseconds: 99_900)))) {
        $0.playerOnTop.position = 99_900
        $0.playerOnTop.positionReadAt = S.t0
        // The second round plays again what the first did: counted once.
        $0.playerOnTop.unsavedPlayed = IntervalSet([98_000..<(round == 0 ? 99_900 : 100_000)])
      }
      store.send(
        .player(.video(.ended)),
        effects: [.video(.seek(milliseconds: 98_000)), .video(.play)]
      ) {
        $0.playerOnTop.position = 98_000
        $0.playerOnTop.positionReadAt = nil
        $0.playerOnTop.unsavedPlayed = IntervalSet([98_000..<100_000])
      }
    }
    // Without the loop, the end finishes the class.
    store.send(.player(.loopPressed), effects: [.video(.mark(milliseconds: nil))]) {
      $0.playerOnTop.loop = LoopMarks()
    }
    Self.endFinishesTheClass(&store, watched: [98_000..<100_000])
  }

  /// A 100-s class with a 50-s clip and `loop`, played from 49.9 s to the clip's end.
  static func playedToTheClipsEnd(loop: LoopMarks) -> AppState {
    var state = showing()
    state.playerOnTop.videoDuration = 50_000
    state.playerOnTop.position = 49_900
    state.playerOnTop.loop = loop
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .player(.video(.ended)))
    return state
  }

  /// A loop whose A lies past the video's end (a class listed longer than its clip, A set
  /// where the clip has nothing) cannot go round in the video: going back to A sought the
  /// player past its end, which ended again at once, and again (found by a review). The end
  /// leaves the last picture and the clock goes round the loop instead; one from before the
  /// clip's end back into it shows the video again.
  @Test func aLoopFromPastTheVideosEndGoesRoundOnTheClock() {
    var state = Self.playedToTheClipsEnd(loop: LoopMarks(start: 60_000, end: 70_000))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.position == 50_000)
    _ = reduce(&state, .player(.seekPressed(seconds: 15)))
    #expect(state.playerOnTop.position == 65_000)
    _ = reduce(&state, .clockRead(S.at(1_000)))
    _ = reduce(&state, .clockRead(S.at(2_000)))
    _ = reduce(&state, .clockRead(S.at(3_000)))
    _ = reduce(&state, .clockRead(S.at(4_000)))
    // At B (70 s): back to A.
    _ = reduce(&state, .clockRead(S.at(5_000)))
    #expect(state.playerOnTop.position == 60_000)
    #expect(state.playerOnTop.playback == .playing)
    #expect(state.playerOnTop.video == .pastEnd)
    // A loop from within the clip: back to its pictures.
    state.playerOnTop.loop = LoopMarks(start: 40_000, end: 61_000)
    let effects = reduce(&state, .clockRead(S.at(6_000)))
    #expect(state.playerOnTop.video == .showing)
    #expect(effects.contains(.video(.seek(milliseconds: 40_000))))
  }

  /// Past a clip's end in other ways (found by a review): a seek past it ends the video
  /// where the seek stands; a loop from inside the clip to past its end plays the clip to its
  /// end and the rest on the clock up to B, then the pictures again from A; and the speed and
  /// the loop's end set meanwhile reach the player when its pictures come back.
  @Test func pastAClipsEndBySeekOrLoopTheClockPlaysOn() {
    var state = Self.showing()
    state.playerOnTop.videoDuration = 50_000
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .player(.percentPressed(7)))
    _ = reduce(&state, .player(.video(.ended)))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.position == 70_000)
    #expect(state.playerOnTop.playback == .playing)

    var looped = Self.playedToTheClipsEnd(loop: LoopMarks(start: 45_000, end: 53_000))
    #expect(looped.playerOnTop.video == .pastEnd, "B lies past the clip's end")
    #expect(looped.playerOnTop.position == 50_000)
    _ = reduce(&looped, .player(.speedChanged(faster: true)))
    var effects: [Effect] = []
    for second in 1...4 { effects += reduce(&looped, .clockRead(S.at(second * 1_000))) }
    #expect(looped.playerOnTop.video == .showing)
    #expect(looped.playerOnTop.position == 45_000)
    let told = effects.filter { if case .video = $0 { true } else { false } }
    #expect(
      told == [
        .video(.speed(looped.playerOnTop.speed)), .video(.mark(milliseconds: 53_000)),
        .video(.seek(milliseconds: 45_000)), .video(.play),
      ], "\(effects)")
    let played = looped.playerOnTop.progress.watched.union(looped.playerOnTop.unsavedPlayed)
    #expect(played.ranges == [49_900..<53_000], "\(played)")
  }

  /// Paused past a clip's end (a seek there, or a class opened again where it was left past
  /// it): the player's answer, its last picture, makes it `pastEnd`, as play does, nothing
  /// counted; Space plays the clock on from there. (A walk-through's class reopened at 00:08
  /// of a 5-s clip stood as a picture at 00:08, and `,` there jumped back to 00:04.) A step
  /// pressed before that picture came is refused, and so is one after it.
  @Test func pausedPastAClipsEndIsPastItsEnd() {
    var state = Self.showing()
    state.playerOnTop.videoDuration = 50_000
    _ = reduce(&state, .player(.percentPressed(7)))
    #expect(state.playerOnTop.playback == .paused)
    #expect(reduce(&state, .player(.stepPressed(forward: false))).isEmpty)
    _ = reduce(&state, .player(.video(.shown(milliseconds: 49_960))))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.position == 70_000)
    #expect(state.playerOnTop.progress.watched.union(state.playerOnTop.unsavedPlayed).isEmpty)
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .clockRead(S.at(1_000)))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.position == 71_000)
    // Opened again where it was left past the end: the player's picture there (its last).
    var reopened = Self.showing()
    reopened.playerOnTop.video = .loading
    reopened.playerOnTop.videoDuration = 50_000
    reopened.playerOnTop.position = 70_000
    reopened.playerOnTop.playback = .paused
    _ = reduce(&reopened, .player(.video(.shown(milliseconds: 49_960))))
    #expect(reopened.playerOnTop.video == .pastEnd)
    #expect(reopened.playerOnTop.position == 70_000)
    #expect(reduce(&reopened, .player(.stepPressed(forward: false))).isEmpty)
    #expect(reopened.playerOnTop.position == 70_000)
  }

  /// The end, reported while playing, come after a pause: past the clip's end as in play,
  /// nothing counted; a video of unknown length keeps where it ended, so a seek back brings
  /// its pictures again. Paused before the end, a late end changes nothing.
  @Test func anEndThatComesAfterAPauseIsPastTheEnd() {
    var state = Self.showing()
    state.playerOnTop.videoDuration = nil
    state.playerOnTop.position = 30_000
    _ = reduce(&state, .player(.video(.ended)))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.videoDuration == 30_000)
    #expect(state.playerOnTop.progress.watched.union(state.playerOnTop.unsavedPlayed).isEmpty)
    _ = reduce(&state, .player(.seekPressed(seconds: -5)))
    #expect(state.playerOnTop.video == .showing)
    var before = Self.showing()
    before.playerOnTop.videoDuration = 50_000
    before.playerOnTop.position = 30_000
    _ = reduce(&before, .player(.video(.ended)))
    #expect(before.playerOnTop.video == .showing)
  }

  /// A video that ends before any picture is empty: `No video`, and §12's clock plays on,
  /// not the clock past an end that never showed.
  @Test func anEmptyVideoSaysSoWhenTheClassGoesOn() {
    var state = Self.showing()
    state.playerOnTop.video = .loading
    state.playerOnTop.videoDuration = nil
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .player(.video(.ended)))
    #expect(state.playerOnTop.video == .failed("the video is empty"))
    #expect(state.playerOnTop.playback == .playing)
  }

  /// A video whose length is not known (a still picture named as a class's video: one frame)
  /// ends where its last picture was, and the class goes on over it on the clock. (A
  /// walk-through's still picture went to `Finished` at Space, `Watched 0%`, every time.)
  @Test func aVideoOfNoKnownLengthEndsWhereItsLastPictureWas() {
    var state = Self.showing()
    state.playerOnTop.videoDuration = nil
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .player(.video(.ended)))
    #expect(state.playerOnTop.video == .pastEnd)
    #expect(state.playerOnTop.playback == .playing)
    #expect(state.playerOnTop.videoDuration == 0, "where the video ends, as the state line says")
    for second in 1...101 { _ = reduce(&state, .clockRead(S.at(second * 1_000))) }
    #expect(state.playerOnTop.playback == .finished)
    #expect(state.playerOnTop.watchedPercent == 100)
  }

  /// Plays from where the class stands until the player says `milliseconds`: what is then
  /// watched, saved or not.
  static func watchedAfterPlaying(_ state: inout AppState, to milliseconds: Int) -> [Range<Int>] {
    _ = reduce(&state, .player(.playPausePressed))
    _ = reduce(&state, .player(.video(.time(milliseconds: milliseconds))))
    return state.playerOnTop.unsavedPlayed.union(state.playerOnTop.progress.watched).ranges
  }

  /// A source whose first picture is a few ms in (WebM with Opus: 7 ms): that picture stands
  /// for the start, so a class played through from 00:00 is watched whole (a walk-through read
  /// `Watched 99%`, and a sliver on the bar at 00:00).
  @Test func aFirstPictureAFewMillisecondsInStandsForTheStart() {
    var state = Self.showing()
    _ = reduce(&state, .player(.video(.shown(milliseconds: 7))))
    #expect(state.playerOnTop.position == 0)
    #expect(Self.watchedAfterPlaying(&state, to: 250) == [0..<250])
    // A step's picture still moves the position, and so do the later steps of a burst.
    var stepped = Self.showing()
    _ = reduce(&stepped, .player(.stepPressed(forward: true)))
    _ = reduce(&stepped, .player(.video(.shown(milliseconds: 40))))
    _ = reduce(&stepped, .player(.video(.shown(milliseconds: 80))))
    #expect(stepped.playerOnTop.position == 80)
  }

  /// Stepped back onto a first picture a few ms in, then played: the class's start counts too
  /// (the position stood at the picture's 7 ms, and nothing before it could ever be played).
  @Test func playFromAFirstPictureAFewMillisecondsInCountsFromTheStart() {
    var state = Self.showing()
    _ = reduce(&state, .player(.video(.shown(milliseconds: 7))))
    _ = reduce(&state, .player(.stepPressed(forward: true)))
    _ = reduce(&state, .player(.video(.shown(milliseconds: 48))))
    _ = reduce(&state, .player(.stepPressed(forward: false)))
    _ = reduce(&state, .player(.video(.shown(milliseconds: 7))))
    #expect(state.playerOnTop.position == 7)
    #expect(Self.watchedAfterPlaying(&state, to: 250) == [0..<250])
    // Further in, play counts from where it stood.
    var later = Self.showing()
    later.playerOnTop.position = 2_000
    _ = reduce(&later, .player(.playPausePressed))
    _ = reduce(&later, .player(.video(.time(milliseconds: 2_250))))
    #expect(later.playerOnTop.unsavedPlayed.ranges == [2_000..<2_250])
  }

  /// `l` typed after a step, then Space before the step's picture came: the loop mark is the
  /// picture on screen, not a seek's minutes later (found by a review).
  @Test func spaceBeforeTheStepsPictureMarksThePictureOnScreen() {
    var state = Self.showing()
    state.playerOnTop.position = 2_000
    for action: PlayerAction in [.stepPressed(forward: true), .loopPressed, .playPausePressed] {
      _ = reduce(&state, .player(action))
    }
    #expect(state.playerOnTop.loop == LoopMarks(start: 2_000))
    #expect(!state.playerOnTop.loopAwaitsStep && !state.playerOnTop.stepping)
  }

  /// A clip less than a second shorter than its class (durations are listed in whole seconds,
  /// SPEC §11) played to its end is the whole class watched: a walk-through played a 59.934-s
  /// clip listed as 60 s from 00:00 to Finished and read `Watched 99%`.
  @Test func aClipEndingWithinTheListedSecondIsWatchedToTheEnd() {
    var state = Self.showing()
    state.playerOnTop.videoDuration = 99_934
    state.playerOnTop.position = 99_834
    state.playerOnTop.unsavedPlayed = IntervalSet([0..<99_834])
    var store = Self.playing(state)
    Self.endFinishesTheClass(&store, watched: [0..<100_000])
  }

  /// A clip shorter than its class by a second or more (a catalog's listed length that is not
  /// its clip's; a still picture named as the video): its last picture stays and the clock
  /// plays the rest of the class, as it does over the thumbnail (it jumped from the clip's end
  /// to `Finished` at the listed end, and a still picture's class could never be played). A
  /// seek back before the clip's end shows the video again, from there.
  @Test(arguments: [99_000, 20_000, 40])
  func aClipShorterThanItsClassLeavesItsLastPictureAndTheClockPlaysOn(clip: Int) {
    var state = Self.showing()
    state.playerOnTop.videoDuration = clip
    state.playerOnTop.position = max(0, clip - 100)
    state.playerOnTop.unsavedPlayed = IntervalSet([0..<max(0, clip - 100)])
    var store = Self.playing(state)
    store.send(
      .player(.video(.ended)), effects: [S.update(position: clip, played: [0..<clip])]
    ) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: clip, played: [0..<clip])]
      $0.playerOnTop.video = .pastEnd
      $0.playerOnTop.position = clip
      $0.playerOnTop.progress.lastPosition = clip
      $0.playerOnTop.progress.watched = IntervalSet([0..<clip])
      $0.playerOnTop.unsavedPlayed = IntervalSet()
    }
    #expect(store.state.playerOnTop.video.showsPicture)
    var played = store.state
    _ = reduce(&played, .clockRead(S.at(500)))
    #expect(played.playerOnTop.position == clip + 500)
    _ = reduce(&played, .clockRead(S.at(1_000)))
    _ = reduce(&played, .clockRead(S.at(2_000)))
    for second in stride(from: 3_000, through: 102_000, by: 1_000) {
      _ = reduce(&played, .clockRead(S.at(second)))
    }
    #expect(played.playerOnTop.playback == .finished)
    #expect(played.playerOnTop.watchedPercent == 100)
    // Back before the clip's end: the video again.
    var back = store.state
    let effects = reduce(&back, .player(.seekToEndPressed(last: false)))
    #expect(back.playerOnTop.video == .showing)
    #expect(effects.contains(.video(.seek(milliseconds: 0))))
    #expect(effects.contains(.video(.play)))
  }

  /// `.` pressed `times` on `showing()` (paused at 0), and its picture at 41 ms: the position
  /// and a save.
  static func stepped(_ times: Int = 1) -> TestStore {
    var store = TestStore(Self.showing())
    for _ in 0..<times {
      store.send(.player(.stepPressed(forward: true)), effects: [.video(.step(forward: true))]) {
        $0.playerOnTop.stepping = true
      }
    }
    store.send(.player(.video(.shown(milliseconds: 41))), effects: [S.update(position: 41)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 41)]
      $0.playerOnTop.position = 41
      $0.playerOnTop.progress.lastPosition = 41
      $0.playerOnTop.lastSave = S.t0
    }
    store.send(.player(.video(.stepsLanded))) { $0.playerOnTop.stepping = false }
    return store
  }

  @Test func aFrameStepWhilePausedMovesToThePictureShown() {
    let store = Self.stepped()
    #expect(store.state.playerOnTop.watched.isEmpty, "a step plays nothing")
  }

  /// Steps pressed faster than pictures come: the player may answer the first key with a
  /// picture and the others with more (across a still stretch, seconds on). The times row
  /// follows each picture further on while paused, and nothing counts as watched (a
  /// walk-through saw the row stay at 00:05 under the picture at 00:11, and then through play).
  @Test func theLaterPicturesOfAStepBurstMoveThePosition() {
    var store = Self.stepped(3)
    store.send(.player(.video(.shown(milliseconds: 5_080)))) {
      $0.playerOnTop.position = 5_080
    }
    // A picture from before where the class stands (a seek's into a still stretch): not moved
    // back.
    store.send(.player(.video(.shown(milliseconds: 3_000))))
    #expect(
      store.state.playerOnTop.watched.isEmpty && store.state.playerOnTop.unsavedPlayed.isEmpty)
  }

  /// `l` typed before the steps' picture came (a walk-through typed `..........l` in one go and
  /// got `Loop from 00:00`): A is where that picture stands. B too, and the player is told.
  @Test func aLoopPressedBeforeTheStepsPictureMarksThePicture() {
    var store = TestStore(Self.showing())
    for _ in 0..<3 {
      store.send(.player(.stepPressed(forward: true)), effects: [.video(.step(forward: true))]) {
        $0.playerOnTop.stepping = true
      }
    }
    store.send(.player(.loopPressed)) { $0.playerOnTop.loopAwaitsStep = true }
    store.send(.player(.video(.shown(milliseconds: 41))), effects: [S.update(position: 41)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 41)]
      $0.playerOnTop.position = 41
      $0.playerOnTop.progress.lastPosition = 41
      $0.playerOnTop.lastSave = S.t0
    }
    // The burst's later pictures (the player passes some over): A waits for the last. A
    // walk-through's `l` after 48 `.` in one burst marked the first picture, at 02:00.0.
    store.send(.player(.video(.shown(milliseconds: 125))), effects: [S.update(position: 125)]) {
      $0.playerOnTop.savesInFlight += [S.progressUpdate(position: 125)]
      $0.playerOnTop.position = 125
      $0.playerOnTop.progress.lastPosition = 125
    }
    store.send(.player(.video(.stepsLanded))) {
      $0.playerOnTop.stepping = false
      $0.playerOnTop.loopAwaitsStep = false
      $0.playerOnTop.loop = LoopMarks(start: 125)
    }
    // A seek before the step's picture came: B where the person stood (the picture on screen).
    var state = store.state
    state.playerOnTop.position = 2_000
    for action: PlayerAction in [
      .stepPressed(forward: true), .loopPressed, .seekPressed(seconds: 5),
    ] {
      _ = reduce(&state, .player(action))
    }
    #expect(state.playerOnTop.loop == LoopMarks(start: 125, end: 2_000))
    #expect(!state.playerOnTop.loopAwaitsStep && !state.playerOnTop.stepping)
    #expect(state.playerOnTop.position == 7_000)
  }

  /// A slow source's pictures come late: after Space pauses at the last report's time, the
  /// player still shows the pictures that were due before its own pause. They were played, so
  /// the watched time has no hole at each pause (a walk-through saw [0, 2758] and [3000, …]).
  @Test func picturesDueBeforeThePlayersPauseCountAsPlayed() {
    var state = Self.showing()
    for action: PlayerAction in [
      .playPausePressed, .video(.time(milliseconds: 1_000)), .video(.time(milliseconds: 1_758)),
      .playPausePressed,
    ] {
      _ = reduce(&state, .player(action))
    }
    #expect(state.playerOnTop.pausedFromPlay)
    // The picture on screen at the pause (the video host says it as it pauses): saved at once,
    // so the position kept is the picture's (a walk-through read 6,016 ms kept under the 6.2 s
    // picture; the time is said every quarter second).
    let effects = reduce(&state, .player(.video(.shown(milliseconds: 2_000))))
    #expect(state.playerOnTop.position == 2_000)
    #expect(effects == [S.update(position: 2_000, played: [1_758..<2_000])])
    #expect(state.playerOnTop.unsavedPlayed.isEmpty)
    #expect(state.playerOnTop.watched.ranges == [0..<2_000])
    for action: PlayerAction in [
      .playPausePressed, .video(.time(milliseconds: 2_250)), .playPausePressed,
    ] {
      _ = reduce(&state, .player(action))
    }
    #expect(state.playerOnTop.watched.ranges == [0..<2_250])
  }

  /// A step or a seek after the pause: pictures further on are not play.
  @Test(arguments: [PlayerAction.stepPressed(forward: true), .seekPressed(seconds: -2)])
  func afterAPauseAStepOrASeekPlaysNothing(move: PlayerAction) {
    var state = Self.showing()
    for action: PlayerAction in [
      .playPausePressed, .video(.time(milliseconds: 1_000)), .video(.time(milliseconds: 1_758)),
      .playPausePressed, move,
    ] {
      _ = reduce(&state, .player(action))
    }
    #expect(!state.playerOnTop.pausedFromPlay)
    _ = reduce(&state, .player(.video(.shown(milliseconds: 2_000))))
    #expect(state.playerOnTop.watched.ranges == [0..<1_758])
    #expect(state.playerOnTop.unsavedPlayed.isEmpty)
  }

  /// At the end there is no next frame: `.` leaves Finished as it is (it said Paused without
  /// moving); `,` steps back from the last frame.
  @Test func aStepForwardAtTheEndDoesNothing() {
    var state = Self.showing()
    state.playerOnTop.playback = .finished
    state.playerOnTop.position = 100_000
    var store = TestStore(state)
    store.send(.player(.stepPressed(forward: true)))
    store.send(.player(.stepPressed(forward: false)), effects: [.video(.step(forward: false))]) {
      $0.playerOnTop.playback = .paused
      $0.playerOnTop.stepping = true
    }
  }

  @Test func speedSoundVolumeMirrorAndFullScreenReachTheVideo() {
    var store = TestStore(Self.showing())
    store.send(
      .player(.speedChanged(faster: false)),
      effects: [.video(.speed(PlaybackSpeed(hundredths: 75)))]
    ) {
      $0.playerOnTop.speed = PlaybackSpeed(hundredths: 75)
    }
    store.send(.player(.soundPressed), effects: [.video(.sound(false))]) {
      $0.playerOnTop.soundOn = false
    }
    store.send(.player(.volumePressed(up: false)), effects: [.video(.volume(90))]) {
      $0.playerOnTop.volume = 90
      $0.playerOnTop.volumeNote = 1
    }
    store.send(.player(.volumeNoteEnded(1))) { $0.playerOnTop.volumeNote = nil }
    store.send(.player(.mirrorPressed)) { $0.playerOnTop.mirrored = true }
    Self.enterFullScreen(&store)
    // Esc leaves full screen first, not the Player.
    let back = VideoFit(tile: TileSize(columns: 76, rows: 14), videoWidth: 320, videoHeight: 180)
    store.send(
      .player(.backPressed),
      effects: [.video(.size(width: back.pixelWidth, height: back.pixelHeight))]
    ) {
      $0.playerOnTop.fullScreen = false
      $0.playerOnTop.videoFit = back
    }
  }

  /// `q` leaves the Player from the full-screen picture too (§12: Esc or `q` leave for Classes;
  /// §19: `f` or Esc return from full screen). A walk-through needed two `q`s.
  @Test func qLeavesThePlayerFromFullScreen() {
    var store = TestStore(Self.showing())
    Self.enterFullScreen(&store)
    var leaving = store.state
    _ = reduce(&leaving, .player(.leavePressed))
    #expect(leaving.screen.kind == .classes)
  }

  /// No sound (no device, or the device went away mid-class): `s` asks for it again, as the
  /// state line's `no sound` suggests, rather than turning off what does not play.
  @Test func withNoSoundTheSoundKeyTriesAgain() {
    var store = TestStore(Self.showing())
    store.send(.player(.video(.sound("no sound: the sound device stopped")))) {
      $0.playerOnTop.soundNote = "no sound: the sound device stopped"
      $0.playerOnTop.soundOn = false
    }
    store.send(.player(.soundPressed), effects: [.video(.sound(true))]) {
      $0.playerOnTop.soundOn = true
    }
    store.send(.player(.video(.sound(nil)))) { $0.playerOnTop.soundNote = nil }
    store.send(.player(.soundPressed), effects: [.video(.sound(false))]) {
      $0.playerOnTop.soundOn = false
    }
    store.send(.player(.video(.sound("sound off")))) { $0.playerOnTop.soundNote = "sound off" }
  }

  @Test func loopMarksGoAThenBThenNeither() {
    var marks = LoopMarks()
    marks.press(at: 5_000)
    #expect(marks == LoopMarks(start: 5_000))
    #expect(marks.wrap(from: 8_750, to: 9_000) == nil)
    marks.press(at: 2_000)
    #expect(marks == LoopMarks(start: 2_000, end: 5_000), "B before A: the loop is still A→B")
    #expect(marks.wrap(from: 4_750, to: 4_999) == nil)
    #expect(marks.wrap(from: 4_750, to: 5_000) == 2_000)
    #expect(marks.wrap(from: 5_000, to: 5_250) == 2_000, "B set where play was")
    #expect(marks.wrap(from: 9_000, to: 9_250) == nil, "past B after a seek: plays on")
    marks.press(at: 7_000)
    #expect(marks == LoopMarks())
  }

  @Test func thePictureKeepsItsAspectInAnyArea() {
    let wide = VideoFit(tile: TileSize(columns: 76, rows: 11), videoWidth: 1280, videoHeight: 720)
    #expect((wide.columns, wide.rows, wide.left, wide.top) == (39, 11, 18, 0))
    let narrow = VideoFit(tile: TileSize(columns: 20, rows: 30), videoWidth: 1280, videoHeight: 720)
    #expect((narrow.columns, narrow.rows) == (20, 6))
    #expect(narrow.top == 12)
    let nothing = VideoFit(tile: TileSize(columns: 0, rows: 0), videoWidth: 320, videoHeight: 180)
    #expect(nothing.columns == 0)
  }
}
