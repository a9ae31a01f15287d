import Foundation
import Testing

extension EndToEnd {
  /// Lessons (SPEC §13) in a real terminal, through the brief's own sample file.
  @Suite(
    .timeLimit(.minutes(2)), .enabled(if: EndToEnd.sharedDataPresent, EndToEnd.sharedDataMissing))
  struct LessonsTests {
    /// The brief's sample (`../shared/data/mimo/example.json` beside the repository).
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("../shared/data/mimo/example.json").standardized.path

    /// Launches with the sample and no latency, logs in, and opens Lessons with `n`.
    func openLessons(
      _ app: TerminalSession, environment: [String: String] = [:], logIn: Bool = true
    ) throws {
      try app.launch(
        ["--lessons", Self.sample, "--latency", "0s"], environment: environment)
      if logIn {
        try app.waitFor("Myworkout GO")
        try app.submitEmail("registered@email.com", expecting: "Welcome back")
        try app.logIn()
      } else {
        try app.waitFor("[ Lessons ]")
      }
      try app.type("n")
    }

    @Test func aWrongThenRightAnswerThroughTheSampleThenARelaunchOpensAtDone() throws {
      let app = try TerminalSession()
      try openLessons(app)
      var screen = try app.waitFor("Lesson 1 of 3")
      #expect(screen.contains("Hello World!"))
      #expect(screen.contains("▸[ Next ]"), "no input: Next is active")
      try app.press("Enter")
      screen = try app.waitFor("Lesson 2 of 3")
      #expect(screen.contains("var x = 1"))
      try app.press("Enter")
      screen = try app.waitFor("Lesson 3 of 3")
      #expect(screen.contains("var ______ = 1"), "the input is an empty blank in the line")
      // Next is dim with nothing typed: Enter does nothing.
      try app.press("Enter")
      try app.type("numbr")
      try app.waitFor("var numbr_ = 1")
      try app.press("Enter")
      try app.waitFor("That's not quite right. Try again.")
      #expect(try app.screen().contains("var numbr_ = 1"), "what was typed stays")
      try app.press("Left", "BSpace")
      try app.type("be")
      try app.waitFor("var number = 1")
      try app.press("Enter")
      screen = try app.waitFor("You completed all 3 lessons.")
      #expect(screen.contains("Done"))
      #expect(screen.contains("[ Start over ]"))
      let rows = screen.split(separator: "\n").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let times = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"
      for id in ["5", "6", "7"] {
        #expect(
          rows.contains {
            $0.range(of: "^\(id) +\(times) +\(times)$", options: .regularExpression) != nil
          },
          "an event for lesson \(id): \(screen)")
      }
      try app.press("Escape")
      try app.waitFor("[ Lessons ]")
      try app.type("q")
      #expect(try app.waitForExit() == 0)

      // Still signed in: Profile at once, and Lessons opens at Done.
      try openLessons(app, logIn: false)
      let done = try app.waitFor("You completed all 3 lessons.")
      // A click on Start over does what Enter does there.
      let lines = done.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let row = try #require(lines.firstIndex { $0.contains("[ Start over ]") })
      let column = try #require(lines[row].range(of: "[ Start over ]")).lowerBound
      try app.click(
        row: row, column: lines[row].distance(from: lines[row].startIndex, to: column) + 2)
      try app.waitFor("Lesson 1 of 3")
    }

    @Test func coloursShowAndNoColorMeansPlain() throws {
      let app = try TerminalSession()
      try openLessons(app)
      try app.waitFor("Lesson 1 of 3")
      try app.press("Enter")
      try app.waitFor("var x = 1")
      let coloured = try app.screenWithAttributes()
      #expect(coloured.contains("38;5;196m"), "#FF0000 is xterm red 196")
      #expect(coloured.contains("38;5;21m"), "#0000FF is xterm blue 21")

      let plain = try TerminalSession()
      try openLessons(plain, environment: ["NO_COLOR": "1"])
      try plain.waitFor("Lesson 1 of 3")
      try plain.press("Enter")
      try plain.waitFor("var x = 1")
      let attributes = try plain.screenWithAttributes()
      #expect(!attributes.contains("38;5;"), "\(attributes)")
    }

    @Test func aFileThatCannotBeReadSaysWhyWithTryAgain() throws {
      let app = try TerminalSession()
      try app.launch(["--lessons", "/nonexistent/lessons.json", "--latency", "0s"])
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      try app.type("n")
      let screen = try app.waitFor("Lessons could not be loaded")
      #expect(screen.contains("/nonexistent/lessons.json"))
      #expect(screen.contains("[ Try again ]"))
      try app.press("Escape")
      try app.waitFor("[ Lessons ]")
    }
  }
}
