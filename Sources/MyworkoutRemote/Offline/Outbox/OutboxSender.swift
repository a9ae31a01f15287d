/// What an outbox's sender tells the screen: how many changes wait, how many are put aside,
/// whether the last try failed, and whether the server refused the session (log in again).
package struct OutboxReport: Sendable, Equatable {
  package var waiting: Int
  package var aside: Int
  package var offline: Bool
  package var sessionRefused: Bool

  package init(waiting: Int, aside: Int = 0, offline: Bool, sessionRefused: Bool = false) {
    self.waiting = waiting
    self.aside = aside
    self.offline = offline
    self.sessionRefused = sessionRefused
  }
}

/// The wait between attempts while the server does not take changes: doubling from `base` up
/// to `cap`, with jitter ("equal jitter": half the step, plus a random part of the other half),
/// so that many clients coming back at once do not come back in step.
package struct Backoff: Sendable {
  package var base: Duration
  package var cap: Duration
  /// A number in 0...1 (injected so tests know the jitter).
  package var random: @Sendable () -> Double

  package init(
    base: Duration = .seconds(1), cap: Duration = .seconds(60),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
  ) {
    self.base = base
    self.cap = cap
    self.random = random
  }

  /// The wait after `failures` failed attempts in a row (1 or more).
  package func delay(afterFailures failures: Int) -> Duration {
    var step = base
    for _ in 1..<max(1, failures) where step < cap { step *= 2 }
    step = min(step, cap)
    return step / 2 + (step / 2) * min(1, max(0, random()))
  }
}

/// Sends an outbox's changes in order, in the background (SPEC §18): at once when there is
/// something new or the server answers again (`kick`), and after a failed attempt again after
/// the backoff on `clock`. A change the server refused is put aside, with a notice; a 401 stops
/// sending until the next `kick` (the next log-in), keeping everything.
package actor OutboxSender<C: Clock> where C.Duration == Duration {
  /// What the sender is doing, for the header and for tests.
  package enum State: Sendable, Equatable {
    /// Nothing waiting.
    case idle
    /// Sending changes.
    case sending
    /// Waiting `delay` before the next attempt; `failures` in a row so far.
    case backingOff(failures: Int, delay: Duration)
    /// The session expired: waiting for the next log-in.
    case signedOut
  }

  let store: OutboxStore
  let clock: C
  let backoff: Backoff
  let deliver: @Sendable (OutboxEntry) async -> Delivery
  /// Where the runs go (the app's own threads; nil: Swift's global pool).
  let executor: (any TaskExecutor)?
  let onNotice: @Sendable (String) -> Void
  /// Told what waits and how the last try went, whenever that may change.
  let onStatus: @Sendable (OutboxReport) -> Void
  package private(set) var state = State.idle {
    didSet {
      guard state != .sending, !waiters.isEmpty else { return }
      let waiting = waiters
      waiters = []
      for waiter in waiting { waiter.resume() }
    }
  }
  /// Callers of `settled()` waiting for the run to stop sending.
  private var waiters: [CheckedContinuation<Void, Never>] = []
  /// The last try to send failed; until one succeeds, the outbox is offline.
  package private(set) var offline = false
  /// The server itself refused the session (401) on the last try: the person must log in
  /// again (and not merely: someone else is signed in now, or no one).
  private var refused = false
  /// Failed tries in a row, for the backoff (kept across runs: a new change while the server
  /// is away does not start the backoff over).
  private var failures = 0
  private var run: Task<Void, Never>?
  /// Set by a `kick` while sending: look again before stopping.
  private var again = false
  /// Which run is current (a kicked-off run that wakes late must not clear the new one).
  private var generation = 0

  package init(
    store: OutboxStore, clock: C, backoff: Backoff = Backoff(),
    executor: (any TaskExecutor)? = nil,
    onNotice: @escaping @Sendable (String) -> Void = { _ in },
    onStatus: @escaping @Sendable (OutboxReport) -> Void = { _ in },
    deliver: @escaping @Sendable (OutboxEntry) async -> Delivery
  ) {
    self.store = store
    self.clock = clock
    self.backoff = backoff
    self.onNotice = onNotice
    self.onStatus = onStatus
    self.deliver = deliver
    self.executor = executor
  }

  /// A change was just written: it goes at once, unless the outbox is waiting out a backoff
  /// (the server is away; a new change does not bring it back), when it is only counted.
  package func added() async {
    if case .backingOff = state {
      await report()
      return
    }
    kick()
  }

  /// Sends what is waiting now: after a new change, at launch, at log-in, or when the server
  /// answered another call. A wait in progress is cut short; a run that is sending goes on.
  package func kick() {
    if run != nil, state == .sending {
      again = true
      return
    }
    run?.cancel()
    generation += 1
    let current = generation
    state = .sending
    run = Task(executorPreference: executor) { await self.drain(generation: current) }
  }

  /// Waits until the current run stops sending: everything sent, signed out, stopped, or
  /// waiting out a backoff (the server is away: a caller must not wait for it to come back).
  /// For tests and for a flush before Start over.
  package func settled() async {
    guard run != nil, state == .sending else { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Tells what waits now, as the store has it (so the count and the sender always agree).
  private func report() async {
    let (waiting, aside) = (try? await store.counts()) ?? (0, 0)
    onStatus(
      OutboxReport(
        waiting: waiting, aside: aside, offline: offline && waiting > 0,
        sessionRefused: state == .signedOut && refused))
  }

  /// Stops sending (log-out, or another account signed in): what waits stays for that
  /// account's next log-in.
  package func stop() {
    generation += 1
    run?.cancel()
    run = nil
    again = false
    state = .signedOut
  }

  private func drain(generation current: Int) async {
    defer {
      if generation == current { run = nil }
    }
    while generation == current, !Task.isCancelled {
      state = .sending
      let entry: OutboxEntry?
      do {
        let next = try await store.next()
        entry = next.entry
        if next.unreadable > 0 {
          let changes = next.unreadable == 1 ? "1 change" : "\(next.unreadable) changes"
          onNotice(
            "\(changes) waiting for the server could not be read by this version of the app; kept aside"
          )
        }
        // An empty outbox is told once, below, as the run ends (or by the next turn).
        if entry != nil { await report() }
      } catch {
        onNotice("The changes waiting for the server could not be read: \(error)")
        state = .idle
        return
      }
      guard let entry else {
        if again {
          again = false
          continue
        }
        state = .idle
        offline = false
        failures = 0
        await report()
        return
      }
      let delivery = await deliver(entry)
      do {
        switch delivery {
        case .delivered:
          refused = false
          failures = 0
          offline = false
          try await store.remove(entry)
        case .refused(let reason):
          try await store.putAside(entry, reason: reason)
          onNotice("A change was refused by the server and put aside: \(reason)")
        case .unauthorized(let bySession):
          guard generation == current else { return }
          refused = bySession
          state = .signedOut
          offline = true
          await report()
          return
        case .later:
          guard generation == current else { return }
          failures += 1
          offline = true
          await report()
          let delay = backoff.delay(afterFailures: failures)
          state = .backingOff(failures: failures, delay: delay)
          do {
            try await clock.sleep(for: delay)
          } catch {
            return  // cut short by `kick`: the new run goes on
          }
        }
      } catch {
        onNotice("The changes waiting for the server could not be saved: \(error)")
        state = .idle
        return
      }
    }
  }
}
