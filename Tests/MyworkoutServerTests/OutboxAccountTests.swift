import Clocks
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Synchronization
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Issue 28's first defect: an outbox kept by one account is sent only under that account's
/// own token, never under whoever is signed in when the server comes back.
@Suite struct OutboxAccountTests {
  static let other = Registration(
    password: "Secret-123",
    profile: Profile(
      email: "other@example.com", gender: .female, mobile: "012-345 6780", firstName: "Other",
      lastName: "Person"))

  final class Statuses: Sendable {
    private let list = Mutex<[SyncStatus]>([])
    func add(_ status: SyncStatus) { list.withLock { $0.append(status) } }
    var all: [SyncStatus] { list.withLock { $0 } }
  }

  /// Three changes of `classID` for `account`, one a second of play: 0–1 s, 1–2 s, 2–3 s.
  static func playThreeSeconds(
    of classID: String, as account: String,
    into progress: OutboxProgressService<TestClock<Duration>>
  ) async throws {
    for n in 0..<3 {
      try await progress.record(
        ProgressUpdate(
          account: account, classID: classID, position: (n + 1) * 1_000,
          played: IntervalSet([(n * 1_000)..<((n + 1) * 1_000)]), addedTimeInClass: 1_000))
    }
  }

  /// A plays with the server away, logs out (the session forgotten, as Ctrl-O does); B logs
  /// in; the server comes back and A's backoff ends: nothing of A reaches the server under
  /// B's token. At A's next log-in A's changes go, under A.
  @Test func aLoggedOutAccountsChangesWaitForItsOwnNextLogIn() async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, backend, root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let credentials = RemoteCredentials()
      let server = RemoteServer(baseURL: url)
      let accounts = RemoteAccountService(server: server, credentials: credentials)
      let clock = TestClock<Duration>()
      let statuses = Statuses()
      let progress = OutboxProgressService(
        remote: RemoteProgressService(server: server, credentials: credentials),
        directory: directory, server: url, clock: clock, backoff: Backoff(random: { 0 }),
        onStatus: statuses.add)
      let b = try await accounts.signUp(Self.other)
      credentials.signedOut()
      let a = try await accounts.logIn(email: "registered@email.com", password: "password")

      network.mode = .away
      try await Self.playThreeSeconds(of: "c1", as: a.accountID, into: progress)
      try await eventually {
        statuses.all.last == SyncStatus(account: a.accountID, waiting: 3, offline: true)
      }
      // Ctrl-O, y: the session is forgotten. The server comes back; B logs in at once.
      credentials.signedOut()
      network.mode = .up
      _ = try await accounts.logIn(email: Self.other.email, password: Self.other.password)
      await progress.resume(account: b.accountID, email: b.profile.email)
      let before = statuses.all.count
      await clock.advance(by: .seconds(120))
      // A's sender wakes and tries (and, with B signed in, must not send).
      try await eventually {
        statuses.all.dropFirst(before).contains { $0.account == a.accountID }
      }
      #expect(try await backend.progress.progress(account: b.accountID, classID: "c1") == .init())
      #expect(try await progress.waiting(account: a.accountID).count == 3)

      // A's next log-in sends them, under A.
      credentials.signedOut()
      _ = try await accounts.logIn(email: "registered@email.com", password: "password")
      await progress.resume(account: a.accountID, email: a.profile.email)
      try await eventually { (try? await progress.waiting(account: a.accountID).isEmpty) == true }
      let stored = try await backend.progress.progress(account: a.accountID, classID: "c1")
      #expect(stored.timeInClass == 3_000)
      #expect(stored.watched == IntervalSet([0..<3_000]))
      #expect(try await backend.progress.progress(account: b.accountID, classID: "c1") == .init())
    }
  }

  /// A walk-through's changes kept while the server was away at `http://127.0.0.1:PORT` stayed
  /// in their file for good when the same person signed in to the same server as
  /// `http://localhost:PORT/`: the outbox is filed by the server's URL as typed. The URL is
  /// now filed in one spelling (scheme and host in lower case, no default port, no trailing
  /// slash), and an outbox of the same account and email under another spelling is taken into
  /// this one at log-in, its keys kept (so a change the server already applied is not applied
  /// twice), and sent.
  @Test(arguments: ["HTTP://LOCALHOST:{port}/", "http://localhost:{port}"])
  func changesKeptUnderAnotherSpellingOfTheServerAreSentAtLogIn(spelling: String) async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, backend, root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let port = try #require(url.split(separator: ":").last.map(String.init))
      let second = spelling.replacing("{port}", with: port)
      let clock = TestClock<Duration>()
      func session(_ address: String) -> (
        RemoteAccountService, OutboxProgressService<TestClock<Duration>>
      ) {
        let credentials = RemoteCredentials()
        let server = RemoteServer(baseURL: address)
        return (
          RemoteAccountService(server: server, credentials: credentials),
          OutboxProgressService(
            remote: RemoteProgressService(server: server, credentials: credentials),
            directory: directory, server: address, clock: clock, backoff: Backoff(random: { 0 }))
        )
      }
      let (accounts, progress) = session(url)
      let a = try await accounts.logIn(email: "registered@email.com", password: "password")
      await progress.resume(account: a.accountID, email: a.profile.email)
      network.mode = .away
      try await Self.playThreeSeconds(of: "c1", as: a.accountID, into: progress)
      #expect(try await progress.waiting(account: a.accountID).count == 3)
      await progress.stopAll()
      // The app quits; the server is back; the same person signs in by another spelling.
      network.mode = .up
      let (again, later) = session(second)
      _ = try await again.logIn(email: "registered@email.com", password: "password")
      await later.resume(account: a.accountID, email: a.profile.email)
      try await eventually { (try? await later.waiting(account: a.accountID).isEmpty) == true }
      let stored = try await backend.progress.progress(account: a.accountID, classID: "c1")
      #expect(stored.timeInClass == 3_000)
      #expect(stored.watched == IntervalSet([0..<3_000]))
      // Nothing is left waiting in the first spelling's file either (nor sent twice).
      let first = OutboxStore(
        directory: directory, server: url, account: a.accountID)
      #expect(try await first.counts().waiting == 0)
    }
  }

  @Test func aServersURLIsFiledInOneSpelling() {
    for (typed, filed) in [
      ("HTTP://LocalHost:8080/", "http://localhost:8080"),
      ("http://example.com:80", "http://example.com"),
      ("https://Example.COM:443/api//", "https://example.com/api"),
      ("https://example.com:8443/Api", "https://example.com:8443/Api"),
      ("http://127.0.0.1:38411", "http://127.0.0.1:38411"),
    ] {
      #expect(RemoteServer.canonical(typed) == filed, "\(typed)")
    }
  }

  /// A log-out's last delivery (a walk-through found the Player's closing save left waiting
  /// until the next log-in): the server comes back and B logs in while A's delivery is due.
  /// A's changes go now, under A's own token; none under B's.
  @Test func aLogOutSendsTheLeavingAccountsChangesUnderItsOwnToken() async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, backend, root in
      let (credentials, accounts, progress, _, _, statuses) = Self.device(url: url, root: root)
      let b = try await accounts.signUp(Self.other)
      credentials.signedOut()
      let a = try await accounts.logIn(email: "registered@email.com", password: "password")
      network.mode = .away
      try await Self.play(3, as: a.accountID, on: progress, statuses)

      // Ctrl-O: A's session ends. The server comes back; B logs in at once.
      let leaving = credentials.leaving()
      credentials.signedOut()
      network.mode = .up
      _ = try await accounts.logIn(email: Self.other.email, password: Self.other.password)
      await progress.resume(account: b.accountID, email: b.profile.email)
      await progress.loggedOut(leaving, within: .seconds(10))

      #expect(try await progress.waiting(account: a.accountID).isEmpty)
      let stored = try await backend.progress.progress(account: a.accountID, classID: "c1")
      #expect(stored.watched == IntervalSet([0..<3_000]))
      #expect(stored.timeInClass == 3_000)
      #expect(try await backend.progress.progress(account: b.accountID, classID: "c1") == .init())
      #expect(credentials.bearer(for: a.accountID) == nil, "A's token is not kept")
    }
  }

  /// A log-out while the server is away: the person is told, the changes stay for their next
  /// log-in, and once the last delivery is over their token is no longer sent (their sender,
  /// waking after the server came back, sends nothing).
  @Test func aLogOutThatCannotSendSaysSoAndKeepsTheChanges() async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, backend, root in
      let (credentials, accounts, progress, clock, notices, statuses) = Self.device(
        url: url, root: root)
      let a = try await accounts.logIn(email: "registered@email.com", password: "password")
      network.mode = .away
      try await Self.play(2, as: a.accountID, on: progress, statuses)

      let leaving = credentials.leaving()
      credentials.signedOut()
      await progress.loggedOut(leaving, within: .seconds(10))
      #expect(
        notices.all == [
          "2 changes could not be sent before the session ended; kept on this device for the next log-in of registered@email.com"
        ])

      network.mode = .up
      let before = statuses.all.count
      await clock.advance(by: .seconds(120))
      // A's sender wakes and tries (and, its session over, must not send).
      try await eventually {
        statuses.all.dropFirst(before).contains { $0.account == a.accountID }
      }
      #expect(try await progress.waiting(account: a.accountID).count == 2)
      #expect(try await backend.progress.progress(account: a.accountID, classID: "c1") == .init())
    }
  }

  /// A log-out that cannot send, and someone else has signed in by the time it gives up: the
  /// notice (which names the last person's email) is not shown over the new person's screens;
  /// the changes stay for their own person's next log-in.
  @Test func aLogOutThatCannotSendSaysNothingOnceSomeoneElseSignedIn() async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, backend, root in
      let (credentials, accounts, progress, _, notices, statuses) = Self.device(
        url: url, root: root)
      let b = try await accounts.signUp(Self.other)
      credentials.signedOut()
      let a = try await accounts.logIn(email: "registered@email.com", password: "password")
      network.mode = .away
      try await Self.play(2, as: a.accountID, on: progress, statuses)

      let leaving = credentials.leaving()
      credentials.signedOut()
      network.mode = .up
      _ = try await accounts.logIn(email: Self.other.email, password: Self.other.password)
      network.mode = .away
      await progress.loggedOut(leaving, within: .seconds(10))
      #expect(notices.all.isEmpty)
      #expect(try await progress.waiting(account: a.accountID).count == 2)
      #expect(try await backend.progress.progress(account: b.accountID, classID: "c1") == .init())
    }
  }

  /// One device of the tests above: its credentials, account service, outbox (on a test
  /// clock, no jitter), and the notices and statuses it raised.
  static func device(url: String, root: String) -> (
    RemoteCredentials, RemoteAccountService, OutboxProgressService<TestClock<Duration>>,
    TestClock<Duration>, OfflineTests.Notices, Statuses
  ) {
    let directory = try! DataDirectory.prepare(path: root + "/app")
    let credentials = RemoteCredentials()
    let server = RemoteServer(baseURL: url)
    let clock = TestClock<Duration>()
    let notices = OfflineTests.Notices()
    let statuses = Statuses()
    let progress = OutboxProgressService(
      remote: RemoteProgressService(server: server, credentials: credentials),
      directory: directory, server: url, clock: clock, backoff: Backoff(random: { 0 }),
      onNotice: notices.raise, onStatus: statuses.add)
    return (
      credentials, RemoteAccountService(server: server, credentials: credentials), progress,
      clock, notices, statuses
    )
  }

  /// `count` seconds of class c1 played by `account`, one save a second, left waiting.
  static func play(
    _ count: Int, as account: String, on progress: OutboxProgressService<TestClock<Duration>>,
    _ statuses: Statuses
  ) async throws {
    for n in 0..<count {
      try await progress.record(
        ProgressUpdate(
          account: account, classID: "c1", position: (n + 1) * 1_000,
          played: IntervalSet([(n * 1_000)..<((n + 1) * 1_000)]), addedTimeInClass: 1_000))
    }
    try await eventually {
      statuses.all.last == SyncStatus(account: account, waiting: count, offline: true)
    }
  }
}
