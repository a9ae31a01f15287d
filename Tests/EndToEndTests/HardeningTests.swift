import Foundation
import MyworkoutCore
import MyworkoutServices
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEnd {
  /// Issue 9: what a hostile terminal, a crash, a kill or an odd command line used to break.
  @Suite(.timeLimit(.minutes(2)))
  struct HardeningTests {
    // MARK: 1. SIGQUIT and crashes

    @Test func ctrlBackslashQuitsWith131AndRestores() throws {
      let app = try TerminalSession()
      try app.launchInShell(waitingFor: "Myworkout GO")
      try app.send(bytes: [0x1C])  // Ctrl-\
      let screen = try app.waitFor("modes-restored")
      #expect(screen.contains("status=131"))
      #expect(try app.terminalLooksRestored())
      #expect(!screen.contains("crashed"), "nothing drawn over the screen")
      #expect(!screen.contains("Backtrace"))
    }

    @Test(arguments: [SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGTRAP, SIGFPE])
    func aCrashRestoresTheTerminalAndKeepsAReport(signal: Int32) throws {
      let app = try TerminalSession()
      try app.launchInShell(width: 200, waitingFor: "Myworkout GO")
      try app.type("half typed")
      try app.waitFor("[half typed")
      let pid = try #require(try app.childPID())
      kill(pid, signal)
      let screen = try app.waitFor("modes-restored")
      #expect(screen.contains("status=\(128 + signal)"), "the signal's own exit status")
      #expect(try app.terminalLooksRestored())
      #expect(!screen.contains("Myworkout GO"), "the app's screen is gone")
      #expect(!screen.contains("Program crashed"), "no runtime crash report on the screen")

      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let reports = names.filter { $0.hasPrefix("crash-") && $0.hasSuffix(".log") }
      let report = try #require(reports.first, "a crash report in \(names)")
      #expect(reports.count == 1)
      let lines = screen.split(separator: "\n").filter { $0.contains("crash-") }
      #expect(lines.count == 1, "one line names the report: \(screen)")
      #expect(lines.first?.contains(app.dataDirectory.appendingPathComponent(report).path) == true)
      let text = try String(
        contentsOf: app.dataDirectory.appendingPathComponent(report), encoding: .utf8)
      #expect(text.contains("signal \(signal)"))
      #expect(text.contains("backtrace"))
    }

    @Test func keysTypedJustBeforeCtrlZStayInTheApp() throws {
      let app = try TerminalSession()
      try app.launchInShell(waitingFor: "Myworkout GO")
      try app.send(bytes: Array("kept".utf8) + [0x1A])  // in one write, then Ctrl-Z
      try app.waitFor("Stopped")
      try app.type("fg")
      try app.press("Enter")
      try app.waitFor("[kept ")
    }

    // MARK: 2. Home, End and Alt+letter

    static let homeKeys: [[UInt8]] = [
      [0x1B, 0x5B, 0x31, 0x7E], [0x1B, 0x5B, 0x37, 0x7E], [0x1B, 0x5B, 0x48], [0x1B, 0x4F, 0x48],
    ]
    static let endKeys: [[UInt8]] = [
      [0x1B, 0x5B, 0x34, 0x7E], [0x1B, 0x5B, 0x38, 0x7E], [0x1B, 0x5B, 0x46], [0x1B, 0x4F, 0x46],
    ]

    /// The app launched as `term`, with `text` typed in Get started's email field.
    static func typing(_ text: String, term: String) throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launch(environment: ["TERM": term])
      try app.waitFor("Myworkout GO")
      try app.type(text)
      try app.waitFor("[\(text) ")
      return app
    }

    @Test(arguments: ["xterm-256color", "xterm"])
    func homeAndEndWorkInEveryForm(term: String) throws {
      let app = try Self.typing("mid", term: term)
      for (count, (home, end)) in zip(Self.homeKeys, Self.endKeys).enumerated() {
        try app.send(bytes: home)
        try app.type("<")
        try app.send(bytes: end)
        try app.type(">")
        let shown =
          String(repeating: "<", count: count + 1) + "mid"
          + String(repeating: ">", count: count + 1)
        let screen = try app.waitFor("[\(shown) ")
        #expect(!screen.contains("~"), "no junk typed")
      }
    }

    /// Arrows as terminals that ignore keypad-transmit mode send them (`ESC [ D`, not `ESC O D`)
    /// and F1 as rxvt and the Linux console send it (`ESC [ 11 ~`, `ESC [ [ A`) act as the keys,
    /// as Home and End already did in every form (a walk-through's finding: they did nothing).
    @Test(arguments: ["xterm-256color", "xterm"])
    func arrowsAndF1WorkInTheirOtherForms(term: String) throws {
      let app = try Self.typing("abcd", term: term)
      try app.send(bytes: [0x1B, 0x5B, 0x44, 0x1B, 0x5B, 0x44])  // ← ←
      try app.type("X")
      try app.waitFor("[abXcd ")
      try app.send(bytes: [0x1B, 0x5B, 0x43])  // →
      try app.type("Y")
      try app.waitFor("[abXcYd ")
      for f1: [UInt8] in [[0x1B, 0x5B, 0x31, 0x31, 0x7E], [0x1B, 0x5B, 0x5B, 0x41]] {
        try app.send(bytes: f1)
        try app.waitFor("┌─ Keys")
        try app.press("Escape")
        try app.waitUntil("the panel closed") { !$0.contains("┌─ Keys") }
      }
      try app.send(bytes: [0x1B, 0x5B, 0x42])  // ↓
      try app.waitFor("▸[ Next ]")
    }

    @Test func altLetterIsNeitherEscNorTheLetter() throws {
      let app = try TerminalSession()
      try app.launch(environment: ["TERM": "xterm-256color"])
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.send(bytes: [0x1B, 0x61])  // Alt+a
      try app.type("b")
      try app.press("C-r")
      let screen = try app.waitFor("[b ")
      #expect(screen.contains("Welcome back"), "Alt+a did not act as Esc")
    }

    /// A byte that is not UTF-8 (Latin-1 text, line noise) is dropped alone: the keys after it
    /// in the same read are still keys. ncurses' `get_wch` took up to 16 bytes after one into its
    /// multibyte buffer and lost them, and a Ctrl-C among them; the bytes it held back waited for
    /// the next key (the random-bytes test's Ctrl-C was lost on the Images screen in CI).
    @Test func aByteThatIsNotUTF8LosesNoKeyAfterIt() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      // A stray continuation byte, a lead byte cut by ASCII, a byte UTF-8 never uses, and a
      // character cut by Ctrl-C's neighbour: only the good characters are typed.
      try app.send(bytes: Array("ab".utf8) + [0xFF] + Array("cd".utf8) + [0x80, 0x65, 0xC3, 0x66])
      try app.send(bytes: [0xE4, 0xB8] + Array("g中h".utf8))
      try app.waitFor("[abcdefg中h ")
      try app.send(bytes: Array("x".utf8) + [0xFF, 0x03])
      #expect(try app.waitForExit() == 130, "Ctrl-C right after a bad byte quits")
    }

    // MARK: 3. Exact session lifetime

    @Test func aShortSessionExpiresOnTimeAndCannotSaveAfterwards() throws {
      let app = try TerminalSession()
      try app.launch(["--session-lifetime", "3s"])
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      let shown = Date()
      try app.waitFor(Message.sessionExpired, timeout: 6)
      // The token is issued just before Profile shows; `exp` counts whole seconds from then.
      let after = Date().timeIntervalSince(shown)
      #expect(after < 3 + 1, "expired \(after) s after login")
      #expect(after > 3 - 1.5, "expired \(after) s after login")

      let accounts = app.dataDirectory.appendingPathComponent("accounts.json")
      let before = try Data(contentsOf: accounts)
      // `e` does nothing now: Enter then acts on the expiry message (back to Get started), not
      // on an Edit number dialog.
      try app.press("e", "Enter")
      try app.waitFor("Myworkout GO")
      #expect(try Data(contentsOf: accounts) == before, "nothing saved")
      let session = app.dataDirectory.appendingPathComponent("session.json")
      #expect(!FileManager.default.fileExists(atPath: session.path), "no fresh token written")
    }

    @Test func aRelaunchJustAfterExpiryShowsTheExpiryMessage() throws {
      let app = try TerminalSession()
      _ = try saveSession(
        in: app, profile: SessionTests.profile, issuedAt: Date().addingTimeInterval(-3.5),
        lifetime: .seconds(3))
      try app.launch()
      let screen = try app.waitFor(Message.sessionExpired)
      #expect(!screen.contains("Log out"))
    }

    // MARK: 4. A terminal without cursor addressing

    @Test func aDumbTerminalIsRefusedInOneLine() throws {
      let app = try TerminalSession()
      try app.launchInShell(width: 200, environment: ["TERM": "dumb"], waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status == 1)
      let lines = screen.split(separator: "\n").filter { $0.contains("dumb") }
      #expect(lines.count == 1, "one line: \(screen)")
      #expect(lines.first?.contains("TERM='dumb'") == true)
      #expect(!FileManager.default.fileExists(atPath: app.dataDirectory.path))
    }

    // MARK: 6. A kill between the registry write and the session write

    @Test func aRelaunchShowsWhatTheRegistryHolds() throws {
      let app = try TerminalSession()
      let directory = try saveSession(
        in: app, profile: SessionTests.profile, issuedAt: Date(), lifetime: .seconds(3600))
      try AccountsStore(directory: directory).update { registry in
        if let index = registry.index(of: "registered@email.com") {
          registry.accounts[index].profile.mobile = "+601112345678"
        }
      }
      try app.launch()
      let screen = try app.waitFor("Log out")
      #expect(screen.contains("+60 11-1234 5678"), "the registry's number")
      #expect(!screen.contains("+60 12-345 6789"), "not the session's old copy")
    }

    // MARK: 7. Refuse before creating anything

    @Test func anEmptyDataDirIsRefused() throws {
      let app = try TerminalSession()
      try app.launchInShell("--data-dir ''", width: 200, waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status != 0)
      #expect(screen.contains("--data-dir needs a path"))
      #expect(!FileManager.default.fileExists(atPath: app.dataDirectory.path))
    }

    @Test(arguments: ["< /dev/null", "> out.txt"])
    func withoutATerminalNothingIsCreated(redirection: String) throws {
      let app = try TerminalSession()
      try app.launchInShell(redirection, waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status == 1)
      #expect(screen.contains("interactive terminal"))
      #expect(!FileManager.default.fileExists(atPath: app.dataDirectory.path))
    }

    // MARK: 8. --reset keeps a damaged registry

    @Test func resetMovesADamagedRegistryAside() throws {
      let app = try TerminalSession()
      try FileManager.default.createDirectory(
        at: app.dataDirectory, withIntermediateDirectories: true)
      let damaged = Data("{\"version\":1,\"acc".utf8)
      try damaged.write(to: app.dataDirectory.appendingPathComponent("accounts.json"))
      try app.launchInShell("--reset", width: 160, waitingFor: "Reset? [y/N]")
      try app.type("y")
      try app.press("Enter")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status == 0)
      #expect(screen.contains("moved it aside to accounts.json.corrupt-"))
      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let aside = try #require(names.first { $0.hasPrefix("accounts.json.corrupt-") })
      #expect(try Data(contentsOf: app.dataDirectory.appendingPathComponent(aside)) == damaged)
    }

    // MARK: 9. Command-line details

    @Test(arguments: ["--session-lifetime -5s", "--session-lifetime=-5s", "--session-lifetime 5"])
    func badLifetimesAreNotDurations(arguments: String) throws {
      let app = try TerminalSession()
      try app.launchInShell(arguments, width: 200, waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status != 0)
      #expect(screen.contains("is not a duration"))
      #expect(!screen.contains("Missing value"))
    }

    /// A walk-through's bad values, each with the reason it is refused: a negative latency is a
    /// value, not a missing one; a lifetime past the longest says so; the speed's reason names
    /// the option once (ArgumentParser names it before).
    @Test(arguments: [
      ("--latency -1s", "'-1s' is not a duration; use a number with ms, s, m, h or d"),
      ("--latency=-1s", "'-1s' is not a duration; use a number with ms, s, m, h or d"),
      ("--session-lifetime 100000d", "'100000d' is not a duration from 1s to 36500d"),
      ("--speed 0.1", "invalid for '--speed <N>': '0.1' is not a speed from 0.25 to 100"),
    ])
    func badValuesSayWhy(arguments: String, reason: String) throws {
      let app = try TerminalSession()
      try app.launchInShell(arguments, width: 240, waitingFor: "$APP")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status == 64)
      let joined = screen.split(separator: "\n").joined()
      #expect(joined.contains(reason), "\(screen)")
      #expect(!screen.contains("Missing value"))
    }

    @Test func helpShowsVersionInTheUsageLine() throws {
      let app = try TerminalSession()
      // The help scrolls the typed command line away: wait for the help itself.
      // Tall enough for the whole help (remote mode added its options).
      try app.launchInShell("--help", width: 240, height: 60, waitingFor: "USAGE:")
      let (status, screen) = try app.waitForShellStatus()
      #expect(status == 0)
      // The usage paragraph, however the terminal wrapped it: from `USAGE:` to the blank line.
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      let start = lines.firstIndex { $0.contains("USAGE:") } ?? lines.endIndex
      let usage = lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .joined()
      #expect(usage.contains("[--version]"), "\(usage)")
      #expect(usage.contains("[--help]"), "\(usage)")
    }

    /// Writes a session for `profile` signed with the data directory's own key.
    @discardableResult
    func saveSession(
      in app: TerminalSession, profile: Profile, issuedAt: Date, lifetime: Duration
    ) throws -> DataDirectory {
      let directory = try DataDirectory.prepare(path: app.dataDirectory.path)
      let signer = TokenSigner(key: try SigningKey.load(in: directory, now: Date()).key)
      let token = signer.sign(
        profile, accountID: "auth0|test", issuedAt: issuedAt, lifetime: lifetime)
      try SessionStore(directory: directory, signer: signer).save(
        Session(token: token, accountID: "auth0|ada", profile: profile, gravatarHash: ""))
      return directory
    }
  }
}
