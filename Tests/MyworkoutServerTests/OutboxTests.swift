import Clocks
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Remote mode's outbox (SPEC §18): changes kept on disk, sent in order under their own keys,
/// a refused one put aside, retried with capped backoff on an injected clock.
@Suite struct OutboxTests {
  static func change(_ n: Int) -> OutboxChange {
    .progress(classID: "c\(n)", position: n, played: [[0, n + 1]], addedTimeInClass: n)
  }

  /// What `deliver` saw, and what it answers (in turn; the last answer repeats).
  final class Server: Sendable {
    private let state = Mutex<(seen: [OutboxEntry], answers: [Delivery])>(([], []))
    init(_ answers: [Delivery] = [.delivered]) { state.withLock { $0.answers = answers } }
    var seen: [OutboxEntry] { state.withLock { $0.seen } }
    func answer(_ answers: [Delivery]) { state.withLock { $0.answers = answers } }
    func deliver(_ entry: OutboxEntry) -> Delivery {
      state.withLock { state in
        state.seen.append(entry)
        return state.answers.count > 1 ? state.answers.removeFirst() : state.answers[0]
      }
    }
  }

  final class Notices: Sendable {
    private let list = Mutex<[String]>([])
    func raise(_ notice: String) { list.withLock { $0.append(notice) } }
    var all: [String] { list.withLock { $0 } }
  }

  func withOutbox(
    _ server: Server, backoff: Backoff = Backoff(random: { 0 }),
    _ body: (OutboxStore, OutboxSender<TestClock<Duration>>, TestClock<Duration>, Notices)
      async throws -> Void
  ) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let store = OutboxStore(directory: directory, server: "http://s", account: "a1")
      let clock = TestClock<Duration>()
      let notices = Notices()
      let sender = OutboxSender(
        store: store, clock: clock, backoff: backoff, onNotice: notices.raise,
        deliver: { server.deliver($0) })
      try await body(store, sender, clock, notices)
    }
  }

  @Test func changesLeaveInOrderEachUnderItsOwnKey() async throws {
    let server = Server()
    try await withOutbox(server) { store, sender, _, _ in
      var written: [OutboxEntry] = []
      for n in 1...5 { written.append(try await store.append(Self.change(n))) }
      #expect(Set(written.map(\.key)).count == 5)
      await sender.kick()
      try await eventually { await sender.state == .idle }
      #expect(server.seen == written)
      #expect(try await store.waiting().isEmpty)
    }
  }

  @Test func aRetryCarriesTheSameKeyAndKeepsTheOrder() async throws {
    let server = Server([.later, .delivered])
    try await withOutbox(server) { store, sender, clock, _ in
      let first = try await store.append(Self.change(1))
      let second = try await store.append(Self.change(2))
      await sender.kick()
      try await eventually {
        await sender.state == .backingOff(failures: 1, delay: .milliseconds(500))
      }
      await clock.advance(by: .milliseconds(500))
      try await eventually { await sender.state == .idle }
      #expect(server.seen.map(\.key) == [first.key, first.key, second.key])
    }
  }

  @Test func aRefusedChangeIsPutAsideWithANoticeAndTheRestGoOn() async throws {
    let server = Server([.delivered, .refused(reason: "the server answered 422"), .delivered])
    try await withOutbox(server) { store, sender, _, notices in
      let written = [
        try await store.append(Self.change(1)), try await store.append(Self.change(2)),
        try await store.append(Self.change(3)),
      ]
      await sender.kick()
      try await eventually { await sender.state == .idle }
      #expect(server.seen == written)
      #expect(try await store.waiting().isEmpty)
      let aside = try await store.putAside()
      #expect(aside.map(\.entry) == [written[1]])
      #expect(aside.map(\.reason) == ["the server answered 422"])
      #expect(
        notices.all == ["A change was refused by the server and put aside: the server answered 422"]
      )
    }
  }

  @Test func whileTheServerIsAwayAttemptsBackOffToTheCap() async throws {
    let server = Server([.later])
    let backoff = Backoff(base: .seconds(1), cap: .seconds(8), random: { 0.5 })
    try await withOutbox(server, backoff: backoff) { store, sender, clock, _ in
      try await store.append(Self.change(1))
      await sender.kick()
      // Steps 1, 2, 4, 8, 8 s; each wait is half the step plus half of the other half.
      let waits: [Duration] = [
        .milliseconds(750), .seconds(1.5), .seconds(3), .seconds(6), .seconds(6),
      ]
      for (index, wait) in waits.enumerated() {
        try await eventually {
          await sender.state == .backingOff(failures: index + 1, delay: wait)
        }
        #expect(server.seen.count == index + 1)
        await clock.advance(by: wait - .milliseconds(1))
        #expect(server.seen.count == index + 1)
        await clock.advance(by: .milliseconds(1))
        try await eventually { server.seen.count == index + 2 }
      }
      #expect(try await store.waiting().count == 1)
    }
  }

  @Test func theJitterStaysWithinTheStep() {
    for failures in 1...10 {
      let low = Backoff(base: .seconds(1), cap: .seconds(60), random: { 0 })
      let high = Backoff(base: .seconds(1), cap: .seconds(60), random: { 1 })
      let step = min(Duration.seconds(1 << (failures - 1)), .seconds(60))
      #expect(low.delay(afterFailures: failures) == step / 2)
      #expect(high.delay(afterFailures: failures) == step)
    }
  }

  @Test func aKickCutsTheWaitShort() async throws {
    let server = Server([.later, .delivered])
    try await withOutbox(server, backoff: Backoff(base: .seconds(60), random: { 0 })) {
      store, sender, _, _ in
      try await store.append(Self.change(1))
      await sender.kick()
      try await eventually { await sender.state == .backingOff(failures: 1, delay: .seconds(30)) }
      await sender.kick()  // the server answered another call
      try await eventually { await sender.state == .idle }
      #expect(server.seen.count == 2)
      #expect(try await store.waiting().isEmpty)
    }
  }

  @Test func anExpiredSessionKeepsEverythingUntilTheNextLogIn() async throws {
    let server = Server([.unauthorized(bySession: true), .delivered])
    try await withOutbox(server) { store, sender, _, _ in
      try await store.append(Self.change(1))
      try await store.append(Self.change(2))
      await sender.kick()
      try await eventually { await sender.state == .signedOut }
      #expect(try await store.waiting().count == 2)
      await sender.kick()
      try await eventually { await sender.state == .idle }
      #expect(server.seen.count == 3)
      #expect(try await store.waiting().isEmpty)
    }
  }

  /// Issue 28: a 401 from the server itself on a change says "log in again" (the changes kept);
  /// one because someone else is signed in does not.
  @Test func aSessionTheServerRefusesAsksToLogInAgain() async throws {
    for (bySession, last) in [(true, "2 offline log in again"), (false, "2 offline")] {
      let server = Server([.unauthorized(bySession: bySession)])
      try await withTemporaryDirectory { root in
        let directory = try DataDirectory.prepare(path: root + "/app")
        let store = OutboxStore(directory: directory, server: "http://s", account: "a1")
        let reports = Reports()
        let sender = OutboxSender(
          store: store, clock: TestClock<Duration>(), onStatus: reports.report,
          deliver: { server.deliver($0) })
        try await store.append(Self.change(1))
        try await store.append(Self.change(2))
        await sender.kick()
        try await eventually { await sender.state == .signedOut }
        #expect(reports.all.last == last)
        #expect(try await store.waiting().count == 2)
      }
    }
  }

  /// What the sender reported, in order, as `waiting/offline`.
  final class Reports: Sendable {
    private let list = Mutex<[String]>([])
    func report(_ report: OutboxReport) {
      list.withLock {
        $0.append(
          "\(report.waiting)\(report.offline ? " offline" : "")"
            + (report.aside > 0 ? " \(report.aside) aside" : "")
            + (report.sessionRefused ? " log in again" : ""))
      }
    }
    var all: [String] { list.withLock { $0 } }
  }

  @Test func theStatusSaysWhatWaitsAndWhetherTheServerAnswers() async throws {
    let server = Server([.later, .delivered])
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let store = OutboxStore(directory: directory, server: "http://s", account: "a1")
      let clock = TestClock<Duration>()
      let reports = Reports()
      let sender = OutboxSender(
        store: store, clock: clock, backoff: Backoff(random: { 0 }), onStatus: reports.report,
        deliver: { server.deliver($0) })
      try await store.append(Self.change(1))
      try await store.append(Self.change(2))
      await sender.kick()
      try await eventually { await sender.state == .backingOff(failures: 1, delay: .seconds(0.5)) }
      // A change made while the server is away is counted, not sent: the backoff goes on.
      try await store.append(Self.change(3))
      await sender.added()
      #expect(server.seen.count == 1)
      #expect(await sender.state == .backingOff(failures: 1, delay: .seconds(0.5)))
      await clock.advance(by: .seconds(0.5))
      try await eventually { await sender.state == .idle }
      #expect(server.seen.count == 4)
      // The empty outbox is told once (it was told twice, and each report wakes the app's
      // main thread: SPEC §16, at most 4 wake-ups a second while playing).
      #expect(reports.all == ["2", "2 offline", "3 offline", "3 offline", "2", "1", "0"])
    }
  }

  @Test func theOutboxOutlivesTheProcessInAPrivateFilePerServerAndAccount() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let written = try await OutboxStore(directory: directory, server: "http://s", account: "a1")
        .append(Self.change(1))
      let reopened = OutboxStore(directory: directory, server: "http://s", account: "a1")
      #expect(try await reopened.waiting() == [written])
      var info = stat()
      #expect(stat(reopened.path, &info) == 0)
      #expect(info.st_mode & 0o777 == 0o600)
      let otherAccount = OutboxStore(directory: directory, server: "http://s", account: "a2")
      let otherServer = OutboxStore(directory: directory, server: "http://t", account: "a1")
      #expect(try await otherAccount.waiting().isEmpty)
      #expect(try await otherServer.waiting().isEmpty)
    }
  }

  /// What a person did reaches the disk before it is sent (a full sync); forgetting a change
  /// the server has, and keeping the server's last word, need not wait for the disk: after a
  /// power cut the change goes again under its own key (applied once) and the last word is
  /// asked for again. A progress save in remote mode synced three times, about 12 thread
  /// switches a save (SPEC §16: at most 4 wake-ups a second while playing). SQLite's
  /// write-ahead log keeps commits in order, so the next full sync writes the earlier ones too.
  @Test func onlyWhatAPersonDidWaitsForTheDisk() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let store = OutboxStore(directory: directory, server: "http://s", account: "a1")
      let full = 2
      let normal = 1
      let first = try await store.append(Self.change(1))
      #expect(try await store.synchronousSetting() == full, "append")
      try await store.remember(["c1": 5], as: "percents")
      #expect(try await store.synchronousSetting() == normal, "remember")
      try await store.remove(first)
      #expect(try await store.synchronousSetting() == normal, "remove")
      let second = try await store.append(Self.change(2))
      #expect(try await store.synchronousSetting() == full, "append after remove")
      try await store.remove(second)
      let third = try await store.append(Self.change(3))
      try await store.remember(["c1": 5], as: "percents")
      #expect(try await store.next().entry == third)
      #expect(try await store.synchronousSetting() == full, "next (it may put rows aside)")
      try await store.remember(["c1": 5], as: "percents")
      try await store.putAside(third, reason: "refused")
      #expect(try await store.synchronousSetting() == full, "put aside")
      try await store.remember(["c1": 6], as: "percents")
      #expect(try await store.releaseAside() == 1)
      #expect(try await store.synchronousSetting() == full, "released")
      // What was written either way is there after a reopening.
      let reopened = OutboxStore(directory: directory, server: "http://s", account: "a1")
      #expect(try await reopened.waiting().map(\.change) == [Self.change(3)])
      #expect(try await reopened.recall([String: Int].self, "percents") == ["c1": 6])
    }
  }

  /// A session from before the server gave accounts ids named the email, so its outbox is kept
  /// under the email; at the next log-in (a token naming the id) what waits there goes too.
  @Test func changesKeptUnderTheEmailBeforeIdsGoAtTheNextLogIn() async throws {
    try await withLiveServer { url, backend in
      try await withTemporaryDirectory { root in
        let directory = try DataDirectory.prepare(path: root + "/app")
        let legacy = OutboxStore(
          directory: directory, server: url, account: "registered@email.com")
        _ = try await legacy.append(
          .progress(classID: "c1", position: 5_000, played: [[0, 5_000]], addedTimeInClass: 6_000))
        let service = OutboxProgressService(
          remote: RemoteProgressService(
            server: RemoteServer(baseURL: url),
            credentials: try await signedIn(at: url)),
          directory: directory, server: url, clock: ContinuousClock())
        await service.resume(account: AccountID.seed, email: "Registered@Email.com")
        try await eventually { (try? await legacy.waiting().isEmpty) == true }
        #expect(
          try await backend.progress.progress(account: AccountID.seed, classID: "c1")
            == ClassProgress(
              lastPosition: 5_000, watched: IntervalSet([0..<5_000]), timeInClass: 6_000))
        // No outbox is made under an email that has none.
        let other = OutboxStore.path(in: directory, server: url, account: "nobody@example.com")
        await service.resume(account: "auth0|0123456789abcdef01234567", email: "nobody@example.com")
        #expect(!FileManager.default.fileExists(atPath: other))
      }
    }
  }

  @Test func progressReadWhileTheServerIsAwayIncludesWhatIsWaiting() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      // Nothing listens on port 9 of loopback: every call fails at once (the session is
      // one the server would take; it never gets to see it).
      let credentials = RemoteCredentials()
      credentials.signedIn(.init(idToken: "header.payload.signature"), keys: nil)
      let remote = RemoteProgressService(
        server: RemoteServer(baseURL: "http://127.0.0.1:9"), credentials: credentials)
      let clock = TestClock<Duration>()
      let service = OutboxProgressService(
        remote: remote, directory: directory, server: "http://127.0.0.1:9", clock: clock)
      await #expect(throws: ProgressError.self) {
        try await service.progress(account: "a1", classID: "c1")
      }
      try await service.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 5_000, played: IntervalSet([0..<5_000]),
          addedTimeInClass: 6_000))
      try await service.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 9_000, played: IntervalSet([8_000..<9_000]),
          addedTimeInClass: 2_000))
      #expect(
        try await service.progress(account: "a1", classID: "c1")
          == ClassProgress(
            lastPosition: 9_000, watched: IntervalSet([0..<5_000, 8_000..<9_000]),
            timeInClass: 8_000))
      let danceClass = DanceClass(
        id: "c1", title: "", instructor: "", level: .beginner, song: "", videoURL: "",
        thumbnailSlug: "", duration: 60)
      #expect(try await service.watchedPercents(account: "a1", classes: [danceClass]) == ["c1": 10])
      try await service.recordCompletion(
        account: "a1", lessonID: "4", started: Date(timeIntervalSince1970: 1_700_000_000),
        completed: Date(timeIntervalSince1970: 1_700_000_060))
      #expect(try await service.completions(account: "a1").map(\.lessonID) == ["4"])
      // A second visit of the same lesson, finished offline too: two events, as the server
      // will keep them (issue 28).
      try await service.recordCompletion(
        account: "a1", lessonID: "4", started: Date(timeIntervalSince1970: 1_700_000_500),
        completed: Date(timeIntervalSince1970: 1_700_000_560))
      #expect(try await service.completions(account: "a1").map(\.lessonID) == ["4", "4"])
      #expect(try await service.waiting(account: "a1").count == 4)
    }
  }
}

/// Waits for `condition`, giving up (as a failure) after 60 s: far more than it needs alone,
/// because the suites that start PostgreSQL hold the test pool's threads for seconds at a time.
func eventually(_ condition: @Sendable () async -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(60)
  while !(await condition()) {
    guard ContinuousClock.now < deadline else {
      Issue.record("not met within 60 s")
      return
    }
    await Task.yield()
  }
}
