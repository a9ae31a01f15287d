import MyworkoutCore
import Synchronization
import Testing

@testable import myworkout

/// Remote mode's outbox state on its way to the header (SPEC §18).
@MainActor
@Suite struct SyncRelayTests {
  /// The main queue as a list: blocks run when the test says.
  final class Queue: Sendable {
    let blocks = Mutex<[@Sendable () -> Void]>([])
    /// Called with each block as it is posted, before it is queued.
    let onPost = Mutex<(@Sendable () -> Void)?>(nil)

    func post(_ block: @escaping @Sendable () -> Void) {
      let hook = onPost.withLock { hook in
        defer { hook = nil }
        return hook
      }
      hook?()
      blocks.withLock { $0.append(block) }
    }

    func runAll() {
      while let block = blocks.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { block() }
    }
  }

  final class Shown: Sendable {
    let statuses = Mutex<[SyncStatus]>([])
  }

  nonisolated static func status(_ waiting: Int) -> SyncStatus {
    SyncStatus(account: "auth0|ada", waiting: waiting, offline: waiting > 0)
  }

  final class Said: Sendable {
    let notices = Mutex<[String]>([])
  }

  /// A notice raised before the runtime connects (remote mode's outbox found damaged as the
  /// app opens on a kept session) is said once it connects, in order: a walk-through's damaged
  /// outbox was moved aside without a word, its changes lost.
  @Test func noticesRaisedBeforeTheRuntimeConnectsAreSaidOnceItDoes() {
    let queue = Queue()
    let relay = NoticeRelay(post: queue.post)
    relay.raise("outbox damaged")
    relay.raise("catalog damaged")
    let said = Said()
    relay.connect { notice in said.notices.withLock { $0.append(notice) } }
    relay.raise("later")
    queue.runAll()
    #expect(said.notices.withLock { $0 } == ["outbox damaged", "catalog damaged", "later"])
  }

  /// The outbox reports at launch, before the runtime connects; a report that comes while the
  /// connection posts the one kept must not be overtaken by it: the header ends on the newest.
  @Test func aStateReportedWhileConnectingIsNotOvertakenByAnOlderOne() {
    let queue = Queue()
    let relay = SyncRelay(post: queue.post)
    relay.report(Self.status(2))
    // The report lands between the connection's reading of the state and its post.
    queue.onPost.withLock { $0 = { relay.report(Self.status(0)) } }
    let shown = Shown()
    relay.connect { status in shown.statuses.withLock { $0.append(status) } }
    queue.runAll()
    #expect(shown.statuses.withLock { $0.last } == Self.status(0))
  }

  @Test func statesReportedAfterTheConnectionArriveInOrder() {
    let queue = Queue()
    let relay = SyncRelay(post: queue.post)
    let shown = Shown()
    relay.connect { status in shown.statuses.withLock { $0.append(status) } }
    queue.runAll()
    relay.report(Self.status(1))
    queue.runAll()
    relay.report(Self.status(0))
    queue.runAll()
    #expect(shown.statuses.withLock { $0 } == [Self.status(1), Self.status(0)])
  }

  /// Reports faster than the main queue runs: every block shows the newest state, never one
  /// older than a state already shown.
  @Test func aMainQueueBehindShowsTheNewestState() {
    let queue = Queue()
    let relay = SyncRelay(post: queue.post)
    let shown = Shown()
    relay.connect { status in shown.statuses.withLock { $0.append(status) } }
    relay.report(Self.status(1))
    relay.report(Self.status(0))
    queue.runAll()
    #expect(shown.statuses.withLock { $0 } == [Self.status(0), Self.status(0), Self.status(0)])
  }
}
