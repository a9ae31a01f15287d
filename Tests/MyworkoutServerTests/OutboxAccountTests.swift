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
      for n in 0..<3 {
        try await progress.record(
          ProgressUpdate(
            account: a.accountID, classID: "c1", position: (n + 1) * 1_000,
            played: IntervalSet([(n * 1_000)..<((n + 1) * 1_000)]), addedTimeInClass: 1_000))
      }
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
}
