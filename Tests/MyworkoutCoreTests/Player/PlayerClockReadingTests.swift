import Testing

@testable import MyworkoutCore

/// SPEC §16: a Player playing without a video wakes the app at most 4 times a second. Its clock
/// is read when the screen next changes (a second of the times row or of the time in class, an
/// eighth of a cell of the bar, a percent watched, the end) or a save is due; changes less than
/// a tick apart are shown together, so nothing is shown more than a tick late. A timer every
/// 250 ms woke the app 4 times a second (4.2 with the saves; the bench's target is 4) although
/// the screen changed about twice.
@Suite struct PlayerClockReadingTests {
  typealias S = PlayerSample

  /// Playing, at `position`, `timeInClass` ms in class, the clock just read at `t0`.
  static func playing(
    position: Int = 0, timeInClass: Int = 0, duration: Int = 600, speed: PlaybackSpeed = .normal,
    watched: [Range<Int>] = []
  ) -> PlayerState {
    var player = S.opened(speed: speed, duration: duration).playerOnTop
    player.playback = .playing
    player.position = position
    player.progress.timeInClass = timeInClass
    player.progress.watched = IntervalSet(watched)
    player.lastSave = S.t0
    return player
  }

  @Test func theNextReadingIsTheNextChangeOnScreen() {
    // Width 1: the bar's eighths are 75 s apart; 1 % watched is 6 s.
    let narrow = 1
    #expect(Self.playing().nextReading(barWidth: narrow) == 1_000, "a second of both counters")
    #expect(Self.playing(position: 400).nextReading(barWidth: narrow) == 600, "the times row")
    #expect(
      Self.playing(position: 400, timeInClass: 300).nextReading(barWidth: narrow) == 700,
      "the time in class, 100 ms after the times row: both together")
    #expect(
      Self.playing(position: 400, timeInClass: 100).nextReading(barWidth: narrow) == 600,
      "the time in class 300 ms after the times row: apart")
    #expect(
      Self.playing(position: 900).nextReading(barWidth: narrow) == PlayerState.tickMilliseconds,
      "never sooner than a tick")
    #expect(
      Self.playing(speed: PlaybackSpeed(hundredths: 200)).nextReading(barWidth: narrow) == 500)
    #expect(
      Self.playing(position: 100, speed: PlaybackSpeed(hundredths: 75))
        .nextReading(barWidth: narrow) == 1_200,
      "900 ms of media at 0.75× take 1,200 ms: the time in class (at 1,000) goes with them")
    // 76 cells (80 columns): an eighth is 986.8 ms of a 10-minute class, shown with the second.
    #expect(Self.playing().nextReading(barWidth: 76) == 1_000)
    // A 30-second class on 76 cells moves an eighth every 49 ms: the bar is read with the next
    // percent (300 ms), a tick after its eighth at most.
    #expect(Self.playing(duration: 30).nextReading(barWidth: 76) == 300)
    #expect(Self.playing(position: 599_700).nextReading(barWidth: narrow) == 300, "the end")
  }

  @Test func aPercentWatchedAndASaveAreReadings() {
    // 1 % of a 90-s class is 900 ms: 600 ms watched elsewhere, 300 ms more make 1 %.
    let elsewhere = Self.playing(duration: 90, watched: [10_000..<10_600])
    #expect(elsewhere.watchedPercent == 0)
    #expect(elsewhere.nextReading(barWidth: 1) == 300)
    // Played again, a watched part adds nothing: 600 ms of it, then 300 ms new (900), shown
    // with the second of both counters.
    var again = elsewhere
    again.position = 10_000
    #expect(again.nextReading(barWidth: 1) == 1_000)
    // A save is due 4 s after the last one.
    var saving = Self.playing(position: 300, timeInClass: 300)
    saving.lastSave = S.at(-3_650)
    #expect(saving.nextReading(barWidth: 1) == 350, "due in 350 ms")
  }

  /// Played for two minutes from readings made when `nextReading` says, at speeds and widths:
  /// after each reading, the first change of what the Player shows (found by reading the clock
  /// at every millisecond from there) is on screen within a tick; readings are at least a tick
  /// apart, and at 1× about two a second.
  @Test(arguments: [
    (100, 76, 600), (75, 76, 600), (200, 196, 600), (150, 36, 30), (50, 76, 3_600), (100, 1, 90),
  ])
  func everyChangeIsShownWithinATick(speed: Int, barWidth: Int, duration: Int) {
    var player = Self.playing(
      timeInClass: 370, duration: duration, speed: PlaybackSpeed(hundredths: speed),
      watched: [2_000..<9_000])
    func shown(_ state: PlayerState) -> [Int] {
      let eighths = Int64(state.position) * Int64(barWidth * 8) / Int64(state.duration)
      return [
        state.position / 1_000, state.timeInClass / 1_000, Int(eighths), state.watchedPercent,
        state.playback == .finished ? 1 : 0,
      ]
    }
    var readings: [Int] = []
    var at = 0
    while player.playback == .playing && at < 120_000 {
      let next = player.nextReading(barWidth: barWidth)
      let before = shown(player)
      let firstChange = (1...next).first { wait in
        var later = player
        _ = PlayerReducer.clockRead(&later, S.at(at + wait), account: S.account)
        return shown(later) != before
      }
      if let firstChange {
        #expect(
          next - firstChange <= PlayerState.tickMilliseconds,
          "at \(at) ms: a change \(firstChange) ms on, read \(next) ms on")
      }
      at += next
      _ = PlayerReducer.clockRead(&player, S.at(at), account: S.account)
      readings.append(at)
    }
    let gaps = zip(readings.dropFirst(), readings).map { $0 - $1 }
    #expect(gaps.allSatisfy { $0 >= PlayerState.tickMilliseconds })
    if speed == 100 && duration >= 90 {
      let perSecond = Double(readings.count) / Double(readings.last ?? 1) * 1_000
      #expect(perSecond < 2.6, "\(perSecond) readings a second")
    }
  }

  /// The subscription: while a class plays without a video, its clock timer is set to the next
  /// reading, for the bar as wide as the terminal less the margins; full screen (whose bar
  /// shares its row with the times) reads it every tick.
  @Test func theClockTimerIsSetToTheNextReading() {
    var state = S.opened(duration: 600)
    state.display.size = TerminalSize(width: 80, height: 24)
    state.playerOnTop.playback = .playing
    state.playerOnTop.position = 400
    state.playerOnTop.lastSave = S.t0
    #expect(PlayerLayout.barWidth(for: state.display.size) == 76)
    #expect(subscriptions(state).filter(\.isClock) == [.clock(every: .milliseconds(600))])
    state.playerOnTop.fullScreen = true
    #expect(subscriptions(state).filter(\.isClock) == [.clock(every: PlayerState.tick)])
  }
}
