import Foundation
import Testing

extension EndToEnd {
  /// Validation messages and request states (SPEC §3 and §4), typed as a person would.
  @Suite(.timeLimit(.minutes(2)))
  struct FormTests {
    func app() throws -> TerminalSession {
      let app = try TerminalSession()
      try app.launch()
      try app.waitFor("Myworkout GO")
      return app
    }

    func toLogin() throws -> TerminalSession {
      let app = try app()
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      return app
    }

    func toSignup(_ email: String = "new@email.com") throws -> TerminalSession {
      let app = try app()
      try app.type(email)
      try app.press("Enter")
      try app.waitFor("Create a new account")
      return app
    }

    @Test func getStartedRefusesAMalformedEmailOnTheSpot() throws {
      let app = try app()
      try app.press("Enter")
      try app.waitFor("Email is not valid")
      try app.type("not-an-email")
      try app.waitUntil("message cleared by editing") { !$0.contains("Email is not valid") }
      try app.press("Enter")
      let screen = try app.waitFor("Email is not valid")
      #expect(screen.contains("✗"), "the field is marked invalid")
      #expect(!screen.contains("Cancel"), "no request was made")
    }

    @Test func loginWithAnEmptyFieldIsRefused() throws {
      let app = try toLogin()
      try app.press("Enter")
      try app.waitFor("All fields are required")
    }

    @Test func loginWithAMalformedEmailIsRefused() throws {
      let app = try toLogin()
      try app.press("BTab")
      try app.press("C-u")
      try app.type("registered@")
      try app.press("Enter")
      try app.type("password")
      try app.press("Enter")
      try app.waitFor("Email is not valid")
    }

    @Test func loginWithAnUnknownEmailSaysSo() throws {
      let app = try toLogin()
      try app.press("BTab", "C-u")
      try app.type("nobody@email.com")
      try app.press("Enter")
      try app.type("password")
      try app.press("Enter")
      try app.waitFor("No account exists for this email")
    }

    @Test func cancelledLoginShowsNoErrorAndReturnsToLogIn() throws {
      let app = try toLogin()
      try app.type("password")
      try app.press("Enter")
      // One Cancel while the request runs: the button itself (issue 9).
      let running = try app.waitFor("Logging in")
      #expect(running.contains("▸[ Cancel ]"))
      #expect(!running.contains("[ Cancel ]  [ Cancel ]"))
      try app.press("Enter")
      let screen = try app.waitFor("[ Log in ]")
      #expect(screen.contains("Welcome back"))
      #expect(!screen.contains("Wrong"))
      #expect(!screen.contains("Try again"))
      // and Esc cancels too, staying on Login
      try app.press("Enter")
      try app.waitFor("Logging in")
      try app.press("Escape")
      try app.waitFor("[ Log in ]")
      #expect(try app.screen().contains("Welcome back"))
    }

    @Test func failedThenRetriedLogin() throws {
      let app = try toLogin()
      try app.type("wrong")
      try app.press("Enter")
      try app.waitFor("Wrong email or password")
      try app.waitFor("▸[ Try again ]")
      try app.press("Enter")
      try app.waitFor("Logging in")
      #expect(!(try app.screen().contains("Wrong email or password")), "no error while running")
      try app.waitFor("Wrong email or password")
      try app.press("BTab", "C-u")
      try app.waitUntil("error cleared on edit") { !$0.contains("Wrong email or password") }
      #expect(try app.screen().contains("[ Log in ]"))
      try app.type("password")
      try app.press("Tab", "Enter")
      try app.waitFor("Log out")
    }

    @Test func signupShowsEachRuleInScreenOrder() throws {
      let app = try toSignup()
      // Focus opens on Password; Sign up is 5 stops further. A refused submit moves the focus
      // to the field at fault (issue 9), so each fix starts there.
      try app.press("Tab", "Tab", "Tab", "Tab", "Tab")
      try app.waitFor("▸[ Sign up ]")
      try app.press("Enter")
      try app.waitFor("Please complete the form")
      try app.waitFor("▸ Password")
      try app.type("short")
      try app.press("Tab", "Tab", "Tab", "Tab", "Tab", "Enter")
      try app.waitFor("Password should contain one special character and minimum 8")
      try app.waitFor("▸ Password")
      try app.press("C-u")
      try app.type("longer!!")
      try app.press("Tab", "Tab", "Tab", "Tab", "Tab", "Enter")
      try app.waitFor("Please select a gender")
      try app.waitFor("▸ Gender")
      try app.press("Right")
      try app.waitFor("Female")
      try app.press("Tab", "Tab", "Tab", "Tab", "Enter")
      try app.waitFor("Please complete the form")
      try app.waitFor("▸ Mobile")
      try app.type("12345")
      try app.press("Tab", "Tab", "Tab", "Enter")
      try app.waitFor("Mobile number is not valid")
      try app.waitFor("▸ Mobile")
      try app.press("BTab", "BTab", "BTab", "End")
      try app.type("@@")
      try app.press("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Enter")
      try app.waitFor("Email is not valid")
    }

    @Test func editingTheMobileNumberSurvivesARelaunch() throws {
      let app = try toLogin()
      try app.logIn()
      try app.press("e")
      try app.waitFor("Edit mobile number")
      try app.press("C-u")
      try app.type("123")
      try app.press("Enter")
      try app.waitFor("Mobile number is not valid")
      try app.press("C-u")
      try app.type("011-1234 5678")
      try app.press("Enter")
      try app.waitFor("Saving")
      try app.waitFor("Number was edited successfully")
      #expect(try app.screen().contains("+60 11-1234 5678"))
      try app.press("q")
      #expect(try app.waitForExit() == 0)
      try app.launch()
      let screen = try app.waitFor("Log out")
      #expect(screen.contains("+60 11-1234 5678"))
      // and the registry keeps it for the next login; the email stays filled in after log out
      try app.press("l")
      try app.waitFor("[registered@email.com")
      try app.press("Enter")
      try app.waitFor("Welcome back")
      #expect(try app.logIn().contains("+60 11-1234 5678"))
    }
  }
}
