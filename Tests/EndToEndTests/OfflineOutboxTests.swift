import Foundation
import TestProcesses
import Testing

extension EndToEnd {
  /// SPEC §18 from the outside: the app in remote mode keeps every change through a server that
  /// is killed (-9), shows it, works offline across a relaunch, and the server ends with what
  /// was watched, each change counted once.
  @Suite(.timeLimit(.minutes(4)))
  struct OfflineOutboxTests {
    /// A `myworkout-server` on `port` (0: a free one) over `folder`; its URL.
    static func startServer(
      folder: URL, catalog: String, port: Int = 0, options: [String] = []
    ) async throws -> (ChildProcess, String) {
      let server = try ChildProcess.spawn(
        [
          RemoteTests.serverBinary, "--port", String(port), "--data-dir", folder.path,
          "--catalog", catalog, "--lessons", LessonsTests.sample,
        ] + options, standardOutput: .pipe)
      let url = try #require(await server.firstLine(timeout: .seconds(30)))
      return (server, url)
    }

    /// What `serverState` runs.
    static let stateScript = """
      import json, sys, urllib.request, urllib.parse
      base, title, email, password = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
      def call(path, body=None, token=None):
          request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode())
          request.add_header("Content-Type", "application/json")
          if token: request.add_header("Authorization", "Bearer " + token)
          return json.load(urllib.request.urlopen(request, timeout=10))
      tokens = call("/authenticate", {"email": email, "password": password})
      token = tokens.get("access_token") or tokens["id_token"]
      if title.startswith("id:"):
          class_id = title[3:]
      else:
          page = call("/api/classes?q=" + urllib.parse.quote(title) + "&offset=0&limit=5")
          class_id = [c for c in page["classes"] if c["title"] == title][0]["id"]
      progress = call("/api/progress/" + urllib.parse.quote(class_id), token=token)
      watched = sum(end - start for start, end in progress["watched"])
      events = call("/api/lessons/completions", token=token)["completions"]
      print(progress["last_position"], watched, progress["time_in_class"], len(events))
      """

    /// What the server holds for the sample account: the progress of the class titled
    /// `title` (or with the id after `id:`), and the lesson events, read over HTTP (Python's standard library) as
    /// `position watchedMilliseconds timeInClass events`.
    static func serverState(
      _ url: String, title: String, email: String = "registered@email.com",
      password: String = "password"
    ) throws -> [Int] {
      let output = try ChildProcess.run(
        ["python3", "-c", stateScript, url, title, email, password], searchPath: true)
      let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
      try #require(numbers.count == 4, "server state: \(output)")
      return numbers
    }

    /// `serverState`, or nil when it cannot be read (nothing stored yet, the server away).
    static func serverStateIfAny(_ url: String, title: String) -> [Int]? {
      let output = try? ChildProcess.run(
        ["python3", "-c", stateScript, url, title, "registered@email.com", "password"],
        searchPath: true)
      let numbers = output?.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
      return numbers?.count == 4 ? numbers : nil
    }

    /// Launches the app against `server` at 2× speed, logs in, (opens Lessons and comes back,)
    /// opens the first class and starts playing it.
    static func logInAndPlay(
      _ app: TerminalSession, server: String, openingLessonsFirst: Bool = false
    ) throws {
      try app.launch(["--server", server, "--speed", "2"], width: 100, height: 30)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      if openingLessonsFirst {
        try app.type("n")
        try app.waitFor("Lesson 1 of 3")
        try app.press("Escape")
        try app.waitFor("Edit number")
      }
      try app.press("c")
      try app.waitFor("2 classes")
      try app.press("Down", "Enter")
      try app.waitFor("Time in class")
      try app.press("Space")
    }

    /// What the Player showed when paused, in seconds.
    struct Watched {
      var position: Int
      var timeInClass: Int
    }

    /// Pauses the Player and reads what it shows.
    static func pause(
      _ app: TerminalSession, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Watched {
      try app.press("Space")
      let paused = try app.waitFor("❚❚ Paused")
      return Watched(
        position: try #require(PlayerTests.elapsed(paused), sourceLocation: sourceLocation),
        timeInClass: try #require(timeInClass(paused), sourceLocation: sourceLocation))
    }

    /// The server holds what the Player showed (`state` as `serverState` reads it): the
    /// position and the time watched within 1 s, the time in class within 1.5 s.
    static func expectServer(
      _ state: [Int], holds watched: Watched,
      sourceLocation: SourceLocation = #_sourceLocation
    ) {
      let (position, time) = (watched.position, watched.timeInClass)
      #expect(
        abs(state[0] - position * 1_000) <= 1_000, "position \(state) vs \(position) s",
        sourceLocation: sourceLocation)
      #expect(
        abs(state[1] - position * 1_000) <= 1_000, "watched \(state) vs \(position) s",
        sourceLocation: sourceLocation)
      #expect(
        abs(state[2] - time * 1_000) <= 1_500, "time in class \(state) vs \(time) s",
        sourceLocation: sourceLocation)
    }

    /// A screen showing `marker` whose header is clear: nothing waiting, nothing syncing.
    static func settled(_ screen: String, on marker: String) -> Bool {
      screen.contains(marker) && !screen.contains("waiting") && !screen.contains("syncing")
    }

    /// `Time in class mm:ss` on the Player, in seconds.
    static func timeInClass(_ screen: String) -> Int? {
      guard let range = screen.range(of: "Time in class ") else { return nil }
      let parts = screen[range.upperBound...].prefix(5).split(separator: ":").compactMap {
        Int($0)
      }
      return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    @Test(.enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func watchingThroughAServerKillAndARelaunchCountsEverythingOnce() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-outbox-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      var (server, url) = try await Self.startServer(folder: folder, catalog: catalog)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let port = try #require(Int(url.split(separator: ":").last ?? ""))

      // Lessons and the catalog are fetched once while the server answers.
      try Self.logInAndPlay(app, server: url, openingLessonsFirst: true)
      try app.waitUntil(timeout: 30, "10 s played") { (PlayerTests.elapsed($0) ?? 0) >= 10 }

      // The server dies mid-class; the Player plays on.
      server.send(SIGKILL)
      _ = server.waitBlocking()
      try app.waitUntil(timeout: 30, "30 s played") { (PlayerTests.elapsed($0) ?? 0) >= 30 }
      let watched = try Self.pause(app)
      try app.press("Escape")
      try app.waitUntil(timeout: 30, "the outbox waiting") { $0.contains("offline — ") }
      // A lesson finished offline.
      try app.press("Escape")
      try app.waitFor("Edit number")
      try app.type("n")
      try app.waitFor("Lesson 1 of 3")
      try app.press("Enter")
      try app.waitFor("Lesson 2 of 3")
      let waiting = try app.waitUntil(timeout: 30, "the lesson waiting too") {
        $0.contains("changes waiting")
      }
      #expect(!waiting.contains("syncing"))
      try app.press("C-c")
      _ = try app.waitForExit()

      // Relaunched with the server still away: Profile, the list and the Player as last seen,
      // the class resuming where it was left.
      try app.launch(["--server", url, "--speed", "2"], width: 100, height: 30)
      try app.waitFor("Edit number")
      try app.waitUntil(timeout: 30, "the outbox after the relaunch") {
        $0.contains("changes waiting")
      }
      // Logging out now asks first; staying keeps everything.
      try app.press("C-o")
      let question = try app.waitFor("changes have not reached the server yet. Log out")
      #expect(question.contains("▸[ Stay logged in ]"), "\(question)")
      try app.press("Escape")
      try app.waitUntil("the question closed") {
        $0.contains("Edit number") && !$0.contains("have not reached the server")
      }
      try app.press("c")
      try app.waitFor("showing classes saved on this device")
      try app.press("Down", "Enter")
      // Said, as the list's copy is: another device may have moved the class since.
      let resumed = try app.waitUntil("the class resumed from this device's copy, said so") {
        $0.contains("Resume at") && $0.contains("showing this class's progress as saved on")
      }
      #expect(PlayerTests.elapsed(resumed) == watched.position, "\(resumed)")
      try app.press("Escape")
      try app.waitFor("2 classes")

      // The server is back (same port, same data): the outbox drains and the header clears.
      (server, _) = try await Self.startServer(folder: folder, catalog: catalog, port: port)
      try app.press("Escape")
      try app.waitFor("Edit number")
      try app.press("c")  // a read that succeeds sends what waits at once
      try app.waitUntil(timeout: 90, "the outbox drained") { Self.settled($0, on: "2 classes") }
      let state = try Self.serverState(url, title: "Hundred A")
      // What was watched: 0 to the pause (100 s class: 1 s is 1 %).
      Self.expectServer(state, holds: watched)
      #expect(state[3] == 1, "the lesson event, once: \(state)")

      // A further relaunch sends nothing twice.
      try app.press("C-c")
      _ = try app.waitForExit()
      try app.launch(["--server", url], width: 100, height: 30)
      try app.waitFor("Edit number")
      try app.press("c")
      try app.waitFor("2 classes")
      try app.press("Escape")
      try app.waitFor("Edit number")
      #expect(try Self.serverState(url, title: "Hundred A") == state)
    }

    /// Issue 28's first defect, as the walk-through found it: A plays while the server is away,
    /// logs out (`y`), the server comes back and B logs in at once and plays. Nothing of A's
    /// reaches the server under B's token; A's changes wait for A, and go at A's next log-in.
    @Test func oneAccountsWaitingChangesNeverGoUnderAnother() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-two-accounts-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      var (server, url) = try await Self.startServer(folder: folder, catalog: catalog)
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let port = try #require(Int(url.split(separator: ":").last ?? ""))
      // B exists on the server.
      let signUp = """
        import json, sys, urllib.request
        body = json.dumps({"client_id": "e2e", "email": "b@example.com", "password": "Secret-123",
            "connection": "Username-Password-Authentication", "given_name": "Bea",
            "family_name": "Other", "user_metadata": {"gender": "female", "mobile": "0123456789"}})
        request = urllib.request.Request(sys.argv[1] + "/dbconnections/signup", data=body.encode(),
            headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        """
      _ = try ChildProcess.run(["python3", "-c", signUp, url], searchPath: true)

      // A plays; the server goes away mid-class; A plays on, then logs out answering `y`.
      try Self.logInAndPlay(app, server: url)
      try app.waitUntil(timeout: 30, "4 s played") { (PlayerTests.elapsed($0) ?? 0) >= 4 }
      server.send(SIGKILL)
      _ = server.waitBlocking()
      try app.waitUntil(timeout: 30, "14 s played") { (PlayerTests.elapsed($0) ?? 0) >= 14 }
      let watchedByA = try Self.pause(app)
      try app.press("Escape")
      try app.waitUntil(timeout: 30, "A's changes waiting") { $0.contains("offline — ") }
      try app.press("C-o")
      try app.waitFor("have not reached the server yet. Log out")
      try app.type("y")
      try app.waitFor("Myworkout GO")

      // The server is back; B logs in at once and plays a little.
      (server, _) = try await Self.startServer(folder: folder, catalog: catalog, port: port)
      try app.press("End", "C-u")  // Get started keeps the last email: cleared first
      try app.submitEmail("b@example.com", expecting: "Welcome back")
      try app.logIn(password: "Secret-123")
      try app.press("c")
      try app.waitFor("2 classes")
      try app.press("Down", "Enter")
      try app.waitFor("Time in class")
      try app.press("Space")
      try app.waitUntil(timeout: 30, "B played 4 s") { (PlayerTests.elapsed($0) ?? 0) >= 4 }
      let watchedByB = try Self.pause(app)
      try app.press("Escape")
      try app.waitUntil(timeout: 60, "B's changes sent") { Self.settled($0, on: "2 classes") }
      // B's class holds B's watching only: A's 14 s played and A's time in class would show
      // there if A's changes had gone under B's token.
      let b = try Self.serverState(
        url, title: "Hundred A", email: "b@example.com", password: "Secret-123")
      Self.expectServer(b, holds: watchedByB)
      let aWhileB = try Self.serverState(url, title: "Hundred A")
      #expect(aWhileB[2] < watchedByA.timeInClass * 1_000 - 2_000, "A's changes waited: \(aWhileB)")

      // A's next log-in sends A's changes, under A.
      try app.press("Escape")
      try app.waitFor("Edit number")
      try app.press("C-o")
      try app.waitFor("Myworkout GO")
      try app.press("End", "C-u")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("c")
      try app.waitUntil(timeout: 90, "A's outbox drained") { Self.settled($0, on: "2 classes") }
      Self.expectServer(try Self.serverState(url, title: "Hundred A"), holds: watchedByA)
      let bAfter = try Self.serverState(
        url, title: "Hundred A", email: "b@example.com", password: "Secret-123")
      #expect(bAfter == b, "B's progress untouched by A's log-in: \(bAfter)")
    }

    static var driveBinary: String {
      BuiltProduct.path("outbox-drive")
        ?? URL(fileURLWithPath: TerminalSession.binary).deletingLastPathComponent()
        .appendingPathComponent("outbox-drive").path
    }

    /// The outbox killed (-9) at random moments while it drains, 20 times, then left to finish:
    /// the server ends with every change once (time in class is a sum: one change sent twice
    /// or lost shows).
    @Test(.enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func killedAtRandomWhileDrainingNothingIsLostOrCountedTwice() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-drain-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let (server, url) = try await Self.startServer(
        folder: folder.appendingPathComponent("server"), catalog: ClassesTests.briefCatalog,
        // Each run of outbox-drive logs in: 22 log-ins in a minute from one address.
        options: ["--login-limit", "100"])
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let app = folder.appendingPathComponent("app").path
      let count = 300
      _ = try ChildProcess.run([Self.driveBinary, "queue", url, app, "k1", String(count)])
      var generator = KillMoments.seeded()
      for _ in 0..<20 {
        let drain = try ChildProcess.spawn([Self.driveBinary, "drain", url, app])
        // A random moment from the log-in to well into the sending (not a wait for
        // something: the moment of the kill is what the test varies).
        let wait = UInt32.random(in: 50_000...1_200_000, using: &generator)
        usleep(wait)
        drain.send(SIGKILL)
        _ = drain.waitBlocking()
      }
      let last = try ChildProcess.run([Self.driveBinary, "drain", url, app])
      #expect(last.hasPrefix("drained "), "\(last)")
      let state = try Self.serverState(url, title: "id:k1")
      #expect(state[0] == count * 1_000, "\(state)")
      #expect(state[1] == count * 1_000, "the union of every interval: \(state)")
      #expect(state[2] == count * 1_000, "time in class, each change once: \(state)")
      // And nothing is left to send.
      let again = try ChildProcess.run([Self.driveBinary, "drain", url, app])
      #expect(again.hasPrefix("drained 0 changes"), "\(again)")
    }

    /// The app itself killed (-9) at random moments while its outbox drains, 20 times: the
    /// server ends with every change exactly once.
    @Test(.enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
    func theAppKilledAtRandomWhileItsOutboxDrainsLosesAndRepeatsNothing() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-app-drain-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let (server, url) = try await Self.startServer(
        folder: folder.appendingPathComponent("server"), catalog: ClassesTests.briefCatalog,
        // Every read of the server's state below logs in.
        options: ["--login-limit", "1000"])
      defer {
        server.send(SIGTERM)
        _ = server.waitBlocking()
      }
      let app = try TerminalSession()
      // Logged in once (the session is kept for the relaunches).
      try app.launch(["--server", url], width: 100, height: 30)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("C-c")
      _ = try app.waitForExit()
      // 1,500 changes waiting in the app's outbox (the same file: same server and account): more
      // than 20 short runs send.
      let count = 1_500
      _ = try ChildProcess.run(
        [Self.driveBinary, "queue", url, app.dataDirectory.path, "k1", String(count)])
      var generator = KillMoments.seeded()
      for _ in 0..<20 {
        try app.launch(["--server", url], width: 100, height: 30)
        try app.waitFor("Edit number")  // the launch sends what waits
        // A random moment into the sending (the moment of the kill is what the test varies).
        usleep(UInt32.random(in: 0...600_000, using: &generator))
        let pid = try #require(try app.childPID())
        kill(pid, SIGKILL)
        _ = try app.waitForExit()
      }
      // Some sent by the killed runs (on this machine about 1,250 of the 1,500: every kill
      // landed while the outbox drained).
      let partial = try Self.serverState(url, title: "id:k1")[2]
      #expect(partial > 0, "the launches sent nothing")
      try app.launch(["--server", url], width: 100, height: 30)
      try app.waitFor("Edit number")
      // What the server holds, read until every change is there (or a deadline).
      let deadline = Date().addingTimeInterval(120)
      var state = try Self.serverState(url, title: "id:k1")
      while state[2] < count * 1_000, Date() < deadline {
        state = try Self.serverState(url, title: "id:k1")
      }
      #expect(state[0] == count * 1_000, "\(state)")
      #expect(state[1] == count * 1_000, "the union of every interval: \(state)")
      #expect(state[2] == count * 1_000, "time in class, each change once: \(state)")
      try app.waitUntil(timeout: 30, "the header clear") { Self.settled($0, on: "Edit number") }
    }

    /// A proxy in front of `upstream` that forwards every request and, for every other change
    /// (`POST` of progress or of a lesson completion), drops the server's answer after the
    /// server applied it: the connection closes with no answer. It prints its URL first and
    /// counts the dropped answers in `counter` (a file).
    static let answerDroppingProxy = """
      import socket, sys, threading
      upstream_port, counter = int(sys.argv[1]), sys.argv[2]
      changes = [0]
      lock = threading.Lock()
      def read_request(connection):
          data = b""
          while b"\\r\\n\\r\\n" not in data:
              chunk = connection.recv(65536)
              if not chunk: return None
              data += chunk
          head, _, body = data.partition(b"\\r\\n\\r\\n")
          length = 0
          for line in head.split(b"\\r\\n")[1:]:
              name, _, value = line.partition(b":")
              if name.strip().lower() == b"content-length": length = int(value.strip())
          while len(body) < length:
              chunk = connection.recv(65536)
              if not chunk: break
              body += chunk
          return head, body
      def serve(client):
          with client:
              request = read_request(client)
              if request is None: return
              head, body = request
              lines = [line for line in head.split(b"\\r\\n") if not line.lower().startswith(b"connection:")]
              method, path = lines[0].split(b" ")[:2]
              change = method == b"POST" and (path.startswith(b"/api/progress/") and path != b"/api/progress/percents" or path == b"/api/lessons/completions")
              with socket.create_connection(("127.0.0.1", upstream_port)) as server:
                  server.sendall(b"\\r\\n".join(lines + [b"Connection: close"]) + b"\\r\\n\\r\\n" + body)
                  answer = b""
                  while True:
                      chunk = server.recv(65536)
                      if not chunk: break
                      answer += chunk
              if change:
                  with lock:
                      changes[0] += 1
                      drop = changes[0] % 2 == 1
                      if drop:
                          dropped = (changes[0] + 1) // 2
                          open(counter, "w").write(str(dropped))
                  if drop: return
              # One answer per connection, and said so: a client must not send its next
              # request on this connection while it closes.
              answer_head, _, answer_body = answer.partition(b"\\r\\n\\r\\n")
              answer_lines = [line for line in answer_head.split(b"\\r\\n") if not line.lower().startswith(b"connection:")]
              client.sendall(b"\\r\\n".join(answer_lines + [b"Connection: close"]) + b"\\r\\n\\r\\n" + answer_body)
      listener = socket.socket()
      listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
      listener.bind(("127.0.0.1", 0))
      listener.listen(64)
      print("http://127.0.0.1:%d" % listener.getsockname()[1], flush=True)
      while True:
          client, _ = listener.accept()
          threading.Thread(target=serve, args=(client,), daemon=True).start()
      """

    /// Every other change's answer is lost after the server applied it: each is sent again
    /// under its key, and time in class is counted once.
    /// A log-out from the Player sends the Player's closing save at once (a walk-through found
    /// it waiting in the outbox until the account's next log-in, with the server up). With the
    /// server just gone (the app has not noticed: nothing to ask about), Get started says the
    /// change is kept for that log-in.
    @Test func aLogOutFromThePlayerSendsItsClosingSave() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-log-out-save-e2e-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      let (server, url) = try await Self.startServer(folder: folder, catalog: catalog)
      var killed = false
      defer {
        if !killed {
          server.send(SIGTERM)
          _ = server.waitBlocking()
        }
      }
      try Self.logInAndPlay(app, server: url)
      // Before the Player's first save while playing (4 s of wall time: 8 s at 2×).
      let playing = try app.waitUntil(timeout: 30, "3 s played") {
        (PlayerTests.elapsed($0) ?? 0) >= 3
      }
      let shown = try #require(PlayerTests.elapsed(playing))
      try app.press("C-o")
      try app.waitFor("Myworkout GO")
      let deadline = Date().addingTimeInterval(20)
      var state: [Int] = []
      while Date() < deadline {
        state = Self.serverStateIfAny(url, title: "Hundred A") ?? []
        if state.count == 4, state[1] >= shown * 1_000 { break }
        try await Task.sleep(for: .milliseconds(200))
      }
      #expect(
        state.count == 4 && state[1] >= shown * 1_000,
        "the server holds the \(shown) s shown before the log-out: \(state)")

      // Again, the server killed just before the log-out.
      try app.press("End", "C-u")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("c")
      try app.waitFor("2 classes")
      try app.press("Down", "Enter")
      try app.waitFor("Time in class")
      try app.press("Space")
      try app.waitUntil(timeout: 30, "1 s played") { (PlayerTests.elapsed($0) ?? 0) >= 1 }
      server.send(SIGKILL)
      _ = server.waitBlocking()
      killed = true
      try app.press("C-o")
      try app.waitFor("1 change could not be sent before the session ended", timeout: 30)
      try app.waitFor("registered@email.com")
    }

    @Test func answersLostAfterTheServerAppliedAChangeCountItOnce() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("myworkout-lost-answers-e2e-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      let (server, url) = try await Self.startServer(
        folder: folder.appendingPathComponent("server"), catalog: catalog)
      let counter = folder.appendingPathComponent("dropped").path
      let proxy = try ChildProcess.spawn(
        [
          "python3", "-c", Self.answerDroppingProxy,
          String(try #require(Int(url.split(separator: ":").last ?? ""))), counter,
        ], searchPath: true, standardOutput: .pipe)
      defer {
        for process in [proxy, server] {
          process.send(SIGTERM)
          _ = process.waitBlocking()
        }
      }
      let front = try #require(await proxy.firstLine(timeout: .seconds(30)))

      try Self.logInAndPlay(app, server: front)
      try app.waitUntil(timeout: 60, "24 s played") { (PlayerTests.elapsed($0) ?? 0) >= 24 }
      let watched = try Self.pause(app)
      try app.press("Escape")
      try app.waitUntil(timeout: 60, "everything sent") { Self.settled($0, on: "2 classes") }
      let dropped =
        Int(
          (try? String(contentsOfFile: counter, encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
      #expect(dropped >= 2, "answers dropped: \(dropped)")
      let state = try Self.serverState(url, title: "Hundred A")
      Self.expectServer(state, holds: watched)
    }
  }
}

/// The random moments of the kill tests, seeded: the seed is printed at the start of each
/// test; `MYWORKOUT_KILL_SEED=N` replays its moments.
enum KillMoments {
  static func seeded() -> SplitMix64 {
    let seed =
      ProcessInfo.processInfo.environment["MYWORKOUT_KILL_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
    print("kill moments: MYWORKOUT_KILL_SEED=\(seed)")
    return SplitMix64(seed: seed)
  }
}
