import Synchronization

/// The moment a request's change is made, against a cancel that may come at the same time.
///
/// SPEC §3: a cancelled request saves nothing, and the form goes back to rest. A cancel and
/// the write it means to stop can cross: a walk-through's Esc came while the embedded service
/// wrote the new account, and the form said "cancelled" over an account that was made. So the
/// two meet here, one at a time: a service calls `commit()` just before it makes its change
/// (under its store's lock), and the app's `cancel()` either stops the request before that
/// moment or is told it comes too late, when the app lets the answer through and the screen
/// shows what was done.
package final class CommitGate: Sendable {
  private enum State { case open, cancelled, committed }
  private let state = Mutex(State.open)

  package init() {}

  /// The gate of the request the current task carries out (set by the app's effect runner).
  @TaskLocal package static var current: CommitGate?

  /// Called by a service at the moment it makes its change: from here on a cancel is too
  /// late. Throws `CancellationError` when the request was cancelled before (or, with no gate,
  /// when the task is).
  package static func commit() throws {
    guard let gate = current else {
      try Task.checkCancellation()
      return
    }
    try gate.state.withLock { state throws(CancellationError) in
      guard state != .cancelled else { throw CancellationError() }
      state = .committed
    }
  }

  /// Cancels the request unless its change is made: true when it is stopped in time (its
  /// change will not be made), false when the change is made already.
  package func cancel() -> Bool {
    state.withLock { state in
      guard state != .committed else { return false }
      state = .cancelled
      return true
    }
  }
}
