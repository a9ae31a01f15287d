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

/// A seeded model test of remote mode (issue 28): random histories of what people and networks
/// do to one device — log in and out as one of two accounts (a log-out's last delivery awaited
/// or running on beside what follows), play, finish lessons, the server away, failing, behind a
/// proxy's error page, or losing answers after applying them, the app killed and relaunched, an
/// outbox row damaged, a session ending — against a real server over
/// HTTP, on SQLite and on PostgreSQL.
///
/// After every step nothing of an account is on the server that the account did not do (the
/// two accounts play different parts of the classes, so a change filed under the wrong one
/// shows). After each history, with the network back and each account logged in once more,
/// each account holds exactly what it played: the union of its intervals, its time summed
/// once, each completion once.
///
/// `MYWORKOUT_MODEL_SEED` replays a seed (the failure message prints it);
/// `MYWORKOUT_MODEL_HISTORIES` sets how many histories run per store.
@Suite(.serialized) struct RemoteModelTests {
  static let environment = ProcessInfo.processInfo.environment
  static let histories = environment["MYWORKOUT_MODEL_HISTORIES"].flatMap { Int($0) } ?? 30
  static let steps = 36
  static let classes = ["c1", "c2"]

  /// What one account did, as the server must end up holding it.
  struct Expected: Equatable {
    var watched: [String: IntervalSet] = [:]
    var time: [String: Int] = [:]
    var completions = 0
  }

  struct Person {
    var email: String
    var password: String
    var id: String
    /// Where this account plays (the other's part never overlaps).
    var base: Int
  }

  static let people = [
    (email: "registered@email.com", password: "password"),
    (email: "other@example.com", password: "Secret-123"),
  ]

  @Test(arguments: Store.allCases)
  func eachAccountEndsWithExactlyWhatItDid(store: Store) async throws {
    let seeds: [UInt64]
    if let replay = Self.environment["MYWORKOUT_MODEL_SEED"].flatMap({ UInt64($0) }) {
      seeds = [replay]
    } else {
      var random = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))
      seeds = (0..<Self.histories).map { _ in random.next() }
    }
    var ran = 0
    for seed in seeds {
      let finished = try await withTemporaryDirectory { root in
        var options = testOptions(root)
        options.issuer = nil
        return try await withBackend(store, options: options) { backend in
          try await Self.history(seed: seed, backend: backend, root: root)
        }
      }
      guard finished != nil else { return }  // PostgreSQL not available (said)
      ran += 1
    }
    print("remote-mode model test (\(store.rawValue)): \(ran) histories of \(Self.steps) steps")
  }

  /// One history; records failures naming the seed.
  static func history(seed: UInt64, backend: Backend, root: String) async throws {
    let network = Network()
    try await serveLive(backend, behind: network) { url in
      var random = SplitMix64(seed: seed)
      let replay = "replay with MYWORKOUT_MODEL_SEED=\(seed)"
      let directory = try DataDirectory.prepare(path: root + "/device")
      let credentials = RemoteCredentials()
      let server = RemoteServer(baseURL: url)
      let accounts = RemoteAccountService(server: server, credentials: credentials)
      let clock = TestClock<Duration>()
      func launch() -> OutboxProgressService<TestClock<Duration>> {
        OutboxProgressService(
          remote: RemoteProgressService(server: server, credentials: credentials),
          directory: directory, server: url, clock: clock, backoff: Backoff(random: { 0.5 }))
      }
      var app = launch()
      // The two accounts (the second signed up here).
      let first = try await accounts.logIn(email: people[0].email, password: people[0].password)
      credentials.signedOut()
      let second = try await accounts.signUp(
        Registration(
          password: people[1].password,
          profile: Profile(
            email: people[1].email, gender: .female, mobile: "012-345 6780", firstName: "Other",
            lastName: "Person")))
      credentials.signedOut()
      let persons = [
        Person(email: people[0].email, password: people[0].password, id: first.accountID, base: 0),
        Person(
          email: people[1].email, password: people[1].password, id: second.accountID,
          base: 10_000_000),
      ]
      var expected = [Expected(), Expected()]
      var current: Int?  // who is signed in
      var played = [0, 0]  // how far each has played (their intervals never repeat)
      var history: [String] = []
      var deliveries: [Task<Void, Never>] = []

      func logIn(_ index: Int) async -> Bool {
        credentials.signedOut()
        guard
          let session = try? await accounts.logIn(
            email: persons[index].email, password: persons[index].password)
        else { return false }
        await app.resume(account: session.accountID, email: session.profile.email)
        current = index
        return true
      }

      for _ in 0..<steps {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<12:
          let index = Int.random(in: 0..<2, using: &random)
          history.append("log in \(index): \(await logIn(index) ? "yes" : "no answer")")
        case 12..<18:
          // Ctrl-O: the session ends, and its person's changes go under their own token (the
          // last delivery), awaited or still running while the history goes on.
          let leaving = credentials.leaving()
          credentials.signedOut()
          current = nil
          let out = app
          if Bool.random(using: &random) {
            history.append("log out")
            await out.loggedOut(leaving, within: .seconds(10))
          } else {
            history.append("log out, its last delivery running on")
            deliveries.append(Task { await out.loggedOut(leaving, within: .seconds(10)) })
          }
        case 18..<21:
          history.append("session ended")
          credentials.signedOut()
          current = nil
        case 21..<50:
          guard let index = current else { continue }
          let classID = classes.randomElement(using: &random)!
          let length = (1 + Int.random(in: 0..<5, using: &random)) * 1_000
          let start = persons[index].base + played[index]
          played[index] += length + 500
          history.append("\(index) plays \(classID) \(start)..<\(start + length)")
          try await app.record(
            ProgressUpdate(
              account: persons[index].id, classID: classID, position: start + length,
              played: IntervalSet([start..<(start + length)]), addedTimeInClass: length))
          expected[index].watched[classID, default: IntervalSet()].insert(start..<(start + length))
          expected[index].time[classID, default: 0] += length
        case 50..<56:
          guard let index = current else { continue }
          let started = 1_700_000_000 + expected[index].completions * 100
          history.append("\(index) finishes a lesson")
          try await app.recordCompletion(
            account: persons[index].id, lessonID: String(1 + Int.random(in: 0..<4, using: &random)),
            started: Date(timeIntervalSince1970: Double(started)),
            completed: Date(timeIntervalSince1970: Double(started + 30)))
          expected[index].completions += 1
        case 56..<74:
          let mode = Network.Mode.allCases.randomElement(using: &random)!
          history.append("network \(mode)")
          network.mode = mode
        case 74..<88:
          history.append("a minute passes")
          await clock.advance(by: .seconds(61))
        case 88..<95:
          history.append("killed and relaunched")
          // (After any last delivery: a killed process runs none of its tasks on.)
          for delivery in deliveries { await delivery.value }
          deliveries = []
          await app.stopAll()
          app = launch()
          if let index = current {
            await app.resume(account: persons[index].id, email: persons[index].email)
          }
        default:
          // A row this build cannot read, at the end of the signed-in account's outbox.
          guard let index = current else { continue }
          history.append("\(index)'s outbox gets a row it cannot read")
          let path = OutboxStore.path(in: directory, server: url, account: persons[index].id)
          if FileManager.default.fileExists(atPath: path) {
            let raw = try SQLiteDatabase(path: path)
            try raw.execute(
              "INSERT INTO changes(key, change) VALUES ('\(UUID().uuidString)', '{\"new\":1}')")
          }
        }
        // Nothing under the wrong account, nothing that was not done.
        for (index, person) in persons.enumerated() {
          let held = try await Self.held(backend, person.id)
          for classID in classes {
            let watched = held.watched[classID] ?? IntervalSet()
            let allowed = expected[index].watched[classID] ?? IntervalSet()
            #expect(
              watched.union(allowed) == allowed,
              "\(replay): \(classID) of account \(index) holds \(watched.ranges), more than it played \(allowed.ranges)\n\(history.joined(separator: "\n"))"
            )
            #expect(
              (held.time[classID] ?? 0) <= (expected[index].time[classID] ?? 0),
              "\(replay): time of \(classID) of account \(index)\n\(history.joined(separator: "\n"))"
            )
          }
          #expect(held.completions <= expected[index].completions, "\(replay)")
        }
      }

      // The network back; each account logs in once more and its outbox drains.
      for delivery in deliveries { await delivery.value }
      network.mode = .up
      for (index, person) in persons.enumerated() {
        let loggedIn = await logIn(index)
        #expect(loggedIn, "\(replay): log-in with the network up")
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? await app.waiting(account: person.id).isEmpty) != true {
          guard ContinuousClock.now < deadline else {
            Issue.record("\(replay): account \(index)'s outbox did not drain")
            break
          }
          await clock.advance(by: .seconds(61))
          await Task.yield()
        }
        let held = try await Self.held(backend, person.id)
        var want = expected[index]
        want.watched = want.watched.filter { !$0.value.isEmpty }
        #expect(
          held == want,
          "\(replay): account \(index) holds \(held), did \(want)\n\(history.joined(separator: "\n"))"
        )
      }
      await app.stopAll()
    }
  }

  /// What the server holds for `account`.
  static func held(_ backend: Backend, _ account: String) async throws -> Expected {
    var result = Expected()
    for classID in classes {
      let progress = try await backend.progress.progress(account: account, classID: classID)
      if !progress.watched.isEmpty { result.watched[classID] = progress.watched }
      if progress.timeInClass > 0 { result.time[classID] = progress.timeInClass }
    }
    result.completions = try await backend.progress.completions(account: account).count
    return result
  }
}
