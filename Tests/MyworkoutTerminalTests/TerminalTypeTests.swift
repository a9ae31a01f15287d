import Testing

@testable import MyworkoutTerminal

/// `TERM` unset or empty is said as such, not as the terminal type `''` (a walk-through's
/// `env -u TERM`); a type ncurses does not know keeps its own message.
@Suite struct TerminalTypeTests {
  @Test func anUnsetOrEmptyTermSaysSo() throws {
    for environment in [[:], ["TERM": ""]] {
      let error = #expect(throws: Terminal.OpenError.self) {
        try Terminal.terminalType(environment: environment)
      }
      #expect(
        error.map { "\($0)" }
          == "myworkout cannot tell the terminal type: TERM is not set or is empty; set it to your "
          + "terminal's type (for example xterm-256color).")
    }
    #expect(try Terminal.terminalType(environment: ["TERM": "xterm"]) == "xterm")
    #expect(
      "\(Terminal.OpenError.unknownTerminal("nosuch"))"
        == "myworkout cannot use the terminal type 'nosuch'; set TERM to one your system knows "
        + "(for example xterm-256color).")
  }
}
