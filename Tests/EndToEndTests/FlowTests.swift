import Foundation
import Testing

extension EndToEnd {
  /// The Gherkin scenarios of brief 001, walked with the keyboard in a real terminal.
  @Suite(.timeLimit(.minutes(2)))
  struct FlowTests {
    /// Launches the app and goes from Get started with an email to the next screen.
    func start(email: String, expecting heading: String) throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      try app.type(email)
      try app.press("Enter")
      try app.waitFor("[ Cancel ]")
      try app.waitFor(heading)
      return app
    }

    @Test func registeredEmailGoesToLoginWithTheEmailPrefilled() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      let screen = try app.screen()
      #expect(screen.contains("[registered@email.com"))
      #expect(screen.contains("[ Log in ]"))
    }

    @Test func anyOtherEmailGoesToSignupWithTheEmailPrefilled() throws {
      let app = try start(email: "someone@else.com", expecting: "Create a new account")
      #expect(try app.screen().contains("[someone@else.com"))
    }

    @Test func validCredentialsLogInAndShowProfile() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.type("password")
      try app.waitFor("[••••••••")
      try app.press("Enter")
      let screen = try app.waitFor("Log out")
      #expect(screen.contains("Profile"))
      #expect(screen.contains("registered@email.com"))
      #expect(screen.contains("Female"))
    }

    @Test func invalidCredentialsShowAnError() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.type("wrong-password")
      try app.press("Enter")
      let screen = try app.waitFor("Wrong email or password")
      #expect(screen.contains("[ Try again ]"))
      #expect(screen.contains("Welcome back"))
    }

    @Test func signupOfANewEmailShowsProfileWithEmailAndGender() throws {
      let app = try start(email: "new.person@email.com", expecting: "Create a new account")
      try app.type("secret!!")
      try app.press("Enter", "Right", "Right")
      try app.waitFor("Male")
      try app.press("Enter")
      try app.type("012-345 6789")
      try app.press("Enter")
      try app.type("New")
      try app.press("Enter")
      try app.type("Person")
      try app.press("Enter")
      try app.waitFor("Creating your account")
      let screen = try app.waitFor("Log out")
      #expect(screen.contains("new.person@email.com"))
      #expect(screen.contains("Male"))
      #expect(screen.contains("New Person"))
      #expect(screen.contains("+60 12-345 6789"))
      let accounts = try String(
        contentsOf: app.dataDirectory.appendingPathComponent("accounts.json"), encoding: .utf8)
      #expect(accounts.contains("new.person@email.com"))
      #expect(!accounts.contains("secret!!"), "no password in clear")
    }

    @Test func signupOfAnExistingEmailShowsAnError() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.press("BTab", "BTab")
      try app.waitFor("▸[ Create a new account ]")
      try app.press("Enter")
      try app.waitFor("Create a new account")
      try app.waitFor("[registered@email.com")
      try app.type("secret!!")
      try app.press("Enter", "Space", "Enter")
      try app.type("0123456789")
      try app.press("Enter", "Enter", "Enter")
      try app.waitFor("Email already exists")
      #expect(try app.screen().contains("[ Try again ]"))
    }

    @Test func cancelFromLoginByEscAndByButtonKeepsTheEmail() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.press("Escape")
      let screen = try app.waitFor("Myworkout GO")
      #expect(screen.contains("[registered@email.com"))
      try app.press("Enter")
      try app.waitFor("Welcome back")
      try app.press("Tab", "Tab")
      try app.waitFor("▸[ Cancel ]")
      try app.press("Enter")
      try app.waitUntil("Get started with the email kept") {
        $0.contains("Myworkout GO") && $0.contains("[registered@email.com")
      }
    }

    @Test func cancelFromSignupByEscAndByButtonKeepsTheEmail() throws {
      let app = try start(email: "fresh@email.com", expecting: "Create a new account")
      try app.press("Escape")
      var screen = try app.waitFor("Myworkout GO")
      #expect(screen.contains("[fresh@email.com"))
      try app.press("Enter")
      try app.waitFor("Create a new account")
      try app.press("BTab", "BTab")
      try app.waitFor("▸[ Cancel ]")
      try app.press("Enter")
      screen = try app.waitFor("Myworkout GO")
      #expect(screen.contains("[fresh@email.com"))
    }

    @Test func logOutReturnsToGetStartedAndForgetsTheSession() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.logIn()
      let session = app.dataDirectory.appendingPathComponent("session.json")
      // Saved off the main thread once Profile shows; the write may land a moment later.
      try app.waitUntil("the session saved") { _ in
        FileManager.default.fileExists(atPath: session.path)
      }
      try app.press("l")
      let getStarted = try app.waitFor("Myworkout GO")
      #expect(getStarted.contains("[registered@email.com"), "the email stays filled in")
      #expect(!FileManager.default.fileExists(atPath: session.path))
      try app.press("C-c")
      #expect(try app.waitForExit() == 130)
      try app.launch()
      try app.waitFor("Myworkout GO")
    }

    @Test func quitWhileLoggedInAndRelaunchOpensProfileAtOnce() throws {
      let app = try start(email: "registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.press("q")
      #expect(try app.waitForExit() == 0)

      let session = app.dataDirectory.appendingPathComponent("session.json")
      let attributes = try FileManager.default.attributesOfItem(atPath: session.path)
      #expect((attributes[.posixPermissions] as? Int) == 0o600)
      let directory = try FileManager.default.attributesOfItem(atPath: app.dataDirectory.path)
      #expect((directory[.posixPermissions] as? Int) == 0o700)

      // With the services' latency at 30 s, Profile showing at all within 10 s proves the
      // relaunch made no service call, however loaded the machine is.
      try app.launch(["--latency", "30s"])
      let screen = try app.waitFor("Log out", timeout: 10)
      #expect(screen.contains("registered@email.com"))
      #expect(!screen.contains("Myworkout GO"))
    }
  }
}
