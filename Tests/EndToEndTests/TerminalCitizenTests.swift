import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEnd {
  /// SPEC §5 and §6: signals, Esc, resize, small screens, Unicode, paste, colours.
  @Suite(.timeLimit(.minutes(2)))
  struct TerminalCitizenTests {
    /// Runs the app from a shell prompt, recording the terminal modes before and after. The app
    /// runs under `sh -c` that exits with its status: an interactive bash drops the rest of a
    /// command line whose command a SIGINT ended, as it should.
    func appInShell(environment: [String: String] = [:]) throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launchShell(environment: environment)
      try app.waitFor("$")
      try app.type(
        "stty -g > before; sh -c '\"$APP\"; exit $?'; echo \"status=$?\"; stty -g > after; "
          + "cmp -s before after && echo modes-re\"\"stored")
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      return app
    }

    /// Every signal whose default is to end the process, not only the three a terminal sends
    /// (a walk-through's `kill -USR1` and `kill -ALRM` left the alternate screen, the mouse
    /// reports and a hidden cursor behind).
    @Test(arguments: [
      (SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGUSR1, 138), (SIGUSR2, 140),
      (SIGALRM, 142), (SIGVTALRM, 154), (SIGPROF, 155),
    ])
    func signalRestoresTheTerminal(signal: Int32, status: Int) throws {
      let app = try appInShell()
      try app.type("half typed")
      let shell = try #require(try app.childPID())
      let pid = try #require(try app.childPID(of: shell))
      kill(pid, signal)
      let screen = try app.waitFor("modes-restored")
      #expect(screen.contains("status=\(status)"))
      #expect(try app.terminalLooksRestored())
    }

    @Test func ctrlCQuitsWith130AndRestores() throws {
      let app = try appInShell()
      try app.press("C-c")
      let screen = try app.waitFor("modes-restored")
      #expect(screen.contains("status=130"))
      #expect(try app.terminalLooksRestored())
    }

    /// Issue 24, item 5: Ctrl-C ends the app, not the script that ran it, under dash as under
    /// bash (the terminal used to send SIGINT to the shell too, and dash ended its script).
    /// A signal from outside ends the app by that signal, as shells expect.
    @Test(arguments: ["sh", "bash"])
    func ctrlCEndsTheAppNotTheScriptThatRanIt(shell: String) throws {
      let app = try TerminalSession()
      try app.launchShell()
      try app.waitFor("$")
      try app.type(shell + " -c '\"$APP\"; echo EXIT=$?; echo script-went-on'")
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      try app.type("half typed")
      try app.press("C-c")
      let screen = try app.waitFor("script-went-on")
      #expect(screen.contains("EXIT=130"))
      #expect(try app.terminalLooksRestored())
    }

    /// A SIGINT from outside ends the app by SIGINT (restored terminal first), which a parent
    /// that looks at how its child ended can tell (Python's subprocess says -2); Ctrl-C read as
    /// a key is an exit with 130 (no signal reached anyone).
    @Test func aSigintFromOutsideEndsTheAppBySigintAndCtrlCIsAnExit() throws {
      let app = try TerminalSession()
      try app.launchShell()
      try app.waitFor("$")
      let line =
        "python3 -c 'import subprocess, sys; print(\"returncode\", "
        + "subprocess.run(sys.argv[1:]).returncode)' \"$APP\""
      try app.type(line)
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      try app.press("C-c")
      var screen = try app.waitFor("returncode")
      #expect(screen.contains("returncode 130"), "\(screen)")

      try app.type("clear; " + line)
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      let python = try #require(try app.childPID())
      let pid = try #require(try app.childPID(of: python))
      kill(pid, SIGINT)
      screen = try app.waitFor("returncode")
      #expect(screen.contains("returncode -2"), "\(screen)")
      #expect(try app.terminalLooksRestored())
    }

    /// A stop the app did not ask for (SIGSTOP from outside, not Ctrl-Z): the shell takes the
    /// terminal and sets its own modes meanwhile; after `fg` (SIGCONT) the app takes it back
    /// (keys read one by one again, the whole screen drawn anew), not left half shell text and
    /// half app with the line discipline holding its keys.
    @Test func aStopFromOutsideAndFgBringTheScreenBack() throws {
      let app = try Self.appFromAShellWithAnEmailTyped()
      try app.waitFor("[kept@email.com")
      let pid = try #require(try app.childPID())
      kill(pid, SIGSTOP)
      try app.waitFor("Stopped")
      try app.type("fg")
      try app.press("Enter")
      try app.type("x")
      let screen = try app.waitFor("[kept@email.comx")
      #expect(!screen.contains("Stopped"), "drawn anew: \(screen)")
      #expect(!screen.contains("$ fg"), "drawn anew: \(screen)")
    }

    /// The app run from a shell's prompt by `command` (the app itself, or a script that runs
    /// it), `typed` typed into Get started's field.
    static func appFromAShellWithAnEmailTyped(
      command: String = "\"$APP\"", typed: String = "kept@email.com"
    ) throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launchShell()
      try app.waitFor("$")
      try app.type(command)
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      try app.type(typed)
      return app
    }

    /// A script that runs the app and then says how it ended (`after-<status>`).
    static let script = "sh -c '\"$APP\"; echo after-$?'"

    @Test func ctrlZSuspendsAndFgBringsTheScreenBack() throws {
      let app = try Self.appFromAShellWithAnEmailTyped()
      try app.press("C-z")
      try app.waitFor("Stopped")
      #expect(try app.terminalLooksRestored())
      try app.type("fg")
      try app.press("Enter")
      let screen = try app.waitFor("[kept@email.com")
      #expect(screen.contains("Myworkout GO"))
      try app.type("x")
      try app.waitFor("[kept@email.comx")
    }

    /// Ctrl-Z stops the whole job, a script that ran the app with it, as the terminal's stop
    /// character did before Ctrl-Z became a key (a review found the script left running: its
    /// shell never took the terminal back); `fg` brings both back, and the script goes on.
    @Test func ctrlZStopsTheScriptThatRanTheAppToo() throws {
      let app = try Self.appFromAShellWithAnEmailTyped(command: Self.script)
      try app.press("C-z")
      try app.waitFor("Stopped")
      #expect(try app.terminalLooksRestored())
      try app.type("fg")
      try app.press("Enter")
      try app.waitFor("[kept@email.com")
      try app.press("C-c")
      try app.waitFor("after-130")
    }

    /// Under a script, Ctrl-Z, `bg`, `fg`: the app stops itself again in the background with
    /// the whole job (a walk-through saw the script left running, so the shell thought the job
    /// ran, and `fg` sent no SIGCONT: the app stayed stopped behind a shell that seemed hung).
    @Test func ctrlZBgFgUnderAScriptBringsTheAppBack() throws {
      let app = try Self.appFromAShellWithAnEmailTyped(command: Self.script)
      try app.press("C-z")
      try app.waitFor("Stopped")
      try app.type("bg; echo resumed")
      try app.press("Enter")
      try app.waitFor("resumed")
      // The job is seen stopped again before `fg` (else `fg` would hand over a running job).
      try app.type(
        "until jobs >\"$HOME/jobs\"; grep -q Stopped \"$HOME/jobs\"; do sleep 0.05; done; fg")
      try app.press("Enter")
      try app.waitFor("[kept@email.com")
      try app.press("C-c")
      try app.waitFor("after-130")
    }

    /// `bg` after Ctrl-Z: the app goes on in the background, where the terminal is the shell's.
    /// A walk-through saw it turn mouse reporting on at the shell's prompt (and draw there)
    /// before its first change of the terminal's modes stopped it; clicks typed escapes into
    /// the shell until `fg`. It now stops again at once, touching nothing, until it is in the
    /// foreground.
    @Test func bgAfterCtrlZLeavesTheShellsTerminalAlone() throws {
      let app = try Self.appFromAShellWithAnEmailTyped()
      try app.press("C-z")
      try app.waitFor("Stopped")
      let pid = try #require(try app.childPID())
      try app.type("bg; echo resumed")
      try app.press("Enter")
      try app.waitFor("resumed")
      // SIGCONT was sent before the echo: stopped from here on is stopped again.
      let deadline = ContinuousClock.now + .seconds(10)
      while ProcessStat.state(of: pid) != "T" {
        try #require(ContinuousClock.now < deadline, "the app did not stop again")
        usleep(10_000)
      }
      let screen = try app.screen()
      #expect(try app.terminalLooksRestored(), "\(screen)")
      #expect(!screen.contains("Myworkout GO"), "nothing drawn in the background: \(screen)")
      try app.type("fg")
      try app.press("Enter")
      try app.waitFor("[kept@email.com")
      try app.type("x")
      try app.waitFor("[kept@email.comx")
    }

    /// A stopped app told to end (`kill -TERM %1; kill -CONT %1`, as a supervisor would) ends,
    /// from the background, leaving the shell's terminal as it is. The walk-through saw it stop
    /// again on its way out, mouse reporting on, never ending.
    @Test func aSuspendedAppToldToEndEndsFromTheBackground() throws {
      let app = try Self.appFromAShellWithAnEmailTyped()
      try app.press("C-z")
      try app.waitFor("Stopped")
      try app.type("kill -TERM %1; kill -CONT %1")
      try app.press("Enter")
      try app.type("wait %1; echo status-$?")
      try app.press("Enter")
      let screen = try app.waitFor("status-")
      #expect(screen.contains("status-143"), "\(screen)")
      #expect(try app.terminalLooksRestored(), "\(screen)")
    }

    @Test func escReactsAtOnceAndArrowsStillWork() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.press("Up")
      try app.waitFor("▸ Email")
      try app.press("Down")
      try app.waitFor("▸ Password")
      let pressed = Date()
      try app.press("Escape")
      try app.waitFor("Myworkout GO", timeout: 2)
      print("Esc to Get started on screen: \(Int(Date().timeIntervalSince(pressed) * 1000)) ms")
    }

    @Test func resizeRedrawsAtOnceEvenDuringARequest() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.type("registered@email.com")
      try app.press("Enter")
      try app.waitFor("Checking your email")
      try app.resize(width: 60, height: 20)
      try app.waitUntil("footer redrawn at the new width") { screen in
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.contains { $0.hasPrefix(" Tab/↑↓") || $0.hasPrefix(" Esc cancel") }
          && screen.contains("Myworkout GO")
          && !screen.contains(String(repeating: " ", count: 61) + "x")
      }
      try app.waitFor("Welcome back")
    }

    @Test func walksTheFlowAt40x12() throws {
      let app = try TerminalSession()
      try app.launch(width: 40, height: 12)
      try app.waitFor("Myworkout GO")
      try app.submitEmail("small@email.com", expecting: "Create a new account")
      try app.type("secret!!")
      try app.press("Enter", "Right", "Enter")
      try app.type("0123456789")
      try app.press("Enter", "Enter")
      let lastName = try app.waitFor("▸ Last name")
      #expect(lastName.contains("Last name"), "the focused field scrolled into view")
      try app.press("Enter")
      let profile = try app.waitFor("Log out")
      #expect(profile.contains("small@email.com"))
      try app.resize(width: 20, height: 6)
      try app.waitUntil("a tiny screen still draws") { $0.contains("Edit number") }
      try app.press("l")
      try app.waitFor("GO")
    }

    @Test func unicodeIsTypedEditedAndShownByDisplayWidth() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.submitEmail("new@email.com", expecting: "Create a new account")
      try app.press("Tab", "Tab", "Tab")
      try app.waitFor("▸ First name")
      try app.type("Zoë 中文")
      try app.waitFor("[Zoë 中文")
      try app.press("BSpace")
      try app.waitFor("[Zoë 中 ")
      try app.press("BSpace", "BSpace", "BSpace")
      try app.waitFor("[Zo ")
      try app.type("ë 中文!")
      try app.waitFor("[Zoë 中文!")
      let cursor = try app.cursor()
      let line = try app.screen().split(separator: "\n")[cursor.row]
      let bracket = try #require(line.firstIndex(of: "["))
      let before = line[line.startIndex...bracket]
      // "Zoë 中文!" is 9 columns wide; the cursor stands right after it.
      #expect(cursor.column == displayWidth(before) + 9)
    }

    @Test func pasteIsTextAndANewlineNeverSubmits() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.paste("registered@email.com\n\u{7}")
      try app.waitFor("[registered@email.com ")
      #expect(!(try app.screen().contains("Checking")), "the newline did not submit")
      try app.press("Enter")
      try app.waitFor("Welcome back")
    }

    /// Control characters in a paste are dropped, Ctrl-C, Ctrl-Z and Ctrl-\\ too. A
    /// walk-through pasted `abc^Cdef`: the app quit (130), and with ^Z it stopped, with ^\\ it
    /// died (131), the form's text lost. Pressed alone, Ctrl-\\ still quits with 131 (the
    /// terminal's quit key), after the paste.
    @Test func controlCharactersInAPasteAreDroppedEvenTheTerminalsSignalKeys() throws {
      let app = try Self.appFromAShellWithAnEmailTyped(
        command: "\"$APP\"; echo after-$?", typed: "a@")
      try app.paste("b\u{03}c\u{1A}d\u{1C}e.com")
      try app.waitFor("[a@bcde.com ")
      try app.press("C-\\")
      let screen = try app.waitFor("after-")
      #expect(screen.contains("after-131"), "\(screen)")
      #expect(try app.terminalLooksRestored())
    }

    @Test func noColorGivesMonochromeWithEveryStateVisible() throws {
      let colour = try TerminalSession()
      try colour.launch()
      try colour.waitFor("Myworkout GO")
      try colour.type("x")
      try colour.waitFor("✗")
      let coloured = try colour.screenWithAttributes()
      #expect(coloured.contains("\u{1B}[31m"), "invalid is red: \(coloured.debugDescription)")

      let mono = try TerminalSession()
      try mono.launch(environment: ["NO_COLOR": "1"])
      try mono.waitFor("Myworkout GO")
      try mono.type("x")
      let screen = try mono.waitFor("✗")
      #expect(screen.contains("▸ Email"), "focus is marked")
      let attributed = try mono.screenWithAttributes()
      for code in 30...37 { #expect(!attributed.contains("\u{1B}[\(code)m")) }
      #expect(!attributed.contains("38;5;"))
      try mono.type("@y.io")
      try mono.waitFor("✓")
    }

    /// A locale of another character set (C or POSIX, as in a minimal container, or one not
    /// installed) still gets the screen's marks: ncurses dropped every character that is not
    /// ASCII there (no focus marker, no `•` per character, no `✓`/`✗`, `Tab/   move`).
    @Test(arguments: ["C", "POSIX", "xx_YY.UTF-8"])
    func aLocaleOfAnotherCharacterSetStillShowsTheMarks(locale: String) throws {
      let app = try TerminalSession()
      try app.launch(["--latency", "0s"], environment: ["LC_ALL": locale, "LANG": locale])
      let first = try app.waitFor("Myworkout GO")
      #expect(first.contains("▸ Email"), "\(first)")
      #expect(first.contains("Tab/↑↓ move"), "\(first)")
      try app.type("registered@email.com")
      try app.waitFor("✓")
      try app.press("Enter")
      try app.waitFor("Welcome back")
      try app.type("pass")
      try app.waitFor("••••")
    }

    @Test func passwordRevealKeyIsShownAndWorks() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.type("registered@email.com")
      try app.press("Enter")
      try #require(try app.waitFor("Welcome back").contains("Ctrl-R show password"))
      try app.type("pässword")
      try app.waitFor("[••••••••")
      try app.press("C-r")
      try app.waitFor("[pässword")
      try app.press("C-r")
      try app.waitFor("[••••••••")
    }

    private func displayWidth(_ text: Substring) -> Int {
      text.reduce(0) { width, character in
        let value = character.unicodeScalars.first!.value
        return width + ((0x4E00...0x9FFF).contains(value) ? 2 : 1)
      }
    }
  }
}
