import Foundation
import MyworkoutCore
import MyworkoutImages
import MyworkoutServices
import Synchronization
import TestProcesses
import Testing

@testable import myworkout

/// The app's own threads (SPEC §16, §19: nothing on Dispatch's pool, whose monitor wakes the
/// process every second): what runs on them, how they start, and their sleeps.
@Suite struct WorkerThreadsTests {
  actor Counter {
    var count = 0
    func bump(on workers: WorkerThreads) -> Bool {
      count += 1
      return workers.ownsCurrentThread
    }
  }

  @Test func noThreadStartsBeforeWorkComesAndNoMoreThanTheLimit() async {
    let workers = WorkerThreads(limit: 2)
    #expect(workers.threadCount == 0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask(executorPreference: workers) { _ = workers.ownsCurrentThread }
      }
    }
    #expect((1...2).contains(workers.threadCount))
  }

  @Test func aTaskThatPrefersThemRunsThereAndSoDoItsActorsAndChildren() async {
    let workers = WorkerThreads(limit: 2)
    let counter = Counter()
    let outcome = await Task(executorPreference: workers) {
      let body = workers.ownsCurrentThread
      let actor = await counter.bump(on: workers)
      let child = await withTaskGroup(of: Bool.self) { group in
        group.addTask { workers.ownsCurrentThread }
        return await group.next() ?? false
      }
      async let bound = Self.onWorkers(workers)
      return [body, actor, child, await bound]
    }.value
    #expect(outcome == [true, true, true, true])
    #expect(!workers.ownsCurrentThread)
  }

  /// A task that calls into an actor and back, over and over, stays on the thread it started
  /// on: what one of the threads enqueues while nothing else waits is left for that thread, which
  /// is about to be free (a task that suspends enqueues what runs next, and its job then ends).
  /// Handing each hop to another thread cost remote mode's Player two thread switches a hop,
  /// about 28 a progress save (SPEC §16: at most 4 wake-ups a second while playing).
  @Test func hopsBetweenATaskAndAnActorWakeNoOtherThread() async {
    let workers = WorkerThreads(limit: 2)
    let counter = Counter()
    let onWorkers = await Task(executorPreference: workers) { () -> Bool in
      var all = true
      for _ in 0..<200 { all = await counter.bump(on: workers) && all }
      return all
    }.value
    #expect(onWorkers)
    #expect(await counter.count == 200)
    #expect(workers.threadCount == 1, "a second thread was started for a hop")
    #expect(workers.wakeCount == 1, "only the first thread's start woke a thread")
  }

  /// With both threads started, the same hops still wake neither; and work that comes while a
  /// thread's own job is not the only one waiting still gets an idle thread: two tasks that
  /// each hold a thread until both run, started from one of the threads, both finish.
  @Test func hopsWakeNoIdleThreadAndParallelWorkStillGetsOne() async {
    let workers = WorkerThreads(limit: 2)
    let counter = Counter()
    let arrived = Log()
    let met = await Task(executorPreference: workers) { () -> Bool in
      await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<2 {
          group.addTask {
            arrived.items.withLock { $0.append(1) }
            let limit = ContinuousClock.now.advanced(by: .seconds(60))
            while arrived.items.withLock({ $0.count }) < 2 && ContinuousClock.now < limit {}
            return arrived.items.withLock { $0.count } == 2
          }
        }
        var met = true
        for await value in group { met = met && value }
        return met
      }
    }.value
    #expect(met, "the two tasks ran at the same time, on the two threads")
    #expect(workers.threadCount == 2)
    // Counted from inside the task, after its first hop: by then the other thread has long
    // gone idle (counting from outside raced with it getting there).
    let wakes = await Task(executorPreference: workers) { () -> (first: Int, last: Int) in
      _ = await counter.bump(on: workers)
      let first = workers.wakeCount
      for _ in 0..<200 { _ = await counter.bump(on: workers) }
      return (first, workers.wakeCount)
    }.value
    #expect(wakes.last == wakes.first, "a hop woke the idle thread")
  }

  /// The thread that kept the sleepers' time, once it resumes the first sleeper and runs it,
  /// leaves the time to an idle thread: the next sleep ends while that job still runs. (Left
  /// with the resuming thread, the job kept the only timekeeper busy, and the second sleep
  /// ended only when the job did.)
  @Test func aSleepEndsWhileTheJobOfTheSleepBeforeItRuns() async throws {
    let workers = WorkerThreads(limit: 2)
    let clock = WorkerClock(workers: workers)
    for _ in 0..<5 {
      let woke = Flag()
      let start = clock.now
      let first = Task(executorPreference: workers) { () -> Bool in
        try await clock.sleep(until: start.advanced(by: .milliseconds(20)))
        let limit = ContinuousClock.now.advanced(by: .seconds(5))
        while !woke.value.withLock({ $0 }) && ContinuousClock.now < limit {}
        return woke.value.withLock { $0 }
      }
      let second = Task(executorPreference: workers) {
        try await clock.sleep(until: start.advanced(by: .milliseconds(40)))
        woke.value.withLock { $0 = true }
      }
      #expect(try await first.value, "the second sleep ended while the first one's job ran")
      try await second.value
    }
  }

  final class Log: Sendable {
    let items = Mutex<[Int]>([])
  }

  nonisolated static func onWorkers(_ workers: WorkerThreads) async -> Bool {
    workers.ownsCurrentThread
  }

  @Test func aSleepEndsAtItsDeadlineOnTheWorkers() async throws {
    let workers = WorkerThreads(limit: 1)
    let clock = WorkerClock(workers: workers)
    let start = clock.now
    let woke = try await Task(executorPreference: workers) {
      try await clock.sleep(for: .milliseconds(30))
      return (clock.now, workers.ownsCurrentThread)
    }.value
    #expect(woke.0 >= start.advanced(by: .milliseconds(30)))
    #expect(woke.1)
  }

  @Test func sleepersWakeInTheOrderOfTheirDeadlines() async throws {
    let workers = WorkerThreads(limit: 1)
    let clock = WorkerClock(workers: workers)
    let order = Log()
    let start = clock.now
    await withThrowingTaskGroup(of: Void.self) { group in
      // Started latest deadline first: an earlier one must wake the timekeeper.
      for (index, milliseconds) in [60, 40, 20].enumerated() {
        group.addTask(executorPreference: workers) {
          try await clock.sleep(until: start.advanced(by: .milliseconds(milliseconds)))
          order.items.withLock { $0.append(index) }
        }
      }
    }
    #expect(order.items.withLock { $0 } == [2, 1, 0])
  }

  /// The thread keeping time, woken for a job that holds it, hands the time over to another
  /// idle thread: a sleep still ends while the job runs (the job runs until it has, or 5 s).
  /// Which waiting thread a job wakes is the kernel's choice, so it is tried twenty times.
  @Test func aSleepEndsWhileAnotherJobHoldsTheThreadThatKeptTime() async throws {
    let workers = WorkerThreads(limit: 2)
    let clock = WorkerClock(workers: workers)
    for _ in 0..<20 {
      let woke = Flag()
      let sleeper = Task(executorPreference: workers) {
        try await clock.sleep(for: .milliseconds(20))
        woke.value.withLock { $0 = true }
      }
      // Both threads idle, one of them keeping the sleeper's time.
      for _ in 0..<100_000 where workers.threadCount < 2 { await Task.yield() }
      let job = Task(executorPreference: workers) { () -> Bool in
        let limit = ContinuousClock.now.advanced(by: .seconds(5))
        while !woke.value.withLock({ $0 }) && ContinuousClock.now < limit {}
        return woke.value.withLock { $0 }
      }
      #expect(await job.value, "the sleeper woke while the job held a thread")
      try await sleeper.value
    }
  }

  /// What one task of the model test did.
  enum Outcome: Equatable {
    case ran(onWorkers: Bool)
    case woke(early: Bool, onWorkers: Bool)
    case cancelled(onWorkers: Bool)
  }

  /// A seeded model of what the app asks of its threads: rounds of jobs, sleeps of 0–30 ms and
  /// sleeps of an hour, some cancelled at once, some after a while, some while they run,
  /// mixed. After each round: every task ended exactly once, on the workers; no sleep ended
  /// before its deadline; every hour-long sleep was cancelled, and nothing else was. The seed
  /// is printed (`MYWORKOUT_WORKERS_SEED` replays it).
  @Test func aSeededMixOfJobsSleepsAndCancellationsKeepsEveryPromise() async throws {
    let seed =
      ProcessInfo.processInfo.environment["MYWORKOUT_WORKERS_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    print("WorkerThreads model test: seed \(seed) (MYWORKOUT_WORKERS_SEED replays it)")
    var random = SplitMix64(seed: seed)
    let workers = WorkerThreads(limit: 3)
    let clock = WorkerClock(workers: workers)
    for round in 0..<12 {
      var tasks: [(task: Task<Outcome, Never>, expected: Outcome)] = []
      var toCancel: [Task<Outcome, Never>] = []
      for _ in 0..<Int.random(in: 5...40, using: &random) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          tasks.append(
            (
              Task(executorPreference: workers) { .ran(onWorkers: workers.ownsCurrentThread) },
              .ran(onWorkers: true)
            ))
        case 1, 2:
          let milliseconds = Int.random(in: 0...30, using: &random)
          let task = Task(executorPreference: workers) { () -> Outcome in
            let deadline = clock.now.advanced(by: .milliseconds(milliseconds))
            do {
              try await clock.sleep(until: deadline)
            } catch {
              return .cancelled(onWorkers: workers.ownsCurrentThread)
            }
            return .woke(early: clock.now < deadline, onWorkers: workers.ownsCurrentThread)
          }
          tasks.append((task, .woke(early: false, onWorkers: true)))
        default:
          let task = Task(executorPreference: workers) { () -> Outcome in
            do {
              try await clock.sleep(for: .seconds(3600))
            } catch {
              return .cancelled(onWorkers: workers.ownsCurrentThread)
            }
            return .woke(early: false, onWorkers: workers.ownsCurrentThread)
          }
          tasks.append((task, .cancelled(onWorkers: true)))
          if Bool.random(using: &random) { task.cancel() } else { toCancel.append(task) }
        }
        if Int.random(in: 0..<8, using: &random) == 0 { await Task.yield() }
      }
      // The rest of the hour-long sleeps: cancelled once the others have had a moment.
      try await clock.sleep(for: .milliseconds(Int.random(in: 0...10, using: &random)))
      for task in toCancel { task.cancel() }
      for (index, entry) in tasks.enumerated() {
        let outcome = await entry.task.value
        #expect(
          outcome == entry.expected,
          "round \(round), task \(index): \(outcome) (seed \(seed))")
      }
    }
    #expect(workers.threadCount <= 3)
  }

  final class Flag: Sendable {
    let value = Mutex(false)
  }

  @Test func aCancelledSleepEndsAtOnceWithCancellation() async {
    let workers = WorkerThreads(limit: 2)
    let clock = WorkerClock(workers: workers)
    let asleep = Task(executorPreference: workers) {
      try await clock.sleep(for: .seconds(3600))
    }
    asleep.cancel()
    let result = await asleep.result
    #expect(throws: CancellationError.self) { try result.get() }
    // Cancelled before it slept: the same.
    let late = Task(executorPreference: workers) {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(3600))
    }
    let lateResult = await late.result
    #expect(throws: CancellationError.self) { try lateResult.get() }
  }

  @Test func aJobWaitingWhileEveryThreadWorksRunsWhenOneIsFree() async {
    let workers = WorkerThreads(limit: 1)
    let first = Task(executorPreference: workers) { () -> Bool in
      // Holds the only thread a moment without suspending.
      var sum = 0
      for value in 0..<200_000 { sum &+= value }
      return sum > 0
    }
    let second = Task(executorPreference: workers) { workers.ownsCurrentThread }
    #expect(await first.value)
    #expect(await second.value)
    #expect(workers.threadCount == 1)
  }
}

/// The effects' work on the app's threads: a service call and a progress save.
@MainActor
@Suite struct EffectsOnWorkerThreadsTests {
  /// Account and progress services that note whether each call ran on the workers.
  final class WhereCalled: AccountService, ProgressService, Sendable {
    let workers: WorkerThreads
    let onWorkers = Mutex<[String: Bool]>([:])
    init(_ workers: WorkerThreads) { self.workers = workers }
    private func note(_ call: String) {
      onWorkers.withLock { $0[call] = workers.ownsCurrentThread }
    }
    func isRegistered(email: String) async throws -> Bool {
      note("isRegistered")
      return true
    }
    func logIn(email: String, password: String) async throws -> Session {
      note("logIn")
      throw ServiceError.wrongCredentials
    }
    func signUp(_ registration: Registration) async throws -> Session {
      note("signUp")
      throw ServiceError.wrongCredentials
    }
    func updateMobile(token: String, mobile: String) async throws -> Session {
      note("updateMobile")
      throw ServiceError.wrongCredentials
    }
    func progress(account: String, classID: String) async throws -> ClassProgress {
      note("progress")
      return ClassProgress()
    }
    func record(_ update: ProgressUpdate) async throws -> ClassProgress {
      note("record")
      return ClassProgress()
    }
    func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int] {
      note("watchedPercents")
      return [:]
    }
  }

  @Test func aRequestAndAProgressSaveRunOnTheWorkers() async throws {
    let workers = WorkerThreads(limit: 2)
    let services = WhereCalled(workers)
    var answers: [Action] = []
    let runner = EffectRunner(
      services: Services(
        accounts: services, catalog: MemoryCatalog.sample, lessons: .sample, images: .unused,
        progress: services),
      sessions: RecordingSessions(), executor: workers,
      send: { answers.append($0) }, quit: { _ in })
    runner.run(.run(.checkEmail, .checkEmail("registered@email.com")))
    runner.run(.recordProgress(ProgressUpdate(account: "a", classID: "c", position: 1)))
    for _ in 0..<10_000 where answers.count < 2 { await Task.yield() }
    runner.finishWrites(within: .seconds(5))
    #expect(services.onWorkers.withLock { $0 } == ["isRegistered": true, "record": true])
  }
}

/// Image decodes on the app's drawing threads: a decode whose requests were all cancelled
/// before its turn came is not started (a walk-through passed 20 classes whose thumbnails were
/// large PNGs: their decodes ran one after another, 18 s of CPU, ahead of the Player).
@Suite struct ImageDecodesOnWorkerThreadsTests {
  /// Serves a small PNG for every image, holding the thread that reads `hold` until released.
  final class HoldingService: ImageService, Sendable {
    let bytes: [UInt8]
    let reads = Mutex<[String]>([])
    let held = Mutex(false)
    let released = Mutex(false)

    init() throws {
      let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Assets/images/leaf-alpha.png")
      bytes = Array(try Data(contentsOf: file))
    }

    func listImages() async throws -> [ImageInfo] { [] }

    func bytes(of image: ImageInfo) async throws -> [UInt8] {
      reads.withLock { $0.append(image.id) }
      if image.id == "hold" {
        held.withLock { $0 = true }
        // Holds this thread (the only one) without suspending, as a long decode does, until the
        // test releases it (always, on its way out). It let go by itself after 10 s once, and
        // on CI's loaded two cores this test takes 23–38 s: the passed-over decode then found
        // the thread free before its request was cancelled, and ran.
        while !released.withLock({ $0 }) { usleep(1_000) }
      }
      return bytes
    }

    static func info(_ id: String) -> ImageInfo {
      ImageInfo(id: id, caption: id, location: .file("/" + id))
    }
  }

  @Test func aDecodeNobodyWaitsForWhenItsTurnComesIsNotStarted() async throws {
    let drawing = WorkerThreads(limit: 1)
    let service = try HoldingService()
    let cache = ImageCache(service: service, executor: drawing)
    let tile = TileSize(columns: 10, rows: 4)
    defer { service.released.withLock { $0 = true } }
    let holding = Task {
      await cache.picture(for: HoldingService.info("hold"), tile: tile, colors: .xterm256)
    }
    // Waited for with a deadline, not a count of yields, which can run out on a loaded machine
    // before the other task has even run.
    let deadline = ContinuousClock.now.advanced(by: .seconds(120))
    while !service.held.withLock({ $0 }) && ContinuousClock.now < deadline { await Task.yield() }
    try #require(service.held.withLock { $0 }, "the first decode holds the only thread")
    let passed = Task {
      await cache.picture(for: HoldingService.info("passed"), tile: tile, colors: .xterm256)
    }
    while await cache.decodeCount < 2 && ContinuousClock.now < deadline { await Task.yield() }
    try #require(await cache.decodeCount == 2, "the passed-over decode waits for the thread")
    passed.cancel()
    service.released.withLock { $0 = true }
    #expect((try? await holding.value.get()) != nil)
    _ = await passed.value
    #expect(service.reads.withLock { $0 } == ["hold"], "the passed-over image was never read")
    // Asked for again: decoded then.
    let again = await cache.picture(
      for: HoldingService.info("passed"), tile: tile, colors: .xterm256)
    #expect((try? again.get()) != nil)
    #expect(service.reads.withLock { $0 } == ["hold", "passed"])
  }
}
