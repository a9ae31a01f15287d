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
  let onNotice: @Sendable (String) -> Void
  /// Told how many changes wait and whether the last try failed, whenever that may change.
  let onStatus: @Sendable (_ waiting: Int, _ offline: Bool) -> Void
  package private(set) var state = State.idle
  /// The last try to send failed; until one succeeds, the outbox is offline.
  package private(set) var offline = false
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
    onNotice: @escaping @Sendable (String) -> Void = { _ in },
    onStatus: @escaping @Sendable (_ waiting: Int, _ offline: Bool) -> Void = { _, _ in },
    deliver: @escaping @Sendable (OutboxEntry) async -> Delivery
  ) {
    self.store = store
    self.clock = clock
    self.backoff = backoff
    self.onNotice = onNotice
    self.onStatus = onStatus
    self.deliver = deliver
  }

  /// A change was just written: it goes at once, unless the outbox is waiting out a backoff
  /// (the server is away; a new change does not bring it back), when it is only counted.
  package func added() async {
    if case .backingOff = state {
      report(waiting: (try? await store.count()) ?? 0)
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
    run = Task { await self.drain(generation: current) }
  }

  /// Waits for the current run to stop (everything sent, signed out, or cancelled). For tests
  /// and for a flush before Start over.
  package func settled() async {
    while let run, state == .sending {
      await run.value
    }
  }

  private func report(waiting: Int) {
    onStatus(waiting, offline && waiting > 0)
  }

  private func drain(generation current: Int) async {
    defer {
      if generation == current { run = nil }
    }
    while generation == current, !Task.isCancelled {
      state = .sending
      let entry: OutboxEntry?
      do {
        entry = try await store.next()
        report(waiting: try await store.count())
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
        report(waiting: 0)
        return
      }
      let delivery = await deliver(entry)
      do {
        switch delivery {
        case .delivered:
          failures = 0
          offline = false
          try await store.remove(entry)
        case .refused(let reason):
          try await store.putAside(entry, reason: reason)
          onNotice("A change was refused by the server and put aside: \(reason)")
        case .unauthorized:
          state = .signedOut
          offline = true
          report(waiting: try await store.count())
          return
        case .later:
          failures += 1
          offline = true
          report(waiting: try await store.count())
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
