import Foundation
import Testing

extension EndToEnd {
  /// Issue 9: what small terminals, long values and long notices used to hide.
  @Suite(.timeLimit(.minutes(2)))
  struct SmallScreenTests {
    /// The footer line (the last one on screen).
    func footer(_ screen: String) -> String {
      screen.split(separator: "\n", omittingEmptySubsequences: false).last(where: {
        !$0.trimmingCharacters(in: .whitespaces).isEmpty
      }).map(String.init) ?? ""
    }

    @Test(arguments: [(24, 7), (20, 6)])
    func aFailedLoginShowsItsMessageBesideTryAgain(width: Int, height: Int) throws {
      let app = try TerminalSession()
      try app.launch(width: width, height: height)
      try app.waitFor("Email")
      try app.type("registered@email.com")
      try app.press("Enter")
      try app.waitFor("Password")
      try app.type("wrong")
      try app.press("Enter")
      let screen = try app.waitFor("Try again")
      #expect(screen.contains("Wrong email"), "the message is in view:\n\(screen)")
    }

    @Test func aRefusedSignupMovesTheFocusToTheFieldAndKeepsTheMessageInView() throws {
      let app = try TerminalSession()
      try app.launch(width: 24, height: 7)
      try app.waitFor("Email")
      try app.type("new@email.com")
      try app.press("Enter")
      try app.waitFor("Password")
      try app.type("longer!!")
      try app.press("Tab", "Tab", "Tab", "Tab", "Tab", "Enter")
      let screen = try app.waitFor("▸ Gender")
      #expect(screen.contains("Please select"), "\(screen)")
    }

    @Test func theProfileHeadingStaysAt40x12AndItsFooterEndsWithCtrlC() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      let profile = try app.logIn()
      #expect(footer(profile).hasSuffix("Ctrl-C quit"))
      try app.resize(width: 40, height: 12)
      // Until the app redraws, tmux shows the old frame cut to 40x12 around the cursor (the
      // button row): wait for the footer on the last row, which the old frame's cut never shows.
      let small = try app.waitUntil("Profile redrawn at 40x12") {
        $0.split(separator: "\n").count <= 12 && $0.contains("Edit number")
          && footer($0).hasSuffix("quit")
      }
      #expect(small.contains("Profile"), "the heading stays:\n\(small)")
    }

    @Test func footersDropWholeHintsAndCtrlRSaysWhatItWillDo() throws {
      let app = try TerminalSession()
      try app.launch(width: 40, height: 12)
      try app.waitFor("GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      // 40 columns: the reveal key takes its short wording so that the panel's key stays too.
      var screen = try app.waitFor("Ctrl-R show ")
      #expect(
        footer(screen).trimmingCharacters(in: .whitespaces) == "Ctrl-R show  F1 keys  Ctrl-C quit")
      try app.press("C-r")
      screen = try app.waitFor("Ctrl-R hide ")
      #expect(footer(screen).hasSuffix("Ctrl-C quit"))
    }

    @Test func longValuesOnProfileEndInAnEllipsis() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      let email = String(repeating: "long", count: 16) + "@email.com"
      try app.submitEmail(email, expecting: "Create a new account")
      try app.type("secret!!")
      try app.press("Enter", "Right", "Enter")
      try app.type("0123456789")
      try app.press("Enter")
      try app.type(String(repeating: "Bartholomew", count: 8))
      try app.press("Enter", "Enter")
      let profile = try app.waitFor("Log out")
      #expect(profile.contains("…"), "\(profile)")
      #expect(profile.contains("Name    BartholomewBartholomew"))
    }

    @Test func aLongNoticeWrapsAndKeepsTheFileName() throws {
      let app = try TerminalSession()
      try FileManager.default.createDirectory(
        at: app.dataDirectory, withIntermediateDirectories: true)
      let accounts = app.dataDirectory.appendingPathComponent("accounts.json")
      try Data("not json".utf8).write(to: accounts)
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.type("registered@email.com")
      try app.press("Enter")
      let screen = try app.waitFor("started a fresh registry")
      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let aside = try #require(names.first { $0.hasPrefix("accounts.json.corrupt-") })
      #expect(screen.contains(aside), "the whole file name is on screen:\n\(screen)")
    }

    @Test func aPasteLongerThanTheFieldSaysItWasCut() throws {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.paste(String(repeating: "a", count: 300) + "@email.com")
      let screen = try app.waitFor("The pasted text was cut to fit")
      #expect(screen.contains("254 characters"))
    }

    @Test func aClickFocusesAFieldAndActivatesAButton() throws {
      let app = try TerminalSession()
      try app.launch(["--latency", "0s"])
      let screen = try app.waitFor("[ Browse classes ]")
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let next = try #require(lines.firstIndex { $0.contains("[ Next ]") })
      let email = try #require(lines.firstIndex { $0.contains("Email") })
      try app.press("Tab")
      try app.waitFor("▸[ Next ]")
      try app.click(row: email, column: 30)
      try app.waitFor("▸ Email")
      try app.type("registered@email.com")
      try app.click(row: next, column: 20)
      try app.waitFor("Welcome back")
      try app.type("password")
      let login = try app.screen().split(separator: "\n", omittingEmptySubsequences: false)
      let logIn = try #require(login.firstIndex { $0.contains("[ Log in ]") })
      try app.click(row: logIn, column: 20)
      let profile = try app.waitFor("Log out")
      let rows = profile.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let buttons = try #require(rows.firstIndex { $0.contains("[ Log out ]") })
      let column = try #require(rows[buttons].range(of: "[ Log out ]")).lowerBound
      try app.click(
        row: buttons, column: rows[buttons].distance(from: rows[buttons].startIndex, to: column) + 2
      )
      try app.waitUntil("logged out by a click") {
        $0.contains("Myworkout GO") && $0.contains("[registered@email.com")
      }
    }

    /// Issue 24, items 6 and 7: a text field's footer names F1 (`?` is typed there), Profile's
    /// names `? keys`, and the Keys panel at 40x12 wraps and scrolls to its last row.
    @Test func theFooterNamesTheRightKeyAndTheKeysPanelScrollsAt40x12() throws {
      let app = try TerminalSession()
      try app.launch(["--latency", "0s"], width: 40, height: 12)
      var screen = try app.waitFor("F1 keys")
      #expect(!footer(screen).contains("? keys"))
      try app.type("registered@email.com?")
      screen = try app.waitFor("email.com?")
      #expect(!screen.contains("┌─ Keys"), "? is typed in a field")
      try app.press("BSpace", "Enter")
      try app.waitFor("Welcome back")
      try app.logIn()
      try app.resize(width: 80, height: 24)
      screen = try app.waitFor("? keys")
      #expect(footer(screen).contains("? keys   Ctrl-C quit"), "\(footer(screen))")
      try app.resize(width: 40, height: 12)
      try app.waitUntil("Profile at 40x12") { !$0.contains("Ctrl-O log out  ") }
      try app.press("?")
      screen = try app.waitFor("↓ more")
      #expect(screen.contains("┌─ Keys"))
      try app.press("End")
      screen = try app.waitFor("↑ more")
      #expect(screen.contains("Ctrl-C"), "the last row in view:\n\(screen)")
      #expect(!screen.contains("↓ more"))
      try app.press("Escape")
      try app.waitUntil("the panel closed") { !$0.contains("┌─ Keys") }
    }

    /// Issue 24, item 8: Get started at 40x12 keeps "Enter your email…" (blank rows go first),
    /// and the Player at 20x6 drops parts whole instead of cutting `Time in class`.
    @Test func getStartedAt40x12KeepsItsHintAndThePlayerAt20x6DropsWholeParts() throws {
      let app = try TerminalSession()
      let catalog = try PlayerTests.catalog(in: app)
      try app.launch(["--latency", "0s", "--catalog", catalog], width: 40, height: 12)
      let screen = try app.waitFor("Myworkout GO")
      #expect(screen.contains("Enter your email"), "\(screen)")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("c")
      try app.waitFor("2 classes")
      try app.press("Down", "Enter")
      try app.waitFor("Time in class")
      try app.resize(width: 20, height: 6)
      let small = try app.waitFor("Watched 0%")
      #expect(!small.contains("class"), "dropped whole, not cut:\n\(small)")
    }
  }
}
