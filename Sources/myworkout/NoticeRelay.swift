import Dispatch
import MyworkoutCore
import Synchronization

/// Carries one-line notices from the services (raised on any thread, e.g. a damaged
/// accounts.json found during a request) to the runtime, on the main queue. Made before the
/// services and connected to the runtime once it exists, so nothing reaches for a global.
/// Notices raised before it connects are kept and said then (a walk-through's damaged outbox,
/// found as remote mode opened on a kept session, was moved aside without a word).
final class NoticeRelay: Sendable {
  private let state = Mutex<
    (target: (@MainActor @Sendable (String) -> Void)?, waiting: [String])
  >((nil, []))
  /// Runs a block on the main queue (tests run them when they choose).
  private let post: @Sendable (@escaping @Sendable () -> Void) -> Void
  /// The most notices kept before a connection (a run that never connects keeps no more).
  static let keptBeforeConnecting = 16

  init(
    post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = {
      DispatchQueue.main.async(execute: $0)
    }
  ) {
    self.post = post
  }

  /// From now on, notices go to `deliver` (on the main actor), starting with those kept.
  func connect(_ deliver: @escaping @MainActor @Sendable (String) -> Void) {
    state.withLock { state in
      state.target = deliver
      // Posted under the lock: a notice raised meanwhile comes after them.
      for notice in state.waiting { send(notice, to: deliver) }
      state.waiting = []
    }
  }

  /// Raises a notice from any thread; kept until something connects.
  func raise(_ notice: String) {
    state.withLock { state in
      guard let deliver = state.target else {
        if state.waiting.count < Self.keptBeforeConnecting { state.waiting.append(notice) }
        return
      }
      send(notice, to: deliver)
    }
  }

  private func send(_ notice: String, to deliver: @escaping @MainActor @Sendable (String) -> Void) {
    post { MainActor.assumeIsolated { deliver(notice) } }
  }
}

/// Carries remote mode's outbox state to the runtime, on the main queue. Unlike a notice, the
/// latest state is kept until something connects: the outbox may report it (at launch) before
/// the runtime exists, and the header must still show it.
final class SyncRelay: Sendable {
  private let state = Mutex<
    (target: (@MainActor @Sendable (SyncStatus) -> Void)?, latest: SyncStatus?)
  >((nil, nil))
  /// Runs a block on the main queue (tests run them in an order of their choosing).
  private let post: @Sendable (@escaping @Sendable () -> Void) -> Void

  init(
    post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = {
      DispatchQueue.main.async(execute: $0)
    }
  ) {
    self.post = post
  }

  /// From now on, states go to `deliver` (on the main actor), starting with the latest.
  func connect(_ deliver: @escaping @MainActor @Sendable (SyncStatus) -> Void) {
    state.withLock { $0.target = deliver }
    deliverLatest(to: deliver)
  }

  /// Reports a state from any thread.
  func report(_ status: SyncStatus) {
    let deliver = state.withLock { state in
      state.latest = status
      return state.target
    }
    if let deliver { deliverLatest(to: deliver) }
  }

  /// Posts a block that gives `deliver` the latest state as it is when the block runs, not
  /// when it was posted: blocks posted from several threads may run in another order than their
  /// states were reported (a report that came while `connect` posted what it had read was
  /// overtaken by that older state), and the header must end on the newest.
  private func deliverLatest(to deliver: @escaping @MainActor @Sendable (SyncStatus) -> Void) {
    post { [self] in
      MainActor.assumeIsolated {
        if let latest = state.withLock({ $0.latest }) { deliver(latest) }
      }
    }
  }
}
