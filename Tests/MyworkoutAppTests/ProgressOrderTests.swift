import Foundation
import MyworkoutCore
import MyworkoutServices
import Synchronization
import Testing

@testable import myworkout

/// A class's progress is read after the saves sent before it, and answered after theirs, and
/// each save is stamped with when it was made: a read made while an earlier visit's save was on
/// its way resumed the class at the point before it, and a save of that older point then put it
/// back (a seeded model test of the Player's saves).
@MainActor
@Suite struct ProgressOrderTests {
  /// Progress whose saves wait until `open()`; a read gives the last position saved.
  final class HeldProgress: ProgressService {
    let started = Mutex(0)
    let reads = Mutex(0)
    private let gate = Mutex(false)
    private let position = Mutex(0)

    func open() { gate.withLock { $0 = true } }

    func progress(account: String, classID: String) async throws -> ClassProgress {
      reads.withLock { $0 += 1 }
      return ClassProgress(lastPosition: position.withLock { $0 })
    }

    func record(_ update: ProgressUpdate) async throws -> ClassProgress {
      started.withLock { $0 += 1 }
      while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(2)) }
      position.withLock { $0 = update.position }
      return ClassProgress(lastPosition: update.position)
    }

    func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int] {
      [:]
    }
  }

  /// Waits until `condition` holds, up to two minutes (a whole test run can keep every
  /// thread of the pool busy for long).
  func settle(until condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition(), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  @Test func aClassesProgressIsReadAfterTheSavesSentBeforeIt() async {
    let progress = HeldProgress()
    var answers: [Action] = []
    let runner = runner(progress) { answers.append($0) }
    let save = ProgressUpdate(account: Fixture.accountID, classID: "c1", position: 42_000)
    runner.run(.recordProgress(save))
    runner.run(.run(.progressLoad, .loadProgress(account: Fixture.accountID, classID: "c1")))
    await settle { progress.started.withLock { $0 } == 1 }
    progress.open()
    await settle { answers.count == 2 }
    var stamped = save
    stamped.changedAt = 1_800_000_000_000
    #expect(
      answers == [
        .player(.progressSaved(.success(ClassProgress(lastPosition: 42_000)), stamped)),
        .player(.progressLoaded(.success(ClassProgress(lastPosition: 42_000)))),
      ])
    #expect(progress.reads.withLock { $0 } == 1)
  }

  /// A runner whose reads wait for their class's saves far longer than any test runs, unless
  /// told otherwise: a whole test run once held a save from starting for more than the app's
  /// 10 s, and the read then gave up (the give-up has its own test).
  func runner(
    _ progress: HeldProgress, savesBeforeRead: Duration = .seconds(3_600),
    savesBeforeLogOut: Duration = .seconds(5), send: @escaping @MainActor (Action) -> Void
  ) -> EffectRunner {
    EffectRunner(
      services: Services(
        accounts: GatedAccountService(), catalog: MemoryCatalog.sample, lessons: .sample,
        images: .unused, progress: progress),
      sessions: RecordingSessions(), savesBeforeLogOut: savesBeforeLogOut,
      savesBeforeRead: savesBeforeRead,
      now: { Date(timeIntervalSince1970: 1_800_000_000) }, send: send, quit: { _ in })
  }

  /// A walk-through's `Loading…` lasted about a minute: a read waited for the saves of every
  /// class, each up to 20 s against a server that did not answer.
  @Test func anotherClassesSaveOnItsWayNeitherHoldsAReadNorASave() async {
    let progress = HeldProgress()
    var answers: [Action] = []
    let runner = runner(progress) { answers.append($0) }
    runner.run(
      .recordProgress(ProgressUpdate(account: Fixture.accountID, classID: "c1", position: 1_000)))
    await settle { progress.started.withLock { $0 } == 1 }
    runner.run(.run(.progressLoad, .loadProgress(account: Fixture.accountID, classID: "c2")))
    runner.run(
      .recordProgress(ProgressUpdate(account: Fixture.accountID, classID: "c2", position: 2_000)))
    await settle { answers.count == 1 && progress.started.withLock { $0 } == 2 }
    #expect(answers == [.player(.progressLoaded(.success(ClassProgress())))])
    #expect(progress.started.withLock { $0 } == 2)
    progress.open()
    await settle { answers.count == 3 }
    #expect(answers.count == 3)
  }

  /// The read waits for its class's saves a while, then is answered as failed without reading
  /// (what it would read may be older than the save on its way).
  @Test func aReadWhoseClassesSaveStaysOnItsWayFailsWithoutReading() async {
    let progress = HeldProgress()
    var answers: [Action] = []
    let runner = runner(progress, savesBeforeRead: .milliseconds(20)) { answers.append($0) }
    let save = ProgressUpdate(account: Fixture.accountID, classID: "c1", position: 1_000)
    runner.run(.recordProgress(save))
    runner.run(.run(.progressLoad, .loadProgress(account: Fixture.accountID, classID: "c1")))
    await settle { !answers.isEmpty }
    var error = ProgressError(
      message: "Progress could not be read: earlier saves of this class are still on their way")
    error.savesOnTheirWay = KeptPosition(position: 1_000, changedAt: 1_800_000_000_000)
    #expect(answers == [.player(.progressLoaded(.failure(error)))])
    #expect(progress.reads.withLock { $0 } == 0)
    progress.open()
    await settle { answers.count == 2 }
    #expect(answers.count == 2)
  }

  /// A read after a save that ends at once reads (a tmux test through the load balancer saw
  /// `earlier saves … still on their way` at once: the wait's timer, stopped, answered first).
  @Test func aReadAfterASaveThatEndsReadsEveryTime() async {
    let progress = HeldProgress()
    progress.open()
    var answers: [Action] = []
    let runner = runner(progress) { answers.append($0) }
    for round in 0..<200 {
      runner.run(
        .recordProgress(
          ProgressUpdate(account: Fixture.accountID, classID: "c1", position: round * 1_000)))
      runner.run(.run(.progressLoad, .loadProgress(account: Fixture.accountID, classID: "c1")))
      await settle { answers.count == 2 * (round + 1) }
    }
    let failed = answers.filter {
      if case .player(.progressLoaded(.failure)) = $0 { return true }
      return false
    }
    #expect(answers.count == 400)
    #expect(failed.isEmpty, "\(failed.count) of 200 reads gave up")
  }

  /// A log-out whose wait for the saves ends with one still on its way says so (a
  /// walk-through logged out while the server hung, and part of a visit was gone unsaid).
  @Test func aLogOutBeforeASaveEndsSaysSo() async {
    let progress = HeldProgress()
    var answers: [Action] = []
    let runner = runner(progress, savesBeforeLogOut: .milliseconds(100)) { answers.append($0) }
    runner.run(
      .recordProgress(ProgressUpdate(account: Fixture.accountID, classID: "c1", position: 1_000)))
    runner.run(.endSession(Fixture.session(email: "registered@email.com")))
    await settle { !answers.isEmpty }
    #expect(
      answers == [
        .noticeRaised(
          "Progress of 1 class may not have been saved before the log-out: still being "
            + "written after 0.1 s")
      ])
    progress.open()
    await settle { answers.count == 2 }
  }
}
