import Testing

@testable import myworkout

/// `--reset`'s question on a terminal (`Reset? [y/N]`): what each answer does.
@Suite struct ResetTests {
  /// A spec walk-through: Ctrl-C at the question ended with "Nothing was changed." and status
  /// 0. SPEC §5: Ctrl-C quits from anywhere with exit status 130; nothing is changed either.
  @Test func ctrlCChangesNothingAndEndsWith130() {
    #expect(Reset.decision(for: .interrupted) == .keep(status: 130))
    // A terminal that passes Ctrl-C on as a character rather than a signal.
    #expect(Reset.decision(for: .line("\u{03}")) == .keep(status: 130))
  }

  @Test func onlyYesResets() {
    #expect(Reset.decision(for: .line("y")) == .reset)
    #expect(Reset.decision(for: .line("YES")) == .reset)
    #expect(Reset.decision(for: .line("")) == .keep(status: 0))
    #expect(Reset.decision(for: .line("no")) == .keep(status: 0))
    #expect(Reset.decision(for: .endOfInput) == .keep(status: 0))
  }

  /// A walk-through answered ` Y ` and was told "Nothing was changed.": spaces or a tab around
  /// the answer are not part of it. Anything else beside a yes is still a no.
  @Test func spacesAroundTheAnswerAreNotPartOfIt() {
    #expect(Reset.decision(for: .line(" Y ")) == .reset)
    #expect(Reset.decision(for: .line("\tyes")) == .reset)
    #expect(Reset.decision(for: .line("y y")) == .keep(status: 0))
    #expect(Reset.decision(for: .line("yes!")) == .keep(status: 0))
  }
}
