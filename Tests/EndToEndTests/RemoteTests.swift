import Foundation
import TestProcesses
import Testing

extension EndToEnd {
  /// SPEC §15: the app in remote mode against a real `myworkout-server` process.
  @Suite(.timeLimit(.minutes(2)))
  struct RemoteTests {
    static var serverBinary: String {
      BuiltProduct.path("myworkout-server")
        ?? URL(fileURLWithPath: TerminalSession.binary).deletingLastPathComponent()
        .appendingPathComponent("myworkout-server").path
    }

    /// `scripts/cluster` (beside the tests' folder) with what it needs: PostgreSQL and nginx.
    static let cluster: String? = {
      let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/cluster").path
      let postgres = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
        .contains {
          FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/pg_ctl")
        }
      let nginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
      return postgres == true && nginx ? script : nil
    }()
    static let clusterMissing: Comment =
      "PostgreSQL or nginx is not installed (apt-get install postgresql nginx-light)"

    @Test(.enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func logInOpenClassesAndSearchAgainstTheServer() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      try await session(
        against: [
          Self.serverBinary, "--port", "0", "--data-dir", folder.path, "--catalog",
          ClassesTests.briefCatalog, "--lessons", LessonsTests.sample,
        ])
    }

    /// SPEC §17: the same session through nginx in front of two instances on one PostgreSQL.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing),
      .enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func logInOpenClassesAndSearchThroughTheLoadBalancer() async throws {
      try await session(
        against: [
          try #require(Self.cluster), "--server", Self.serverBinary, "--", "--catalog",
          ClassesTests.briefCatalog, "--lessons", LessonsTests.sample,
        ])
    }

    /// SPEC §17's failure rule from the outside: one of the two instances behind nginx is
    /// killed (-9) while the app plays a class and saves; the other serves the rest, search
    /// still answers, and the server ends with what was watched (the outbox sends any save
    /// whose request died with the instance again, under its key).
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing),
      .enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func killingOneInstanceMidSessionLosesNothing() async throws {
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      try await Self.withCluster(["--", "--catalog", catalog, "--lessons", LessonsTests.sample]) {
        front, log in
        try OfflineOutboxTests.logInAndPlay(app, server: front)
        try app.waitUntil(timeout: 30, "8 s played") { (PlayerTests.elapsed($0) ?? 0) >= 8 }

        // Instance 1 dies mid-class.
        let first = try #require(try Self.instancePID(number: 1, log: log))
        kill(first, SIGKILL)
        try app.waitUntil(timeout: 30, "24 s played") { (PlayerTests.elapsed($0) ?? 0) >= 24 }
        let watched = try OfflineOutboxTests.pause(app)
        try app.press("Escape")
        try app.waitUntil(timeout: 60, "everything sent") {
          OfflineOutboxTests.settled($0, on: "2 classes")
        }
        // Search answers from the instance left (a request in flight may have failed once).
        try app.type("bea")
        try app.waitFor("1 of 2 classes matches \"bea\"")
        let state = try OfflineOutboxTests.serverState(front, title: "Hundred A")
        OfflineOutboxTests.expectServer(state, holds: watched)
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(said.contains("cluster: instance 1 stopped; the others serve"), "\(said)")
      }
    }

    /// Issue 30 through nginx: the public catalog is answered from nginx's cache (a repeated
    /// page is a HIT, a matching If-None-Match a 304), while personal answers never are: two
    /// accounts asking for the same class's progress through the same front each get their own.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing))
    func nginxCachesTheCatalogAndNothingPersonal() async throws {
      try await Self.withCluster { front, _ in
        let script = """
          import json, sys, urllib.request, urllib.error
          base = sys.argv[1]
          def call(path, body=None, token=None, headers=None):
              request = urllib.request.Request(base + path,
                  data=None if body is None else json.dumps(body).encode())
              request.add_header("Content-Type", "application/json")
              if token: request.add_header("Authorization", "Bearer " + token)
              for name, value in (headers or {}).items(): request.add_header(name, value)
              try:
                  with urllib.request.urlopen(request, timeout=10) as response:
                      return response.status, dict(response.headers), response.read()
              except urllib.error.HTTPError as error:
                  return error.code, dict(error.headers), error.read()
          statuses = [call("/api/classes?q=&offset=0&limit=7")[1].get("X-Cache-Status") for _ in range(3)]
          status, headers, _ = call("/api/classes?q=&offset=0&limit=7")
          revalidated = call("/api/classes?q=&offset=0&limit=7", headers={"If-None-Match": headers["ETag"]})[0]
          call("/dbconnections/signup", {"client_id": "e2e", "email": "c@example.com",
              "password": "Secret-123", "connection": "Username-Password-Authentication"})
          def token(email, password):
              return json.loads(call("/authenticate", {"email": email, "password": password})[2])["access_token"]
          a, c = token("registered@email.com", "password"), token("c@example.com", "Secret-123")
          call("/api/progress/k1", {"position": 1000, "played": [[0, 1000]], "added_time_in_class": 1000}, a)
          call("/api/progress/k1", {"position": 5000, "played": [[0, 5000]], "added_time_in_class": 5000}, c)
          seen = []
          for _ in range(2):
              for who in (a, c):
                  status, headers, body = call("/api/progress/k1", token=who)
                  seen.append((json.loads(body)["time_in_class"], headers.get("Cache-Control"), headers.get("X-Cache-Status")))
          print(json.dumps({"statuses": statuses, "revalidated": revalidated, "seen": seen}))
          """
        let output = try ChildProcess.run(["python3", "-c", script, front], searchPath: true)
        let result = try #require(
          try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(result["statuses"] as? [String] == ["MISS", "HIT", "HIT"], "\(output)")
        #expect(result["revalidated"] as? Int == 304, "\(output)")
        let seen = try #require(result["seen"] as? [[Any]])
        #expect(
          seen.map { $0[0] as? Int } == [1_000, 5_000, 1_000, 5_000], "each their own: \(output)")
        #expect(seen.allSatisfy { $0[1] as? String == "private, no-cache" }, "\(output)")
        #expect(seen.allSatisfy { $0[2] is NSNull }, "never through nginx's cache: \(output)")
      }
    }

    /// What nginx answers itself is JSON, as the server's errors are: a request line or headers
    /// it cannot take (its 400, 414, 494, 501, 505), a range outside a video (416). A
    /// walk-through found HTML for each.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing))
    func nginxsOwnErrorsAreJSON() async throws {
      try await Self.withCluster { front, _ in
        let script = """
          import json, socket, sys, urllib.request
          host, port = sys.argv[1].rsplit("//", 1)[1].split(":")
          def raw(request):
              connection = socket.create_connection((host, int(port)), timeout=10)
              connection.sendall(request)
              data = b""
              while True:
                  piece = connection.recv(65536)
                  if not piece: break
                  data += piece
              head, _, body = data.partition(b"\\r\\n\\r\\n")
              status = int(head.split(b" ")[1])
              json.loads(body)  # raises unless the body is JSON
              return status
          end = b"Host: a\\r\\nConnection: close\\r\\n\\r\\n"
          token = json.loads(urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/authenticate",
              data=json.dumps({"email": "registered@email.com", "password": "password"}).encode(),
              headers={"Content-Type": "application/json"})).read())["access_token"]
          print(json.dumps([
              raw(b"GARBAGE\\r\\n\\r\\n"),
              raw(b"GET /videos/..%2f..%2fetc%2fpasswd HTTP/1.1\\r\\n" + end),
              raw(b"GET / HTTP/1.1\\r\\nX: " + b"a" * 9000 + b"\\r\\n" + end),
              raw(b"GET /" + b"a" * 9000 + b" HTTP/1.1\\r\\n" + end),
              raw(b"GET / HTTP/2.5\\r\\n" + end),
              raw(b"GET /videos/bounce.mp4 HTTP/1.1\\r\\nRange: bytes=999999999-\\r\\n"
                  b"Authorization: Bearer " + token.encode() + b"\\r\\n" + end),
              raw(b"GET /videos/bounce.mp4 HTTP/1.1\\r\\nIf-Match: \\"other\\"\\r\\n"
                  b"Authorization: Bearer " + token.encode() + b"\\r\\n" + end),
          ]))
          """
        let output = try ChildProcess.run(["python3", "-c", script, front], searchPath: true)
        #expect(
          output.trimmingCharacters(in: .whitespacesAndNewlines)
            == "[400, 400, 400, 414, 505, 416, 412]"
        )
      }
    }

    /// A catalog request that carries a token (never answered from nginx's cache) keeps its
    /// conditions on its way to the instance: nginx's cache took `If-None-Match`, `If-Match`
    /// and `Range` off every request of its location, bypassed or not, so such a client was
    /// sent 200 where SPEC §20 says 304, and 200 where the server says 412.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing))
    func aCatalogRequestWithATokenKeepsItsConditionsThroughNginx() async throws {
      try await Self.withCluster { front, _ in
        let script = """
          import json, sys, urllib.request, urllib.error
          base = sys.argv[1]
          token = json.loads(urllib.request.urlopen(urllib.request.Request(base + "/authenticate",
              data=json.dumps({"email": "registered@email.com", "password": "password"}).encode(),
              headers={"Content-Type": "application/json"})).read())["access_token"]
          def status(headers):
              request = urllib.request.Request(base + "/api/classes?limit=2", headers=headers)
              try:
                  answer = urllib.request.urlopen(request)
                  return answer.status, answer.headers.get("ETag")
              except urllib.error.HTTPError as error:
                  return error.code, error.headers.get("ETag")
          bearer = {"Authorization": "Bearer " + token}
          _, tag = status(bearer)
          print(json.dumps([
              status(dict(bearer, **{"If-None-Match": tag}))[0],
              status(dict(bearer, **{"If-Match": '"other"'}))[0],
              status({"If-None-Match": tag})[0],
          ]))
          """
        let output = try ChildProcess.run(["python3", "-c", script, front], searchPath: true)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "[304, 412, 304]")
      }
    }

    /// Writes that take too long mark no instance dead. A walk-through made every instance's
    /// saves slow (a huge row) and nginx, counting each 4 s timeout as a failure, then answered
    /// everyone 502 ("no live upstreams") while every instance was healthy. Here both instances
    /// stand still while four writes time out; once they go on, a read is answered (before:
    /// `503 No instance answered` for the next two seconds).
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing))
    func writesThatTimeOutMarkNoInstanceDead() async throws {
      try await Self.withCluster { front, log in
        // The script names its instances on standard error just after the front's URL.
        let named = try await eventually(within: .seconds(10)) {
          let pids = (1...2).compactMap { try? Self.instancePID(number: $0, log: log) }
          return pids.count == 2 ? pids : nil
        }
        let pids = try #require(named, "the instances' processes")
        defer { for pid in pids { kill(pid, SIGCONT) } }
        let script = """
          import json, os, signal, sys, threading, time, urllib.request, urllib.error
          base, pids = sys.argv[1], [int(p) for p in sys.argv[2:]]
          def call(path, body=None):
              request = urllib.request.Request(base + path,
                  data=None if body is None else json.dumps(body).encode())
              request.add_header("Content-Type", "application/json")
              try:
                  with urllib.request.urlopen(request, timeout=30) as response:
                      return response.status
              except urllib.error.HTTPError as error:
                  return error.code
          assert call("/api/classes?q=before") == 200
          for pid in pids: os.kill(pid, signal.SIGSTOP)
          writes = []
          def write(n):
              writes.append(call("/authenticate", {"email": f"w{n}@example.com", "password": "x"}))
          threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
          for thread in threads: thread.start()
          for thread in threads: thread.join()
          for pid in pids: os.kill(pid, signal.SIGCONT)
          print(json.dumps({"writes": writes, "read": call("/api/classes?q=after")}))
          """
        let output = try ChildProcess.run(
          ["python3", "-c", script, front] + pids.map(String.init), searchPath: true)
        let result = try #require(
          try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect((result["writes"] as? [Int])?.allSatisfy { $0 >= 500 } == true, "\(output)")
        #expect(result["read"] as? Int == 200, "\(output)")
      }
    }

    /// Ctrl-C twice (or `timeout` passing a TERM on): the second signal comes while the cluster
    /// stops what it started, and must not cut that short — PostgreSQL stopped, the folder gone.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing))
    func aSecondSignalDoesNotLeavePostgreSQLRunning() async throws {
      let log = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-twice-\(UUID().uuidString).err")
      defer { try? FileManager.default.removeItem(at: log) }
      let cluster = try ChildProcess.spawn(
        [try #require(Self.cluster), "--server", Self.serverBinary, "--instances", "1"],
        standardOutput: .pipe, standardError: .file(log.path))
      var ended = false
      defer {
        // Stopped whatever the test found (a failed expectation must not leave it running).
        if !ended {
          cluster.send(SIGTERM)
          _ = cluster.waitBlocking()
        }
      }
      _ = try #require(await cluster.firstLine(timeout: .seconds(60)))
      // The summary (`… (folder /tmp/myworkout-cluster.XXXXXX)`) follows the first line.
      let folder = try await eventually(within: .seconds(10)) { () -> String? in
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard let tail = said.split(separator: "(folder ").dropFirst().last, tail.contains(")")
        else { return nil }
        return String(tail.prefix { $0 != ")" })
      }
      let place = try #require(folder, "the cluster's folder in its summary")
      #expect(FileManager.default.fileExists(atPath: place + "/pg/PG_VERSION"))
      let instance = try #require(try Self.instancePID(number: 1, log: log))
      cluster.send(SIGTERM)
      // Into the cleanup: the instance is stopped and reaped first, PostgreSQL last.
      let stopping = ContinuousClock.now + .seconds(10)
      while kill(instance, 0) == 0, ContinuousClock.now < stopping { await Task.yield() }
      cluster.send(SIGTERM)
      _ = cluster.waitBlocking()
      ended = true
      #expect(!FileManager.default.fileExists(atPath: place), "the folder is removed")
      let postgres = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { entry in
        guard Int32(entry) != nil,
          let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { return false }
        return String(decoding: data, as: UTF8.self).contains(place + "/pg")
      }
      #expect(postgres.isEmpty, "PostgreSQL stopped: \(postgres)")
    }

    /// An instance that ended is not signalled when the cluster stops: bash reaped it, and its
    /// pid may name another program by then (pids wrap at 32,768 here). The cluster's clean-up
    /// sent TERM to every pid it had started, and so ended a clean-up shell of another test in
    /// CI. Here the dead instance's pid is handed to a stranger before the cluster stops.
    @Test(
      .enabled(if: Self.cluster != nil, Self.clusterMissing),
      .enabled(
        if: PIDReuse.isPossible, "choosing a pid needs /proc/sys/kernel/ns_last_pid writable (root)"
      ))
    func theClusterSignalsNoProcessAfterItsOwnEnded() async throws {
      let log = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-stranger-\(UUID().uuidString).err")
      defer { try? FileManager.default.removeItem(at: log) }
      let cluster = try ChildProcess.spawn(
        [try #require(Self.cluster), "--server", Self.serverBinary],
        standardOutput: .pipe, standardError: .file(log.path))
      defer {
        cluster.send(SIGTERM)
        _ = cluster.waitBlocking()
      }
      _ = try #require(await cluster.firstLine(timeout: .seconds(60)))
      // The summary naming the instances follows the first line.
      let first = try #require(
        try await eventually(within: .seconds(10)) { try? Self.instancePID(number: 1, log: log) },
        "instance 1's process in the summary")
      kill(first, SIGKILL)
      let reaped = try await eventually(within: .seconds(10)) {
        (try? String(contentsOf: log, encoding: .utf8))?.contains("instance 1 stopped") == true
          ? true : nil
      }
      try #require(reaped == true, "the cluster reaped it")
      let stranger = try #require(
        try PIDReuse.spawn(["/bin/sleep", "60"], as: first), "a process under the freed pid")
      cluster.send(SIGTERM)
      #expect(cluster.waitBlocking() == .exited(143))
      // The first fatal signal to arrive is the one the stranger dies of.
      stranger.send(SIGKILL)
      #expect(stranger.waitBlocking() == .signaled(SIGKILL), "the stranger got only its own signal")
    }

    /// Runs `body` with the front URL of a `scripts/cluster` started for it (`options` after
    /// its own) and the file its standard error goes to; the cluster is stopped after.
    static func withCluster(
      _ options: [String] = [], _ body: (_ front: String, _ log: URL) async throws -> Void
    ) async throws {
      let log = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-cluster-\(UUID().uuidString).err")
      defer { try? FileManager.default.removeItem(at: log) }
      let cluster = try ChildProcess.spawn(
        [try #require(Self.cluster), "--server", Self.serverBinary] + options,
        standardOutput: .pipe, standardError: .file(log.path))
      defer {
        cluster.send(SIGTERM)
        _ = cluster.waitBlocking()
      }
      try await body(try #require(await cluster.firstLine(timeout: .seconds(60))), log)
    }

    /// The process id of instance `number` of scripts/cluster, from the cluster's standard
    /// error (`instance 1: http://127.0.0.1:PORT (process PID)`).
    static func instancePID(number: Int, log: URL) throws -> pid_t? {
      let text = try String(contentsOf: log, encoding: .utf8)
      guard
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("instance \(number): ") }
        ),
        let process = line.split(separator: "(process ").last,
        let pid = pid_t(process.dropLast())
      else { return nil }
      return pid
    }

    /// Log in, search, watch and resume, a lesson, then a relaunch offline, against the server
    /// (or the load balancer) that `command` starts and whose first line is its URL.
    private func session(against command: [String]) async throws {
      let server = try ChildProcess.spawn(command, standardOutput: .pipe)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let url = try #require(await server.firstLine(timeout: .seconds(30)))
      #expect(url.hasPrefix("http://127.0.0.1:"))

      let app = try TerminalSession()
      try app.launch(["--server", url, "--speed", "10"], width: 100, height: 30)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("c")
      try app.waitFor("351 classes")
      try app.type("anne")
      let screen = try app.waitUntil("the three matches from the server") {
        $0.contains("3 of 351 classes match \"anne\"") && $0.contains("Suzanne Ratke")
      }
      #expect(!screen.contains("Adolph Moen"))
      // Watch: the first match plays and pauses; the server keeps where it stopped, and the
      // next open resumes there (read back from the server).
      try app.press("Enter")
      try app.waitFor("❚❚ Paused")
      try app.press("Space")
      try app.waitUntil(timeout: 20, "20 s played") { (PlayerTests.elapsed($0) ?? 0) >= 20 }
      try app.press("Space")
      let paused = try app.waitFor("❚❚ Paused")
      let stopped = try #require(PlayerTests.elapsed(paused))
      try app.press("Escape")
      try app.waitFor("3 of 351 classes match")
      try app.press("Enter")
      let resumed = try app.waitFor("Resume at")
      #expect(PlayerTests.elapsed(resumed) == stopped, "\(resumed)")
      try app.press("Escape")
      try app.waitFor("3 of 351 classes match")
      try app.press("Escape")
      try app.waitFor("351 classes")
      try app.press("Escape")
      try app.waitFor("Edit number")
      // The lessons come from the server too (its --lessons file, Mimo's shape).
      try app.type("n")
      let lesson = try app.waitFor("Lesson 1 of 3")
      #expect(lesson.contains("Hello World!"))
      try app.press("Escape")
      try app.waitFor("Edit number")
      // The session was kept with the server's keys: a relaunch opens Profile offline.
      try app.press("C-c")
      _ = try app.waitForExit()
      server.send(SIGTERM)
      _ = server.waitBlocking()
      try app.launch(["--server", url], width: 100, height: 30)
      try app.waitFor("Edit number")
    }

    /// SPEC §16 and §19, 0 wake-ups while paused, in remote mode: the requests, the outbox's
    /// sending and its waits run on the app's own threads, none on Dispatch's pool (whose
    /// first job starts a timer that wakes the app every second from then on). Before, every
    /// step below left the pool's threads behind.
    @Test func aRemoteSessionsWorkRunsOnNoThreadOfDispatchsPool() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let server = try ChildProcess.spawn(
        [Self.serverBinary, "--port", "0", "--data-dir", folder.path], standardOutput: .pipe)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let url = try #require(await server.firstLine(timeout: .seconds(30)))
      let app = try TerminalSession()
      try app.launch(["--server", url, "--mute"], width: 100, height: 30)
      try app.waitFor("Myworkout GO")
      let pid = try #require(try app.childPID())
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      #expect(VideoTests.poolThreads(of: pid) == [], "after the email's check")
      try app.logIn()
      try app.waitFor("Edit number")
      #expect(VideoTests.poolThreads(of: pid) == [], "after the login")
      try app.press("c")
      // The list itself, not `Loading classes…` (a Down pressed then moves nothing: CI saw the
      // Enter after it land on Search).
      try app.waitUntil("the class list") {
        $0.contains(" classes") && !$0.contains("Loading classes")
      }
      #expect(VideoTests.poolThreads(of: pid) == [], "after the class list")
      try app.press("Down", "Enter")
      try app.waitFor("❚❚ Paused")
      try app.press("Space")
      // Past 00:05: a save went through the outbox.
      _ = try app.waitUntil(timeout: 20, "playing past 00:05") {
        (PlayerTests.elapsed($0) ?? 0) >= 6
      }
      try app.press("Space")
      try app.waitFor("❚❚ Paused")
      #expect(VideoTests.poolThreads(of: pid) == [], "after playing, saving and pausing")
    }

    /// A kept session the server no longer takes (it started over with other data, so other
    /// keys): the first read answered 401 ends the session (SPEC §4), where a walk-through saw
    /// its classes at 0 % and the Player at 00:00 until a save was refused.
    @Test func aSessionTheServerNoLongerTakesIsSaidAtTheFirstRead() async throws {
      let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: root) }
      func start(_ data: String, port: String) async throws -> (ChildProcess, String) {
        let server = try ChildProcess.spawn(
          [
            Self.serverBinary, "--port", port, "--data-dir", root.appendingPathComponent(data).path,
          ],
          standardOutput: .pipe)
        let url = try #require(await server.firstLine(timeout: .seconds(30)))
        return (server, url)
      }
      var (server, url) = try await start("first", port: "0")
      let app = try TerminalSession()
      try app.launch(["--server", url, "--mute"], width: 100, height: 30)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.waitFor("Edit number")
      try app.press("C-c")
      _ = try app.waitForExit()
      server.send(SIGTERM)
      _ = server.waitBlocking()
      // The same address, started over with other data (and so other keys).
      let port = String(url.split(separator: ":").last ?? "0")
      (server, url) = try await start("second", port: port)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      try app.launch(["--server", url, "--mute"], width: 100, height: 30)
      // The kept session opens Profile offline (the kept keys verify it); the first read asks.
      try app.waitFor("Edit number")
      try app.press("c")
      try app.waitFor("Your session has expired. Please log in again.")
    }

    @Test func serverOptionsAndPlainHTTPToAnotherHostAreRefused() throws {
      let app = try TerminalSession()
      try app.launchInShell(
        "--server http://127.0.0.1:9 --catalog x.csv", width: 200, waitingFor: "$APP")
      var (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      #expect(screen.contains("--catalog is a server option"), "\(screen)")
      // The embedded services' own settings: the server's tokens and answers decide (both were
      // taken and had no effect).
      try app.launchInShell(
        "--server http://127.0.0.1:9 --session-lifetime 30s", width: 200, waitingFor: "$APP")
      (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      #expect(
        screen.contains("--session-lifetime is a server option")
          && screen.contains("myworkout-server --token-lifetime"), "\(screen)")
      try app.launchInShell(
        "--server http://127.0.0.1:9 --latency 0s", width: 200, waitingFor: "$APP")
      (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      #expect(screen.contains("--latency is the embedded services' delay"), "\(screen)")
      try app.launchInShell(
        "--auth0-domain example.auth0.com --auth0-client-id abc --session-lifetime 30s",
        width: 200, waitingFor: "$APP")
      (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      #expect(screen.contains("the Auth0 tenant decides"), "\(screen)")
      try app.launchInShell("--server http://192.0.2.1:8080", width: 200, waitingFor: "$APP")
      (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      #expect(screen.contains("plain http:// to 192.0.2.1"), "\(screen)")
    }

    /// The server's duration reads as the app's: `-5s` is a value refused as a duration, and a
    /// lifetime past the longest says so.
    @Test(arguments: ["-5s", "100000d"])
    func aBadTokenLifetimeSaysWhy(value: String) async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let errors = folder.appendingPathComponent("stderr").path
      let server = try ChildProcess.spawn(
        [Self.serverBinary, "--data-dir", folder.path, "--token-lifetime", value],
        standardError: .file(errors))
      #expect(await server.wait() == .exited(64))
      let said = try String(contentsOfFile: errors, encoding: .utf8)
      #expect(said.contains("'\(value)' is not a duration from 1s to 36500d"), "\(said)")
    }

    /// A notice said while the server runs reaches a pipe at once, not when the server ends: a
    /// walk-through's missing `--catalog` (clients got the shipped classes) was said only at
    /// SIGTERM, with the server's output redirected to a log.
    @Test func aNoticeWhileRunningReachesAPipeAtOnce() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let missing = folder.appendingPathComponent("clases.csv").path
      let server = try ChildProcess.spawn(
        [Self.serverBinary, "--port", "0", "--data-dir", folder.path, "--catalog", missing],
        standardOutput: .pipe)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let url = try #require(await server.firstLine(timeout: .seconds(30)))
      let port = try #require(url.split(separator: ":").last.flatMap { UInt16($0) })
      let answer = try Self.get("/api/classes?limit=0", port: port)
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
      let notice = await server.firstLine(timeout: .seconds(30))
      #expect(
        notice
          == "notice: Cannot read \(missing): No such file or directory; showing the shipped "
          + "classes instead")
    }

    /// A plain HTTP/1.1 GET to 127.0.0.1 on `port`: the whole answer as text.
    static func get(_ path: String, port: UInt16) throws -> String {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard fd >= 0 else { throw POSIXError(.EIO) }
      defer { close(fd) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
      let request = Array(
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
      guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count
      else { throw POSIXError(.EIO) }
      var answer: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { break }
        answer += buffer[0..<count]
      }
      return String(decoding: answer, as: UTF8.self)
    }

    /// A `--lessons` file the server cannot serve is said at the start, after the URL (which
    /// stays the first line, SPEC §15).
    @Test func aLessonFileTheServerCannotServeIsSaidAfterItsURL() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-server-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let missing = folder.appendingPathComponent("lesons.json").path
      let server = try ChildProcess.spawn(
        [Self.serverBinary, "--port", "0", "--data-dir", folder.path, "--lessons", missing],
        standardOutput: .pipe)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let url = try #require(await server.firstLine(timeout: .seconds(30)))
      #expect(url.hasPrefix("http://127.0.0.1:"))
      let notice = await server.firstLine(timeout: .seconds(30))
      #expect(
        notice
          == "notice: Cannot read \(missing): No such file or directory; GET /api/lessons "
          + "answers 500 until it can be read")
    }
  }
}
