import CEventLoop

#if canImport(Glibc)
  import Glibc
#endif

/// The app's own threads for its services' work. Every effect's task prefers them (a task
/// executor, SE-0417), and so do the actors and child tasks it calls into, so nothing the app asks
/// of its services runs on Dispatch's global pool: on Linux, the first job that pool runs starts
/// swift-corelibs-libdispatch's workqueue monitor, a timer that wakes the process every second
/// for as long as it lives — one search, and a paused Player was never idle again (SPEC §16 and
/// §19: 0 wake-ups while paused). The embedded services' latency sleeps here too (`WorkerClock`),
/// as `Task.sleep` schedules its wake-up on that pool.
///
/// Threads start when work first comes (none on the path to Get started), up to `limit`, and wait
/// on a condition while there is none: an idle app wakes no thread. One idle thread at a time
/// keeps the sleepers' time, waiting until the first deadline.
package final class WorkerThreads: TaskExecutor, @unchecked Sendable {
  private struct Sleeper {
    let id: UInt64
    let deadline: ContinuousClock.Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// One per core, at least two (a password hash must not hold up a search).
  package static var defaultLimit: Int { max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  package let limit: Int
  private let name: String
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Waited on by idle threads; the timekeeper's wait ends at the first deadline (monotonic).
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // All below under `mutex`.
  private var jobs: [UnownedJob] = []
  private var nextJob = 0
  /// Sorted by deadline.
  private var sleepers: [Sleeper] = []
  private var sleeperCount: UInt64 = 0
  private var threads: [pthread_t] = []
  /// Threads waiting for work, and how many of them were signalled and are yet to wake.
  private var idle = 0
  private var signalled = 0
  private var timekeeper = false
  /// How many times a thread was signalled or started (for tests).
  private var wakes = 0

  /// `name` names the threads (`top -H`, /proc/PID/task/TID/comm).
  package init(limit: Int = WorkerThreads.defaultLimit, name: String = "myworkout-work") {
    self.limit = max(1, limit)
    self.name = name
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  /// How many threads have started so far.
  package var threadCount: Int { locked { threads.count } }

  /// How many times a thread was signalled or started so far.
  package var wakeCount: Int { locked { wakes } }

  /// Whether the calling thread is one of these.
  package var ownsCurrentThread: Bool {
    let me = pthread_self()
    return locked { isOneOfThese(me) }
  }

  /// Under the lock: whether `thread` is one of these.
  private func isOneOfThese(_ thread: pthread_t) -> Bool {
    threads.contains { pthread_equal($0, thread) != 0 }
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let caller = pthread_self()
    let signal = locked {
      let waiting = jobs.count - nextJob
      jobs.append(job)
      // Enqueued by one of these threads while nothing else waits: left for that thread, which
      // is about to be free. A task that suspends enqueues what runs next (an actor's turn, its
      // own continuation) and its job then ends; a thread that resumes sleepers goes on to run
      // them. Waking another thread for it handed the work from thread to thread, two switches
      // a hop (tokio's "LIFO slot" makes the same choice). The price: a job that enqueues work
      // and then runs long holds that work until it ends; more work than that one job, and an
      // idle thread is woken for it (here, or when the thread takes its next job). So is one
      // when sleepers wait and no thread keeps their time (the one that kept it is resuming
      // the first of them, and would run it).
      if waiting == 0, sleepers.isEmpty || timekeeper, isOneOfThese(caller) { return false }
      return wakeOrStart()
    }
    if signal { pthread_cond_signal(condition) }
  }

  /// Suspends the calling task until `deadline` (at once if it has passed); throws
  /// `CancellationError` as soon as the task is cancelled.
  package func sleep(until deadline: ContinuousClock.Instant) async throws {
    let id = locked {
      sleeperCount &+= 1
      return sleeperCount
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        // Under the lock: a cancellation either came before (seen here) or finds the sleeper.
        let (cancelled, signal): (Bool, Bool) = locked {
          if Task.isCancelled { return (true, false) }
          let sleeper = Sleeper(id: id, deadline: deadline, continuation: continuation)
          let index = sleepers.firstIndex { $0.deadline > deadline } ?? sleepers.endIndex
          sleepers.insert(sleeper, at: index)
          if index == 0 && timekeeper {
            // An earlier deadline than the one kept: every idle thread looks again.
            pthread_cond_broadcast(condition)
          } else if !timekeeper {
            return (false, wakeOrStart())
          }
          return (false, false)
        }
        if signal { pthread_cond_signal(condition) }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper: Sleeper? = locked {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  // MARK: - The threads

  /// Under the lock: an idle thread takes the new work, else a new one starts (up to `limit`).
  /// Returns whether the caller is to signal the condition, once it has let go of the lock: a
  /// thread woken under the lock would find it held and go back to sleep on it at once (a
  /// second thread switch for every wake-up).
  private func wakeOrStart() -> Bool {
    if idle > signalled {
      signalled += 1
      wakes += 1
      return true
    } else if threads.count < limit {
      wakes += 1
      start()
    }
    return false
  }

  /// Under the lock.
  private func start() {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        let workers = Unmanaged<WorkerThreads>.fromOpaque(context!).takeRetainedValue()
        workers.name.withCString { mw_name_this_thread($0) }
        workers.run()
        return nil
      }, context)
    guard started == 0 else {
      Unmanaged<WorkerThreads>.fromOpaque(context).release()
      return
    }
    pthread_detach(thread)
    threads.append(thread)
  }

  private func run() -> Never {
    pthread_mutex_lock(mutex)
    while true {
      let now = ContinuousClock.now
      if let first = sleepers.first, first.deadline <= now {
        let due = sleepers.prefix { $0.deadline <= now }
        sleepers.removeFirst(due.count)
        pthread_mutex_unlock(mutex)
        for sleeper in due { sleeper.continuation.resume() }
        pthread_mutex_lock(mutex)
        continue
      }
      if nextJob < jobs.count {
        let job = jobs[nextJob]
        nextJob += 1
        var signal = false
        if nextJob == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          nextJob = 0
        } else if jobs.count - nextJob > signalled {
          // Work left over that no woken thread is on its way to: another thread takes a share
          // (work a thread enqueued for itself and then did not come back to, among others).
          signal = wakeOrStart()
        }
        pthread_mutex_unlock(mutex)
        if signal { pthread_cond_signal(condition) }
        job.runSynchronously(on: asUnownedTaskExecutor())
        pthread_mutex_lock(mutex)
        continue
      }
      idle += 1
      let keepsTime = !timekeeper && !sleepers.isEmpty
      var timedOut = false
      if keepsTime {
        timekeeper = true
        timedOut = waitUntil(sleepers[0].deadline, from: now)
        timekeeper = false
      } else {
        pthread_cond_wait(condition, mutex)
      }
      idle -= 1
      if signalled > 0 { signalled -= 1 }
      // Woken for work while keeping time: another idle thread keeps it meanwhile.
      if keepsTime, !timedOut, !sleepers.isEmpty, nextJob < jobs.count, idle > signalled {
        signalled += 1
        wakes += 1
        pthread_cond_signal(condition)
      }
    }
  }

  /// Under the lock: waits on the condition until `deadline` at the latest, and says whether it
  /// ended there (the condition's clock is CLOCK_MONOTONIC; ContinuousClock's is CLOCK_BOOTTIME,
  /// so the wait is set from the time left).
  private func waitUntil(_ deadline: ContinuousClock.Instant, from now: ContinuousClock.Instant)
    -> Bool
  {
    let left = now.duration(to: deadline).components
    var wake = timespec()
    clock_gettime(CLOCK_MONOTONIC, &wake)
    let nanoseconds = Int64(wake.tv_nsec) + left.attoseconds / 1_000_000_000 + 1
    wake.tv_sec += Int(left.seconds + nanoseconds / 1_000_000_000)
    wake.tv_nsec = Int(nanoseconds % 1_000_000_000)
    return pthread_cond_timedwait(condition, mutex, &wake) == ETIMEDOUT
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// The embedded services' clock in the app: `ContinuousClock`'s time, slept on `WorkerThreads`
/// (`ContinuousClock.sleep` would wake through Dispatch's pool).
package struct WorkerClock: Clock {
  package let workers: WorkerThreads

  package init(workers: WorkerThreads) { self.workers = workers }

  package var now: ContinuousClock.Instant { .now }
  package var minimumResolution: Duration { ContinuousClock().minimumResolution }

  package func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil)
    async throws
  {
    try await workers.sleep(until: deadline)
  }
}
