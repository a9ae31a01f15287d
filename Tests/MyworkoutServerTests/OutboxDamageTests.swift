import Clocks
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Synchronization
import TestProcesses
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Issue 28: an outbox that one bad row or a damaged file used to stop for good.
@Suite struct OutboxDamageTests {
  typealias Server = OutboxTests.Server
  typealias Notices = OutboxTests.Notices

  /// Remote mode's progress service over `directory`'s outboxes, with the server away.
  static func awayProgress(in directory: DataDirectory, notices: Notices)
    -> OutboxProgressService<TestClock<Duration>>
  {
    OutboxProgressService(
      remote: RemoteProgressService(
        server: RemoteServer(baseURL: OfflineTests.away), credentials: RemoteCredentials()),
      directory: directory, server: "http://s", clock: TestClock<Duration>(),
      onNotice: notices.raise)
  }

  /// A row this build cannot decode (a newer version's change) at the head of the queue: it
  /// is put aside, said once, and the four changes after it are sent; nothing is counted as
  /// waiting that the sender does not send.
  @Test func aRowThisBuildCannotReadIsPutAsideAndTheRestAreSent() async throws {
    let server = Server()
    try await OutboxTests().withOutbox(server) { store, sender, _, notices in
      try await store.append(OutboxTests.change(0))
      let raw = try SQLiteDatabase(path: store.path)
      try raw.execute(
        #"UPDATE changes SET change = '{"stretch":{"classID":"c0","rate":2}}' WHERE sequence = 1"#)
      var written: [OutboxEntry] = []
      for n in 1...4 { written.append(try await store.append(OutboxTests.change(n))) }
      await sender.kick()
      try await eventually { await sender.state == .idle }
      #expect(server.seen == written)
      #expect(try await store.count() == 0)
      #expect(notices.all.contains { $0.contains("could not be read") }, "\(notices.all)")
      // Kept, not deleted: the row is still in the file, put aside.
      let kept = try raw.scalar("SELECT count(*) FROM changes WHERE aside IS NOT NULL")
      #expect(kept == .integer(1))
    }
  }

  /// A damaged (here: not a database at all) outbox file is moved aside as
  /// `NAME.corrupt-<time>`, said in one line, and a fresh outbox takes the change.
  @Test func aDamagedOutboxFileIsMovedAsideAndSavesGoOn() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let notices = Notices()
      let path = OutboxStore.path(in: directory, server: "http://s", account: "a1")
      let junk = String(repeating: "not an outbox, a truncated page of something ", count: 200)
      try Data(junk.utf8).write(to: URL(fileURLWithPath: path))
      let progress = Self.awayProgress(in: directory, notices: notices)
      try await progress.record(
        ProgressUpdate(
          account: "a1", classID: "c1", position: 1_000, played: IntervalSet([0..<1_000]),
          addedTimeInClass: 1_000))
      #expect(try await progress.waiting(account: "a1").count == 1)
      let name = String(path.split(separator: "/").last!)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(files.contains { $0.hasPrefix(name + ".corrupt-") }, "\(files)")
      #expect(
        notices.all.contains { $0.contains("moved it aside to \(name).corrupt-") }, "\(notices.all)"
      )
    }
  }

  /// An outbox file emptied between two runs while its write-ahead log still held the changes
  /// (the app leaves them there: it never checkpoints): SQLite takes an empty file for a new
  /// database and deletes its log, so a walk-through's three waiting completions were gone
  /// without a word. Now the file and its log are moved aside, said in one line, and the log
  /// kept whole.
  @Test func anOutboxEmptiedWhileItsLogHoldsTheChangesIsMovedAsideWithItsLog() async throws {
    try await withTemporaryDirectory { root in
      let first = try DataDirectory.prepare(path: root + "/first")
      let store = OutboxStore(directory: first, server: "http://s", account: "a1")
      for n in 1...3 { _ = try await store.append(OutboxTests.change(n)) }
      let path = OutboxStore.path(in: first, server: "http://s", account: "a1")
      let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
      #expect((log ?? 0) > 0, "the changes are in the log")
      // The files as a quit left them (the store is still open here: copied, not closed), the
      // database file then emptied.
      let second = try DataDirectory.prepare(path: root + "/second")
      let copy = OutboxStore.path(in: second, server: "http://s", account: "a1")
      try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
      FileManager.default.createFile(atPath: copy, contents: Data())
      let notices = Notices()
      let reopened = OutboxStore(
        directory: second, server: "http://s", account: "a1", onNotice: notices.raise)
      _ = try await reopened.count()
      let name = String(copy.split(separator: "/").last!)
      #expect(
        notices.all.contains { $0.contains("moved it aside to \(name).corrupt-") }, "\(notices.all)"
      )
      let files = try FileManager.default.contentsOfDirectory(atPath: second.path)
      let keptLog = try #require(files.first { $0.hasPrefix(name + "-wal.corrupt-") }, "\(files)")
      let keptSize =
        try FileManager.default.attributesOfItem(atPath: second.path + "/" + keptLog)[.size]
        as? Int
      #expect(keptSize == log, "the log is kept whole")
      _ = store
    }
  }

  /// An outbox removed from outside while the app has it open (a walk-through's `rm`): the
  /// changes went on into the removed file and were gone when the app quit. Now the next
  /// write sees that the path no longer names the file it opened, and moves what waits there
  /// into a new file at the path, said in one line; nothing is lost, nothing doubled.
  @Test(arguments: [false, true])
  func anOutboxRemovedWhileOpenKeepsItsChangesInANewFile(directoryInItsPlace: Bool) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let notices = Notices()
      let store = OutboxStore(
        directory: directory, server: "http://s", account: "a1", onNotice: notices.raise)
      for n in 0..<2 { try await store.append(OutboxTests.change(n)) }
      for suffix in ["", "-wal", "-shm"] { unlink(store.path + suffix) }
      // A re-check's case: a directory put where the file was (moved aside as unreadable;
      // the changes the store held were dropped with it).
      if directoryInItsPlace { mkdir(store.path, 0o755) }
      try await store.append(OutboxTests.change(2))
      // The app quits and starts again: its outbox is the file at the path.
      let relaunched = OutboxStore(directory: directory, server: "http://s", account: "a1")
      let waiting = try await relaunched.waiting().map(\.change)
      #expect(waiting == (0..<3).map { OutboxTests.change($0) })
      #expect(notices.all.contains { $0.contains("removed") }, "\(notices.all)")
    }
  }

  /// An outbox a newer version of the app wrote (the app downgraded) is not damage: its waiting
  /// changes stay where they are for that version to send, the file untouched. A new change
  /// goes straight to the server, as when the outbox cannot be written at all, and the notice
  /// says why (here the server is away: the record fails, nothing is put in a new outbox).
  @Test func aNewerAppsOutboxIsLeftAloneWithItsChanges() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let path = OutboxStore.path(in: directory, server: "http://s", account: "a1")
      try await OutboxStore(directory: directory, server: "http://s", account: "a1")
        .append(OutboxTests.change(0))
      try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      let notices = Notices()
      let progress = Self.awayProgress(in: directory, notices: notices)
      _ = try? await progress.record(
        ProgressUpdate(account: "a1", classID: "c1", position: 1_000, addedTimeInClass: 1_000))
      #expect(
        notices.all.contains {
          $0.contains("Changes cannot be kept on this device")
            && $0.contains("was written by a newer version")
        }, "\(notices.all)")
      #expect(notices.all.allSatisfy { !$0.contains("moved it aside") }, "\(notices.all)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
      let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      #expect(!files.contains { $0.contains(".corrupt-") }, "\(files)")
    }
  }

  /// The server's data started over and the email signed up again (a new account id): the
  /// old account's waiting changes are said at log-in, and kept.
  @Test func aVanishedAccountsChangesAreSaidAndKept() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let notices = Notices()
      let progress = Self.awayProgress(in: directory, notices: notices)
      let old = "auth0|000000000000000000000001"
      await progress.resume(account: old, email: "Me@Example.com")
      for n in 1...5 {
        try await progress.record(
          ProgressUpdate(
            account: old, classID: "c1", position: n * 1_000,
            played: IntervalSet([(n * 1_000)..<(n * 1_000 + 500)]), addedTimeInClass: 1_000))
      }
      #expect(notices.all.isEmpty)
      await progress.resume(account: "auth0|000000000000000000000002", email: "me@example.com")
      #expect(
        notices.all == [
          "5 changes from an earlier session of this email could not be sent; kept on this device"
        ])
      #expect(try await progress.waiting(account: old).count == 5)
    }
  }

  /// Start over while the server is away says at once that changes are waiting (it used to
  /// wait for the backoff to end, forever on a clock that never moves).
  @Test(.timeLimit(.minutes(1))) func startOverOfflineSaysAtOnceThatChangesWait() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let credentials = RemoteCredentials()
      credentials.signedIn(
        .init(idToken: "header.payload.signature", owner: .init(accountID: "a1", email: "a@b.c")),
        keys: nil)
      let progress = OutboxProgressService(
        remote: RemoteProgressService(
          server: RemoteServer(baseURL: OfflineTests.away), credentials: credentials),
        directory: directory, server: "http://s", clock: TestClock<Duration>())
      try await progress.recordCompletion(
        account: "a1", lessonID: "2", started: Date(timeIntervalSince1970: 1_700_000_000),
        completed: Date(timeIntervalSince1970: 1_700_000_030))
      await #expect(throws: ProgressError.self) { try await progress.startNewRound(account: "a1") }
      #expect(try await progress.waiting(account: "a1").count == 1)
    }
  }

  /// A proxy's own 404 page (nginx mid-reload) is not the server refusing the change: it is
  /// tried again later, never put aside.
  @Test func aProxysPageIsLaterNotARefusal() async throws {
    let network = Network()
    try await withLiveServer(behind: network) { url, _, root in
      let credentials = try await signedIn(at: url)
      let remote = RemoteProgressService(
        server: RemoteServer(baseURL: url), credentials: credentials)
      let store = OutboxStore(
        directory: try DataDirectory.prepare(path: root + "/app"), server: url, account: "x")
      let entry = try await store.append(OutboxTests.change(1))
      let account = "auth0|5eed00000000000000000001"
      network.mode = .proxyPage
      #expect(await remote.deliver(entry, of: account) == .later)
      network.mode = .up
      #expect(await remote.deliver(entry, of: account) == .delivered)
      // The server's own JSON refusal is one.
      let bad = try await store.append(
        .progress(classID: "c1", position: -1, played: [], addedTimeInClass: 0))
      guard case .refused = await remote.deliver(bad, of: account) else {
        Issue.record("a 400 from the server itself is a refusal")
        return
      }
    }
  }
}

/// Issue 28: a server that accepts connections and never answers. The first read waits its
/// full deadline; the reads after it (the watched % after a search) get a short one, so a search
/// falls back to what is kept without waiting 10 s a call; changes always get the full one; an
/// answer brings the full deadline back.
@Suite struct SilentServerTests {
  @Test func afterATimeOutReadsGetAShortDeadlineUntilAnAnswer() async throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    #expect(listen(listener, 16) == 0)  // accepted by the kernel, never answered
    let port = Int(UInt16(bigEndian: address.sin_port))
    let server = RemoteServer(
      baseURL: "http://127.0.0.1:\(port)", timeout: .seconds(3), shortTimeout: .milliseconds(200))
    #expect(server.deadline(forChange: false) == .seconds(3))
    await #expect(throws: ServiceError.timedOut) { try await server.send(.GET, "/api/classes") }
    #expect(server.deadline(forChange: false) == .milliseconds(200))
    #expect(server.deadline(forChange: true) == .seconds(3))
    // Another copy of the same server (another service) knows it too.
    let copy = server
    #expect(copy.deadline(forChange: false) == .milliseconds(200))
    // An answer from the server: the full deadline again. (Asked with a key, as a change is,
    // so that it gets the full deadline on a loaded machine.)
    try await withLiveServer { url, _ in
      _ = try await server.send(.GET, "", key: UUID(), url: url + "/.well-known/jwks.json")
    }
    #expect(server.deadline(forChange: false) == .seconds(3))
  }

  /// An outbox the app could only read when it opened it, and that can be written again: the
  /// next change is kept in it (SQLite keeps a file it could not write read-only; every change
  /// after went straight to the server, and with the server away was kept only in memory).
  @Test func anOutboxThatCanBeWrittenAgainKeepsTheNextChange() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let change = OutboxChange.progress(
        classID: "c1", position: 5, played: [[0, 5]], addedTimeInClass: 5)
      let first = OutboxStore(directory: directory, server: "http://s", account: "a1")
      _ = try await first.append(change)
      guard setImmutable(first.path, true) else { return }
      defer { _ = setImmutable(first.path, false) }
      let store = OutboxStore(directory: directory, server: "http://s", account: "a1")
      #expect(try await store.waiting().count == 1)
      await #expect(throws: (any Error).self) { try await store.append(change) }
      #expect(setImmutable(first.path, false))
      _ = try await store.append(change)
      #expect(try await store.waiting().count == 2)
    }
  }
}
