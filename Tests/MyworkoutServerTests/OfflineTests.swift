import Clocks
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServices
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What remote mode fetched stays usable while the server is away (SPEC §18): catalog pages,
/// class details and lessons from the cache, progress from what the server last said with the
/// outbox laid over it. "Away" is a server on a port nothing listens on.
@Suite struct OfflineTests {
  static let away = "http://127.0.0.1:9"

  final class Notices: Sendable {
    private let list = Mutex<[String]>([])
    func raise(_ notice: String) { list.withLock { $0.append(notice) } }
    var all: [String] { list.withLock { $0 } }
  }

  @Test func catalogPagesSeenBeforeAndSearchesInThemWorkOffline() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let cache = RemoteCache(directory: directory, server: "http://server")
      let (first, detail) = try await withLiveServerReturning { url, _ in
        let online = RemoteCatalogService(server: RemoteServer(baseURL: url), cache: cache)
        let first = try await online.page(query: "", offset: 0, limit: 50)
        _ = try await online.page(query: "", offset: 50, limit: 50)
        let detail = try await online.danceClass(id: first.classes[3].id)
        return (first, detail)
      }
      let notices = Notices()
      let offline = RemoteCatalogService(
        server: RemoteServer(baseURL: Self.away), cache: cache, onNotice: notices.raise)
      // The same page: as it was.
      #expect(try await offline.page(query: "", offset: 0, limit: 50) == first)
      #expect(notices.all == ["Can't reach the server: showing classes saved on this device."])
      // A search never asked: looked for in the classes kept, and said so.
      let word = String(first.classes[0].instructor.split(separator: " ")[0])
      let found = try await offline.page(query: word, offset: 0, limit: 50)
      #expect(found.classes.contains(first.classes[0]))
      let kept = min(100, first.total)
      #expect(found.total == kept)
      #expect(
        notices.all.last
          == "Can't reach the server: searched the \(kept) classes saved on this device.")
      #expect(try await offline.danceClass(id: first.classes[3].id) == detail)
    }
  }

  /// A cache file that is not a database (or a newer version's, or one damaged later) only
  /// held copies: it is made again, and keeping goes on. Before, every call failed quietly for
  /// good, and the classes seen were not there once the server went away.
  @Test(arguments: ["garbage", "newer"])
  func aDamagedCacheIsMadeAgainAndKeepsAnswers(kind: String) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let path = RemoteCache(directory: directory, server: "http://server").path
      if kind == "garbage" {
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
          .write(to: URL(fileURLWithPath: path))
      } else {
        try SQLiteDatabase(path: path).execute("CREATE TABLE later(x); PRAGMA user_version = 9")
      }
      let cache = RemoteCache(directory: directory, server: "http://server")
      await cache.keep(Data("page".utf8), tag: "\"t1\"", for: "/api/classes")
      #expect(await cache.body(for: "/api/classes") == Data("page".utf8))
      #expect(await cache.tag(for: "/api/classes") == "\"t1\"")
      // And a later launch reads it.
      let again = RemoteCache(directory: directory, server: "http://server")
      #expect(await again.body(for: "/api/classes") == Data("page".utf8))
    }
  }

  /// A server that takes the connection and says nothing is not one that cannot be reached:
  /// the notice over what was kept says which (a walk-through saw `Can't reach the server`
  /// for a server that was there and silent).
  @Test func keptPagesAndLessonsSayTheServerDidNotAnswer() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let cache = RemoteCache(directory: directory, server: "http://server")
      let first = try await withLiveServerReturning { url, _ in
        _ = try await RemoteLessonService(server: RemoteServer(baseURL: url), cache: cache)
          .loadCourse()
        return try await RemoteCatalogService(server: RemoteServer(baseURL: url), cache: cache)
          .page(query: "", offset: 0, limit: 50)
      }
      let silent = try listeningSocket()
      defer { close(silent.descriptor) }
      let server = RemoteServer(
        baseURL: "http://127.0.0.1:\(silent.port)", timeout: .milliseconds(300),
        shortTimeout: .milliseconds(300))
      let notices = Notices()
      let catalog = RemoteCatalogService(server: server, cache: cache, onNotice: notices.raise)
      #expect(try await catalog.page(query: "", offset: 0, limit: 50) == first)
      _ = try await RemoteLessonService(server: server, cache: cache, onNotice: notices.raise)
        .loadCourse()
      #expect(
        notices.all == [
          "The server did not answer: showing classes saved on this device.",
          "The server did not answer: showing lessons saved on this device.",
        ])
    }
  }

  @Test func withNothingKeptTheFailureIsAsBefore() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let offline = RemoteCatalogService(
        server: RemoteServer(baseURL: Self.away),
        cache: RemoteCache(directory: directory, server: Self.away))
      await #expect(throws: CatalogError.self) {
        try await offline.page(query: "", offset: 0, limit: 50)
      }
      let lessons = RemoteLessonService(
        server: RemoteServer(baseURL: Self.away),
        cache: RemoteCache(directory: directory, server: Self.away))
      await #expect(throws: LessonLoadError.self) { try await lessons.loadCourse() }
    }
  }

  @Test func lessonsSeenBeforeWorkOffline() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let cache = RemoteCache(directory: directory, server: "http://server")
      let course = try await withLiveServerReturning { url, _ in
        try await RemoteLessonService(server: RemoteServer(baseURL: url), cache: cache)
          .loadCourse()
      }
      let notices = Notices()
      let offline = RemoteLessonService(
        server: RemoteServer(baseURL: Self.away), cache: cache, onNotice: notices.raise)
      #expect(try await offline.loadCourse().lessons == course.lessons)
      #expect(notices.all == ["Can't reach the server: showing lessons saved on this device."])
    }
  }

  @Test func progressSeenBeforeAndWhatWaitsShowOffline() async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let clock = TestClock<Duration>()
      let danceClass = DanceClass(
        id: "c1", title: "", instructor: "", level: .beginner, song: "", videoURL: "",
        thumbnailSlug: "", duration: 100)
      let credentials = RemoteCredentials()
      try await withLiveServer { url, _ in
        try await signedIn(credentials, at: url)
        let remote = RemoteProgressService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        let online = OutboxProgressService(
          remote: remote,
          directory: directory, server: "http://server", clock: clock)
        try await online.record(
          ProgressUpdate(
            account: AccountID.seed, classID: "c1", position: 20_000,
            played: IntervalSet([0..<20_000]),
            addedTimeInClass: 21_000))
        try await eventually {
          (try? await online.waiting(account: AccountID.seed).isEmpty) == true
        }
        _ = try await online.completions(account: AccountID.seed)
        #expect(
          try await online.watchedPercents(account: AccountID.seed, classes: [danceClass]) == [
            "c1": 20
          ])
      }
      // The same outbox file, the server gone.
      let notices = Notices()
      let offline = OutboxProgressService(
        remote: RemoteProgressService(
          server: RemoteServer(baseURL: Self.away), credentials: credentials),
        directory: directory, server: "http://server", clock: clock, onNotice: notices.raise)
      #expect(
        try await offline.progress(account: AccountID.seed, classID: "c1")
          == ClassProgress(
            lastPosition: 20_000, watched: IntervalSet([0..<20_000]), timeInClass: 21_000))
      // Said as kept pages are: another device may have moved the class since (a walk-through
      // read `00:00` after a 10-s wait, with nothing saying it was this device's copy).
      #expect(
        notices.all == [
          "Can't reach the server: showing this class's progress as saved on this device."
        ])
      try await offline.record(
        ProgressUpdate(
          account: AccountID.seed, classID: "c1", position: 40_000,
          played: IntervalSet([30_000..<40_000]),
          addedTimeInClass: 10_000))
      #expect(
        try await offline.progress(account: AccountID.seed, classID: "c1")
          == ClassProgress(
            lastPosition: 40_000, watched: IntervalSet([0..<20_000, 30_000..<40_000]),
            timeInClass: 31_000))
      #expect(
        try await offline.watchedPercents(account: AccountID.seed, classes: [danceClass]) == [
          "c1": 30
        ])
      // A failed save sent again (stamped when it was made, earlier) and the time spent after a
      // read that failed (stamped 0: older than any position) add their time, not their
      // position, as the server will (a seeded model test of the Player's saves).
      for (position, stamp) in [(10_000, Int64(1_700_000_000_000)), (0, Int64(0))] {
        try await offline.record(
          ProgressUpdate(
            account: AccountID.seed, classID: "c1", position: position, addedTimeInClass: 1_000,
            changedAt: stamp))
      }
      #expect(
        try await offline.progress(account: AccountID.seed, classID: "c1")
          == ClassProgress(
            lastPosition: 40_000, watched: IntervalSet([0..<20_000, 30_000..<40_000]),
            timeInClass: 33_000))
      #expect(try await offline.completions(account: AccountID.seed) == [])
      // A class never seen is a failure, as before.
      await #expect(throws: ProgressError.self) {
        try await offline.progress(account: AccountID.seed, classID: "never-seen")
      }
    }
  }

  /// SPEC §18's conflict: two devices (two data directories) of one account, both offline,
  /// watch the same class and finish the same lesson, then both come back (the later one first):
  /// the server ends with the union of the intervals, the sum of the times, both events, and
  /// the position of the later change.
  @Test func twoDevicesOfflineThenBackBothCount() async throws {
    try await withTemporaryDirectory { root in
      let devices = try ["a", "b"].map { try DataDirectory.prepare(path: root + "/" + $0) }
      let credentials = RemoteCredentials()
      let clock = TestClock<Duration>()
      // Offline: each device keeps its changes (the server's name is the outbox file's key).
      for (index, device) in devices.enumerated() {
        let offline = OutboxProgressService(
          remote: RemoteProgressService(
            server: RemoteServer(baseURL: Self.away), credentials: credentials),
          directory: device, server: "http://server", clock: clock)
        let start = index * 30_000
        try await offline.record(
          ProgressUpdate(
            account: AccountID.seed, classID: "c1", position: start + 10_000,
            played: IntervalSet([start..<(start + 10_000)]), addedTimeInClass: 11_000 + index,
            changedAt: 1_700_000_000_000 + Int64(index) * 60_000))
        try await offline.recordCompletion(
          account: AccountID.seed, lessonID: "1",
          started: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 100),
          completed: Date(timeIntervalSince1970: 1_700_000_010 + Double(index) * 100))
        #expect(try await offline.waiting(account: AccountID.seed).count == 2)
      }
      try await withLiveServer { url, _ in
        try await signedIn(credentials, at: url)
        let remote = RemoteProgressService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        // Back online, the later device first.
        for device in devices.reversed() {
          let online = OutboxProgressService(
            remote: remote, directory: device, server: "http://server", clock: clock)
          await online.resume(account: AccountID.seed)
          try await eventually {
            (try? await online.waiting(account: AccountID.seed).isEmpty) == true
          }
        }
        let stored = try await remote.progress(account: AccountID.seed, classID: "c1")
        #expect(stored.watched == IntervalSet([0..<10_000, 30_000..<40_000]))
        #expect(stored.timeInClass == 11_000 + 11_001)
        #expect(stored.lastPosition == 40_000, "the later change's position")
        let events = try await remote.completions(account: AccountID.seed)
        #expect(events.map(\.lessonID) == ["1", "1"], "both devices' events")
        #expect(
          events.map(\.started.timeIntervalSince1970).sorted() == [1_700_000_000, 1_700_000_100])
      }
    }
  }
}

extension OfflineTests {
  /// SPEC §18 across a Start over: a device that saw round 1 finishes a lesson offline while
  /// another device starts round 2. Back online, its completion says the round it was made in
  /// and is filed there, so round 2 still opens at lesson 1 (a walk-through saw it filed in
  /// round 2, which then skipped a lesson nobody did in it).
  @Test func aCompletionSentLateIsFiledInTheRoundItWasMadeIn() async throws {
    try await withDeviceOnLiveServer { url, remote, service in
      #expect(try await service(url).completions(account: AccountID.seed).isEmpty)
      try await service(Self.away).recordCompletion(
        account: AccountID.seed, lessonID: "1",
        started: Date(timeIntervalSince1970: 1_700_000_000),
        completed: Date(timeIntervalSince1970: 1_700_000_030))
      #expect(try await remote.startNewRound(account: AccountID.seed) == 2)
      let online = service(url)
      // Round 1's event, still waiting, is not shown in round 2 (a walk-through saw the
      // device open round 2 at lesson 3, and then say it was done when the server's round 2
      // had one lesson of three)…
      #expect(try await online.completions(account: AccountID.seed).isEmpty, "while waiting")
      await online.resume(account: AccountID.seed)
      try await eventually {
        (try? await online.waiting(account: AccountID.seed).isEmpty) == true
      }
      // … nor once delivered, among the round's events the device keeps.
      #expect(try await online.completionsKnown(account: AccountID.seed).isEmpty, "kept")
      #expect(try await remote.completions(account: AccountID.seed).isEmpty, "round 2's")
      #expect(try await online.completions(account: AccountID.seed).isEmpty)
    }
  }

  /// One account signed in on a live server while `body` runs, with the server's URL, that
  /// account's client (another device) and this device's outbox service reaching a given
  /// address (the server's, or `away`), on one data directory.
  func withDeviceOnLiveServer(
    _ body:
      @escaping @Sendable (
        _ url: String, _ remote: RemoteProgressService,
        _ device: @Sendable (String) -> OutboxProgressService<TestClock<Duration>>
      ) async throws -> Void
  ) async throws {
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/x")
      let credentials = RemoteCredentials()
      let clock = TestClock<Duration>()
      try await withLiveServer { url, _ in
        try await signedIn(credentials, at: url)
        let remote = RemoteProgressService(
          server: RemoteServer(baseURL: url), credentials: credentials)
        try await body(url, remote) { base in
          OutboxProgressService(
            remote: RemoteProgressService(
              server: RemoteServer(baseURL: base), credentials: credentials),
            directory: directory, server: "http://server", clock: clock)
        }
      }
    }
  }
}

extension OfflineTests {
  /// SPEC §18: a device that shows round 1 as done starts over after another device already
  /// began round 2. Nothing starts: round 2, which the other device is in, is not skipped, and
  /// the person is told. Once it has looked again, it starts over from round 2.
  @Test func startingOverFromARoundAnotherDeviceEndedStartsNothing() async throws {
    try await withDeviceOnLiveServer { url, remote, service in
      let device = service(url)
      #expect(try await device.completions(account: AccountID.seed).isEmpty)
      #expect(try await remote.startNewRound(account: AccountID.seed) == 2)
      await #expect(throws: ProgressError.self) {
        try await device.startNewRound(account: AccountID.seed)
      }
      #expect(try await remote.completionsAndRound(account: AccountID.seed).round == 2)
      _ = try await device.completions(account: AccountID.seed)
      #expect(try await device.startNewRound(account: AccountID.seed) == 3)
    }
  }
}

/// SPEC §18: a lesson completion goes to the outbox, and the events shown after it are what
/// the device knows, asking the server nothing (a walk-through saw the next lesson wait 10 s
/// for a server that accepted and said nothing).
@Suite struct CompletionsKnownTests {
  @Test func aCompletionJustRecordedIsKnownWithoutAskingTheServer() async throws {
    let silent = try listeningSocket()
    defer { close(silent.descriptor) }
    try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let service = OutboxProgressService(
        remote: RemoteProgressService(
          server: RemoteServer(baseURL: "http://127.0.0.1:\(silent.port)", timeout: .seconds(3600)),
          credentials: RemoteCredentials()),
        directory: directory, server: "http://server", clock: TestClock<Duration>())
      try await service.recordCompletion(
        account: "a1", lessonID: "4", started: Date(timeIntervalSince1970: 90),
        completed: Date(timeIntervalSince1970: 100))
      // Bounded: a read from this server would wait an hour.
      let answer = await within(.seconds(10)) {
        try await service.completionsKnown(account: "a1")
      }
      #expect((try? answer?.get())?.map(\.lessonID) == ["4"])
    }
  }
}
