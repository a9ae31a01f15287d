import Foundation
import MyworkoutCore
import MyworkoutServices
import MyworkoutView
import Testing

@testable import myworkout

/// The Player through the runtime: the wall clock read when the Player opens and before every
/// key, no timer at all while paused, one 250 ms timer while playing, and saves carried out in
/// order and waited for at exit.
@MainActor
@Suite struct PlayerRuntimeTests {
  let terminal = RecordingTerminal()
  let timers = ManualTimers()
  let clock = WallClock(Date(timeIntervalSince1970: 1_800_000_000))
  let progress = MemoryProgress()
  static let item = DanceClass(
    id: "c1", title: "Hundred", instructor: "Ada", level: .beginner, song: "Song",
    videoURL: "v", thumbnailSlug: "", duration: 100)

  func runtime(
    progress: (any ProgressService)? = nil, sessions: any SessionPersisting = RecordingSessions(),
    beforeExit: Duration = .seconds(120),
    exits: @escaping @MainActor (Int32) -> Void = { _ in },
    report: @escaping @MainActor (String) -> Void = { _ in }
  ) -> Runtime {
    var player = PlayerState(danceClass: Self.item)
    player.playback = .paused
    var state = AppState.launch(with: .valid(Fixture.session(email: "registered@email.com")))
    guard case .signedIn(var signedIn) = state.root else { fatalError("signed in") }
    signedIn.path = [.player(player)]
    state.root = .signedIn(signedIn)
    let clock = self.clock
    let runtime = Runtime(
      state: state, terminal: terminal,
      services: Services(
        accounts: GatedAccountService(), catalog: MemoryCatalog.sample, lessons: .sample,
        images: .unused, progress: progress ?? self.progress),
      sessions: sessions, timers: timers, acceptedUntil: { _ in nil },
      now: { clock.now }, exit: exits,
      // The saves run on the shared pool, which the tests running beside this one can keep
      // busy for seconds: wait as long as it takes (the tests check order, not speed).
      saveLimits: Runtime.SaveLimits(
        beforeStop: .seconds(120), beforeExit: beforeExit, beforeLogOut: .seconds(120),
        beforeRead: .seconds(120)),
      report: report)
    runtime.start()
    return runtime
  }

  var repeating: [ManualTimers.Token] {
    timers.live.filter { $0.deadline == nil && $0.delay == nil }
  }

  @Test func pausedNothingWakesPlayingOneTimerAndKeysActAtTheirMoment() async {
    var statuses: [Int32] = []
    let app = runtime { statuses.append($0) }
    #expect(app.state.player?.clock == WallTime(milliseconds: 1_800_000_000_000), "read at once")
    #expect(repeating.isEmpty, "a paused Player runs no timer")

    clock.advance(by: 5)
    terminal.press(.character(" "))
    app.keysArrived()
    #expect(app.state.player?.playback == .playing)
    #expect(app.state.player?.unsavedTime == 5_000, "the paused time counted at the key")
    #expect(repeating.count == 1, "one clock timer while playing")
    #expect(app.runningTimers.contains(.clock(every: .milliseconds(250))))

    clock.advance(by: 0.25)
    repeating[0].fire()
    #expect(app.state.player?.position == 250)
    #expect(terminal.screen.contains("▶ Playing"))

    // Space 100 ms after the tick pauses at 350 ms, not at the tick.
    clock.advance(by: 0.1)
    terminal.press(.character(" "))
    app.keysArrived()
    #expect(app.state.player?.position == 350)
    #expect(repeating.isEmpty, "paused again: no timer")
    await settle { await progress.updates.count == 1 }
    // Stamped with when it was made (the wall clock at the key).
    #expect(
      await progress.updates == [
        ProgressUpdate(
          account: Fixture.accountID, classID: "c1", position: 350,
          played: IntervalSet([0..<350]), addedTimeInClass: 5_350,
          changedAt: 1_800_000_005_350)
      ])

    // A signal: the Player saves the time since, and the exit waits for the save.
    clock.advance(by: 2)
    app.dispatch(.terminationRequested(status: 143))
    #expect(statuses == [143])
    #expect(await progress.updates.count == 2, "saved before the exit returned")
    #expect(await progress.updates.last?.addedTimeInClass == 2_000)
  }

  /// Issue 24, item 1: the save on the way out needs no turn of the main actor, so the exit
  /// waits for it, not for the time limit (5 s), and the save is made when the exit comes.
  @Test func quittingFromThePlayerSavesBeforeTheExitWithoutWaitingOut() {
    var savedAtExit: [Int] = []
    let progress = self.progress
    let app = runtime { _ in savedAtExit.append(progress.recorded.withLock { $0 }) }
    clock.advance(by: 2)
    app.dispatch(.terminationRequested(status: 130))
    #expect(savedAtExit == [1], "the save was made before the process would end")
  }

  /// Progress that could not be saved before the exit is said once the terminal is restored
  /// (a walk-through quit while another program held the file locked: 3 s watched were gone,
  /// and nothing said so): a save that failed, and one still being written when the wait ended.
  @Test func progressNotSavedAtTheExitIsSaidAfterTheTerminalIsRestored() {
    /// Progress whose saves all fail with `error`.
    struct Failing: ProgressService {
      let error: ProgressError
      func progress(account: String, classID: String) async throws -> ClassProgress {
        ClassProgress()
      }
      func record(_ update: ProgressUpdate) async throws -> ClassProgress { throw error }
      func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int] {
        [:]
      }
    }
    var said: [String] = []
    var closedWhenSaid: [Int] = []
    let terminal = self.terminal
    let app = runtime(
      progress: Failing(
        error: ProgressError(message: "Progress could not be saved: database is locked")),
      report: {
        said.append($0)
        closedWhenSaid.append(terminal.closed)
      })
    clock.advance(by: 2)
    app.dispatch(.terminationRequested(status: 130))
    #expect(
      said == ["Progress of 1 class could not be saved before the app ended: database is locked"])
    #expect(closedWhenSaid == [1], "said on the restored terminal")

    /// What a Player played for 2 s and then ended says, its saves going to `progress`.
    func saidAtTheExit(_ progress: any ProgressService, beforeExit: Duration = .seconds(120))
      -> [String]
    {
      var said: [String] = []
      let app = runtime(progress: progress, beforeExit: beforeExit, report: { said.append($0) })
      clock.advance(by: 2)
      app.dispatch(.terminationRequested(status: 130))
      return said
    }

    let held = GatedProgress()
    #expect(
      saidAtTheExit(held, beforeExit: .milliseconds(100)) == [
        "Progress of 1 class may not have been saved before the app ended: still being "
          + "written after 0.1 s"
      ])
    held.open()

    // A save whose answer was lost may have been applied: "may not"; and no "Try again."
    // after the app has ended (a walk-through's exit line).
    let unanswered = ProgressError(
      message: "Progress could not be saved: The server did not answer. Try again.",
      isServerAway: true, mayHaveBeenApplied: true)
    #expect(
      saidAtTheExit(Failing(error: unanswered)) == [
        "Progress of 1 class may not have been saved before the app ended: The server did not "
          + "answer."
      ])
  }

  /// Issue 24, item 4: Ctrl-Z saves before the process stops, and the time it stays stopped is
  /// not time in class.
  @Test func ctrlZSavesBeforeStoppingAndStoppedTimeIsNotTimeInClass() async {
    let app = runtime()
    terminal.press(.character(" "))
    app.keysArrived()
    for _ in 0..<3 {
      clock.advance(by: 1)
      repeating[0].fire()
    }
    var savedWhenStopped: [Int] = []
    let progress = self.progress
    terminal.whileStopped = { [clock] in
      savedWhenStopped.append(progress.recorded.withLock { $0 })
      clock.advance(by: 20)
    }
    app.suspend()
    #expect(savedWhenStopped == [1], "saved before the process stopped")
    #expect(app.state.player?.playback == .paused)
    clock.advance(by: 1)
    terminal.press(.character(" "))
    app.keysArrived()
    #expect(app.state.player?.unsavedTime == 1_000, "the 20 s stopped count for nothing")
    #expect(await progress.updates.first?.addedTimeInClass == 3_000)
  }

  /// A log-out from the Player: the session is forgotten only once the Player's closing save
  /// is written. Remote mode sends that save with the session's token: a walk-through found
  /// it left in the outbox until the account's next log-in, even with the server up.
  @Test func aLogOutFromThePlayerForgetsTheSessionAfterItsClosingSave() async throws {
    let progress = GatedProgress()
    let sessions = NotingSessions { progress.recorded.withLock { $0 } }
    let app = runtime(progress: progress, sessions: sessions)
    clock.advance(by: 2)
    terminal.press(.control("o"))
    app.keysArrived()
    #expect(app.state.screen.kind == .getStarted)
    try await waitFor("the closing save to start") { progress.started.withLock { $0 } == 1 }
    // Watched for half a second: the session stays while the save is under way.
    await #expect(throws: (any Error).self, "forgotten before the save was written") {
      try await waitFor("the session to be forgotten", within: .milliseconds(500)) {
        !sessions.deletions.withLock { $0 }.isEmpty
      }
    }
    progress.open()
    try await waitFor("the session to be forgotten") {
      !sessions.deletions.withLock { $0 }.isEmpty
    }
    #expect(sessions.deletions.withLock { $0 } == [1], "forgotten after the save was written")
  }

  /// Waits (on the real clock) until `condition` holds; throws after `limit`.
  func waitFor(
    _ what: String, within limit: Duration = .seconds(60), _ condition: () -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
      guard ContinuousClock.now < deadline else { throw Timeout(what: what) }
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  struct Timeout: Error { let what: String }

  func settle(until condition: () async -> Bool) async {
    for _ in 0..<10_000 where !(await condition()) { await Task.yield() }
  }
}
