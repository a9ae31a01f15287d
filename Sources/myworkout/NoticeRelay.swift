import Dispatch
import Synchronization

/// Carries one-line notices from the services (raised on any thread, e.g. a damaged
/// accounts.json found during a request) to the runtime, on the main queue. Made before the
/// services and connected to the runtime once it exists, so nothing reaches for a global.
final class NoticeRelay: Sendable {
  private let target = Mutex<(@MainActor @Sendable (String) -> Void)?>(nil)

  /// From now on, notices go to `deliver` (on the main actor).
  func connect(_ deliver: @escaping @MainActor @Sendable (String) -> Void) {
    target.withLock { $0 = deliver }
  }

  /// Raises a notice from any thread; dropped when nothing is connected yet.
  func raise(_ notice: String) {
    guard let deliver = target.withLock({ $0 }) else { return }
    DispatchQueue.main.async { MainActor.assumeIsolated { deliver(notice) } }
  }
}
