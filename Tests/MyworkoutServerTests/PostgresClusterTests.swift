import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MyworkoutCore
import MyworkoutServer
import MyworkoutServices
import NIOCore
import NIOHTTP1
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Several server instances on one PostgreSQL (SPEC §17), each with its own pool, signer
/// object and limiter, on real loopback ports: what one writes the other reads, tokens cross,
/// progress saved through both at once loses nothing, the login limit counts across both.
@Suite(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason)))
struct PostgresClusterTests {
  static let logger: Logger = {
    var logger = Logger(label: "test-postgres")
    logger.logLevel = .critical
    return logger
  }()

  /// `count` instances (their base URLs) on one fresh database, while `body` runs.
  func withInstances(
    _ count: Int, database: String? = nil, _ configure: (inout ServerOptions) -> Void = { _ in },
    _ body: @Sendable ([String]) async throws -> Void
  ) async throws {
    let url = try DatabaseURL(database ?? TestPostgres.sharedCluster().makeDatabase())
    try await withTemporaryDirectory { directory in
      var options = testOptions(directory)
      configure(&options)
      var backends: [Backend] = []
      var databases: [PostgresDatabase] = []
      defer { databases.forEach { $0.close() } }
      for _ in 0..<count {
        let opened = try await ServerStores.postgres(
          url: url, options: options, logger: Self.logger)
        databases.append(opened.database)
        backends.append(try Backend(options: options, stores: opened.stores))
      }
      try await serveAll(backends[...], urls: [], body)
    }
  }

  private func serveAll(
    _ backends: ArraySlice<Backend>, urls: [String],
    _ body: @Sendable ([String]) async throws -> Void
  ) async throws {
    guard let first = backends.first else { return try await body(urls) }
    try await serveLive(first) { url, _ in
      try await serveAll(backends.dropFirst(), urls: urls + [url], body)
    }
  }

  @Test func signUpOnALogInOnBTokensAndKeysAreShared() async throws {
    try await withInstances(2) { urls in
      let (a, b) = (urls[0], urls[1])
      let signup = try await HTTP.post(
        a + "/dbconnections/signup",
        [
          "email": "Dancer@Example.com", "password": "Str0ng!pass", "client_id": "c",
          "connection": "Username-Password-Authentication",
        ])
      #expect(signup.status == 200, "\(signup.body)")
      let login = try await HTTP.post(
        b + "/oauth/token",
        [
          "grant_type": "password", "username": "dancer@example.com",
          "password": "Str0ng!pass", "client_id": "c",
        ])
      #expect(login.status == 200, "\(login.body)")
      let fromB = try #require(login.json["access_token"] as? String)
      let onA = try await HTTP.get(a + "/userinfo", bearer: fromB)
      #expect(onA.status == 200)
      #expect(onA.json["email"] as? String == "dancer@example.com")
      let loginA = try await HTTP.post(
        a + "/authenticate", ["email": "dancer@example.com", "password": "Str0ng!pass"])
      let fromA = try #require(loginA.json["access_token"] as? String)
      let onB = try await HTTP.get(b + "/userinfo", bearer: fromA)
      #expect(onB.status == 200)
      let keysA = try await HTTP.get(a + "/.well-known/jwks.json")
      let keysB = try await HTTP.get(b + "/.well-known/jwks.json")
      #expect(keysA.status == 200)
      #expect(keysA.body == keysB.body)
      // The same email again, now through B: taken.
      let again = try await HTTP.post(
        b + "/dbconnections/signup",
        [
          "email": "dancer@example.com", "password": "Str0ng!pass", "client_id": "c",
          "connection": "Username-Password-Authentication",
        ])
      #expect(again.status == 400)
      #expect(again.json["code"] as? String == "user_exists")
    }
  }

  @Test func concurrentProgressSavesThroughBothInstancesLoseNothing() async throws {
    try await withInstances(2) { urls in
      let login = try await HTTP.post(
        urls[0] + "/authenticate", ["email": "registered@email.com", "password": "password"])
      let token = try #require(login.json["access_token"] as? String)
      let clients = 8
      let saves = 50
      // Client c's save i plays a part of its own and one that overlaps its neighbour's.
      func played(_ client: Int, _ save: Int) -> [[Int]] {
        let k = client * saves + save
        return [[k * 1_000, k * 1_000 + 400], [k * 1_000 + 300, k * 1_000 + 1_100]]
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for client in 0..<clients {
          group.addTask {
            for save in 0..<saves {
              let response = try await HTTP.post(
                urls[(client + save) % 2] + "/api/progress/class-1",
                [
                  "position": client * 1_000 + save, "played": played(client, save),
                  "added_time_in_class": client * saves + save + 1,
                ], bearer: token)
              #expect(response.status == 200, "\(response.body)")
            }
          }
        }
        try await group.waitForAll()
      }
      var expected = IntervalSet()
      var time = 0
      for client in 0..<clients {
        for save in 0..<saves {
          for pair in played(client, save) { expected.insert(pair[0]..<pair[1]) }
          time += client * saves + save + 1
        }
      }
      for url in urls {
        let stored = try await HTTP.get(url + "/api/progress/class-1", bearer: token)
        let watched = (stored.json["watched"] as? [[Int]]) ?? []
        #expect(watched == expected.ranges.map { [$0.lowerBound, $0.upperBound] })
        #expect(stored.json["time_in_class"] as? Int == time)
      }
    }
  }

  /// Changes sent at once through both instances under one `If-Match`: one is made, every
  /// other is 412 (RFC 9110 §13.1.1). The check and the change were two steps across instances
  /// (a walk-through's 60 at once through the cluster saw two made, of progress and of lesson
  /// completions alike).
  @Test func oneTagLetsOneChangeThroughAcrossInstances() async throws {
    try await withInstances(2) { urls in
      let login = try await HTTP.post(
        urls[0] + "/authenticate", ["email": "registered@email.com", "password": "password"])
      let token = try #require(login.json["access_token"] as? String)
      for path in ["/api/progress/class-1", "/api/lessons/completions"] {
        @Sendable func body(_ i: Int) -> [String: Any] {
          path.hasPrefix("/api/progress")
            ? ["position": i, "played": [[i * 1_000, i * 1_000 + 500]], "added_time_in_class": 1]
            : ["lesson_id": "L\(i)", "started": 1_700_000_000, "completed": 1_700_000_042]
        }
        let tag = try #require(try await HTTP.get(urls[0] + path, bearer: token).etag)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
          for i in 0..<24 {
            group.addTask {
              try await HTTP.post(urls[i % 2] + path, body(i), bearer: token, ifMatch: tag).status
            }
          }
          return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(path): \(statuses.sorted())")
        #expect(statuses.filter { $0 == 412 }.count == 23, "\(path): \(statuses.sorted())")
      }
    }
  }

  @Test func wrongPasswordsSpreadOverBothInstancesAreLimitedTogether() async throws {
    try await withInstances(2, { $0.loginLimit = 10 }) { urls in
      var statuses: [Int] = []
      for attempt in 0..<12 {
        let response = try await HTTP.post(
          urls[attempt % 2] + "/authenticate",
          ["email": "registered@email.com", "password": "wrong-\(attempt)"])
        statuses.append(response.status)
      }
      #expect(statuses.prefix(10).allSatisfy { $0 == 401 }, "\(statuses)")
      #expect(statuses[10] == 429 || statuses[11] == 429, "\(statuses)")
      #expect(statuses[11] == 429, "\(statuses)")
    }
  }

  @Test func instancesStartingAtOnceMigrateOnceAndShareOneKey() async throws {
    let url = try DatabaseURL(TestPostgres.sharedCluster().makeDatabase())
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      async let first = ServerStores.postgres(url: url, options: options, logger: Self.logger)
      async let second = ServerStores.postgres(url: url, options: options, logger: Self.logger)
      let (a, b) = try await (first, second)
      defer {
        a.database.close()
        b.database.close()
      }
      #expect(a.stores.signer.keySet == b.stores.signer.keySet)
      let version = try TestPostgres.sharedCluster().psql(
        "SELECT version FROM myworkout_schema", database: url.database)
      #expect(version.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Migrations.version)")
      let seeded = try TestPostgres.sharedCluster().psql(
        "SELECT count(*) FROM accounts", database: url.database)
      #expect(seeded.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
  }

  /// Issue 30: an instance keeps its catalog pages in memory, and another instance's import
  /// (it starts with a new classes file) reaches them through the database within a second.
  @Test func anImportByAnotherInstanceReachesTheCatalogKeptInMemory() async throws {
    let url = try DatabaseURL(TestPostgres.sharedCluster().makeDatabase())
    let clock = ManualSeconds()
    try await withTemporaryDirectory { directory in
      @Sendable func catalog(_ title: String) throws -> String {
        let file = directory + "/\(title).csv"
        try """
        title,instructor,level,song,videoUrl,thumbnailSlug,duration
        \(title),Ada,beginner,Song,a.mp4,,100

        """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
      }
      var options = testOptions(directory)
      options.catalog = try catalog("First")
      options.monotonic = clock.now
      let first = try await ServerStores.postgres(url: url, options: options, logger: Self.logger)
      defer { first.database.close() }
      var changed = options
      changed.catalog = try catalog("Second")
      let other = changed
      let app = Application(
        router: ServerApplication.router(try Backend(options: options, stores: first.stores)))
      try await app.test(.router) { client in
        func titles() async throws -> String {
          try await client.execute(uri: "/api/classes?limit=5", method: .get) {
            String(buffer: $0.body)
          }
        }
        #expect(try await titles().contains("\"First\""))
        let second = try await ServerStores.postgres(url: url, options: other, logger: Self.logger)
        second.database.close()
        #expect(try await titles().contains("\"First\""), "kept within the second")
        clock.advance(1.5)
        #expect(try await titles().contains("\"Second\""), "the other instance's import")
      }
    }
  }

  @Test func aSchemaFromANewerServerIsRefusedAndLeftAlone() async throws {
    let cluster = try TestPostgres.sharedCluster()
    let url = try DatabaseURL(cluster.makeDatabase())
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      let opened = try await ServerStores.postgres(url: url, options: options, logger: Self.logger)
      opened.database.close()
      try cluster.psql("UPDATE myworkout_schema SET version = 99", database: url.database)
      let before = try cluster.psql(
        "SELECT count(*) FROM accounts; SELECT version FROM myworkout_schema",
        database: url.database)
      do {
        _ = try await ServerStores.postgres(url: url, options: options, logger: Self.logger)
        Issue.record("a newer schema was accepted")
      } catch let error as StoreError {
        #expect(
          error.message.contains("version 99, newer than this server's \(Migrations.version)"),
          "\(error)")
        #expect(error.message.contains("nothing was changed"))
      }
      let after = try cluster.psql(
        "SELECT count(*) FROM accounts; SELECT version FROM myworkout_schema",
        database: url.database)
      #expect(before == after)
    }
  }

  @Test func aWrongPasswordOrNoServerIsOneClearLineWithoutTheSecret() async throws {
    let cluster = try TestPostgres.sharedCluster()
    let database = try cluster.makeDatabase()
    let wrong = try DatabaseURL(
      database.replacingOccurrences(of: TestPostgres.password, with: "s3cret-guess"))
    try await withTemporaryDirectory { directory in
      let options = testOptions(directory)
      do {
        _ = try await ServerStores.postgres(url: wrong, options: options, logger: Self.logger)
        Issue.record("a wrong password was accepted")
      } catch let error as StoreError {
        #expect(error.message.contains("refused user postgres"), "\(error)")
        #expect(!error.message.contains("s3cret-guess"))
      }
      let nowhere = try DatabaseURL("postgres://me:s3cret-guess@127.0.0.1:1/nothing")
      do {
        _ = try await ServerStores.postgres(url: nowhere, options: options, logger: Self.logger)
        Issue.record("an unreachable database was accepted")
      } catch let error as StoreError {
        #expect(
          error.message.hasPrefix("cannot reach the database at postgres://me@127.0.0.1:1/nothing"),
          "\(error)")
        #expect(!error.message.contains("s3cret-guess"))
      }
    }
  }

  @Test func theServerExitsWithOneLineWhenTheDatabaseIsUnreachableOrTheURLMalformed() async throws {
    let binary = try #require(BuiltProduct.path("myworkout-server"), "build myworkout-server first")
    try await withTemporaryDirectory { directory in
      for (url, expected) in [
        (
          "postgres://me:s3cret-guess@127.0.0.1:1/nothing",
          "myworkout-server: cannot reach the database at postgres://me@127.0.0.1:1/nothing"
        ),
        ("mysql://me:s3cret-guess@host/db", "myworkout-server: the database URL must start with"),
        ("postgres://me:s3cret-guess@host:99999/db", "myworkout-server: the database URL's port"),
      ] {
        let errors = directory + "/stderr"
        let child = try ChildProcess.spawn(
          [binary, "--data-dir", directory + "/data", "--port", "0", "--database", url],
          standardOutput: .pipe, standardError: .file(errors))
        let output = child.readToEnd()
        let status = await child.wait()
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(status == .exited(1))
        #expect(output.isEmpty)
        #expect(text.hasPrefix(expected), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "\(text)")
        #expect(!text.contains("s3cret-guess"))
      }
    }
  }

  @Test func searchAnswersTheSameAsSQLite() async throws {
    let queries = [
      "", "salsa", "SALSA", "zoe", "Zoë", "a", "be", "in sa", "%", "_", "\\", "x_y",
      "nothing-matches",
      "e", "ll", "mo ti",
    ]
    func pages(_ store: Store) async throws -> [String] {
      try await withRouterReturning(store) { client, _ in
        var bodies: [String] = []
        for query in queries {
          for offset in [0, 3] {
            let uri =
              "/api/classes?limit=7&offset=\(offset)&q="
              + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            bodies.append(try await client.execute(uri: uri, method: .get) { $0.body.text })
          }
        }
        return bodies
      } ?? []
    }
    let sqlite = try await pages(.sqlite)
    let postgres = try await pages(.postgres)
    #expect(sqlite.count == queries.count * 2)
    for (index, body) in sqlite.enumerated() {
      #expect(postgres[index] == body, "query \(queries[index / 2])")
    }
  }

  @Test func aRestartedDatabaseIs503WhileAwayAndServesAgainAfter() async throws {
    let cluster = try TestPostgres()
    defer { try? cluster.stop() }
    let database = try cluster.makeDatabase()
    try await withInstances(1, database: database) { urls in
      let url = urls[0]
      let first = try await HTTP.post(
        url + "/authenticate", ["email": "registered@email.com", "password": "password"])
      #expect(first.status == 200)
      let token = try #require(first.json["access_token"] as? String)
      try cluster.stop()
      let away = try await HTTP.get(url + "/api/progress/class-1", bearer: token)
      #expect(away.status == 503, "\(away.body)")
      #expect(away.json["error"] as? String == "temporarily_unavailable")
      let search = try await HTTP.get(url + "/api/classes?q=salsa")
      #expect(search.status == 503)
      try cluster.start()
      let status = try await eventually(within: .seconds(30), every: .milliseconds(200)) {
        let status = try await HTTP.get(url + "/api/progress/class-1", bearer: token).status
        return status == 200 ? status : nil
      }
      #expect(status == 200)
    }
  }

  /// A change with the database away is a 503 within the call timeout, as a read is: the
  /// deployment's change lock waited for a connection of its own with no bound (postgres-nio
  /// keeps trying, for up to a minute), so a save hung where a read answered (found by a
  /// review).
  @Test func aChangeWithTheDatabaseAwayIs503InTime() async throws {
    let cluster = try TestPostgres()
    defer { try? cluster.stop() }
    let database = try cluster.makeDatabase()
    try await withInstances(
      1, database: database, { $0.databaseCallTimeout = .seconds(2) }
    ) { urls in
      let url = urls[0]
      let login = try await HTTP.post(
        url + "/authenticate", ["email": "registered@email.com", "password": "password"])
      let token = try #require(login.json["access_token"] as? String)
      try cluster.stop()
      let started = ContinuousClock.now
      let away = try await HTTP.post(
        url + "/api/progress/class-1",
        ["position": 1_000, "played": [[0, 1_000]], "added_time_in_class": 1], bearer: token)
      let took = ContinuousClock.now - started
      #expect(away.status == 503, "\(away.body)")
      #expect(took < .seconds(6), "\(took)")
    }
  }

  @Test func aReadOnlyDatabaseIsAClear503AndLosesNothing() async throws {
    let cluster = try TestPostgres.sharedCluster()
    let database = try cluster.makeDatabase()
    let name = try DatabaseURL(database).database
    /// Sets the database's default and drops its connections, so the pool's new ones take it.
    @Sendable func readOnly(_ on: Bool) throws {
      try cluster.psql(
        "ALTER DATABASE \(name) SET default_transaction_read_only = \(on ? "on" : "off")")
      try cluster.psql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
    }
    try await withInstances(1, database: database) { urls in
      let url = urls[0] + "/api/progress/class-1"
      let login = try await HTTP.post(
        urls[0] + "/authenticate", ["email": "registered@email.com", "password": "password"])
      let token = try #require(login.json["access_token"] as? String)
      let save: [String: Any] = ["position": 5, "played": [[0, 1_000]], "added_time_in_class": 1]
      #expect(try await HTTP.post(url, save, bearer: token).status == 200)
      try readOnly(true)
      /// Saves until the answer's description contains `text` (a dropped connection first
      /// answers 503 too), within a deadline; the last answer.
      func saveUntil(_ text: String) async throws -> HTTP.Answer {
        let deadline = ContinuousClock.now + .seconds(30)
        var answer = try await HTTP.post(url, save, bearer: token)
        while !answer.body.contains(text), ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(50))
          answer = try await HTTP.post(url, save, bearer: token)
        }
        return answer
      }
      let refused = try await saveUntil("read-only")
      #expect(refused.status == 503, "\(refused.body)")
      #expect(refused.json["error"] as? String == "temporarily_unavailable")
      #expect(
        refused.json["error_description"] as? String
          == "Could not save progress: the database is read-only. Try again.")
      let kept = try await HTTP.get(url, bearer: token)
      #expect(kept.status == 200)
      #expect(kept.json["watched"] as? [[Int]] == [[0, 1_000]])
      #expect(kept.json["time_in_class"] as? Int == 1)
      try readOnly(false)
      let saved = try await saveUntil("time_in_class")
      #expect(saved.status == 200, "\(saved.body)")
      #expect(saved.json["time_in_class"] as? Int == 2)
    }
  }
}

/// A small JSON client over AsyncHTTPClient for the live servers.
enum HTTP {
  struct Answer: Sendable {
    var status: Int
    var body: String
    var etag: String? = nil
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
  }

  static func get(_ url: String, bearer: String? = nil) async throws -> Answer {
    try await send(url, method: .GET, body: nil, bearer: bearer)
  }

  static func post(
    _ url: String, _ body: [String: Any], bearer: String? = nil, ifMatch: String? = nil
  ) async throws -> Answer {
    try await send(
      url, method: .POST, body: try JSONSerialization.data(withJSONObject: body), bearer: bearer,
      ifMatch: ifMatch)
  }

  private static func send(
    _ url: String, method: HTTPMethod, body: Data?, bearer: String?, ifMatch: String? = nil
  ) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    request.headers.add(name: "Content-Type", value: "application/json")
    if let bearer { request.headers.add(name: "Authorization", value: "Bearer " + bearer) }
    if let ifMatch { request.headers.add(name: "If-Match", value: ifMatch) }
    if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return Answer(
      status: Int(response.status.code), body: String(buffer: bytes),
      etag: response.headers.first(name: "ETag"))
  }
}
