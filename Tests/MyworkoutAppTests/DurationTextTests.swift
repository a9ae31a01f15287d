import Testing

@testable import myworkout

/// `--session-lifetime` values: a whole number and a unit, nothing else (issue 9, item 9).
@Suite struct DurationTextTests {
  @Test(arguments: [
    ("30s", 30), ("1s", 1), ("15m", 900), ("12h", 43_200), ("30d", 2_592_000),
  ])
  func readsANumberAndAUnit(text: String, seconds: Int64) {
    #expect(DurationText.parse(text) == .seconds(seconds))
  }

  @Test(arguments: [
    "", "5", "90", "s", "-5s", "+5s", "0s", "5 s", " 5s", "5S", "5w", "1.5h", "5ss", "٥s",
    "99999999999999999d",
  ])
  func refusesAnythingElse(text: String) {
    #expect(DurationText.parse(text) == nil)
  }
}
