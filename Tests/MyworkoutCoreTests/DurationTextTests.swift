import MyworkoutCore
import Testing

/// Durations as people write them, for `--latency`, `--session-lifetime` and the server's
/// `--token-lifetime` (issue 24, item 9: fractions and ms were refused).
@Suite struct DurationTextTests {
  @Test(arguments: [
    ("30s", 30_000), ("1s", 1000), ("15m", 900_000), ("12h", 43_200_000), ("30d", 2_592_000_000),
    ("0.3s", 300), ("0.5s", 500), ("300ms", 300), ("1.5h", 5_400_000), ("0.25m", 15_000),
    ("1.0001s", 1000), ("0s", 0), ("0ms", 0), ("0.0s", 0), ("2.5d", 216_000_000),
  ])
  func readsANumberAndAUnit(text: String, milliseconds: Int64) {
    #expect(DurationText.parse(text) == .milliseconds(milliseconds))
  }

  @Test(arguments: [
    "", "5", "90", "s", "ms", "-5s", "+5s", "5 s", " 5s", "5s ", "5S", "5w", "5ss", "٥s", ".5s",
    "5.s", "1..5s", "1.5.5s", "1e3ms", "0x10s", "99999999999999999d", "36501d",
    "1.0000000001s",
  ])
  func refusesAnythingElse(text: String) {
    #expect(DurationText.parse(text) == nil)
  }

  @Test func aLowerBoundRefusesLess() {
    #expect(DurationText.parse("0.5s", atLeast: .seconds(1)) == nil)
    #expect(DurationText.parse("0s", atLeast: .milliseconds(1)) == nil)
    #expect(DurationText.parse("1.5s", atLeast: .seconds(1)) == .milliseconds(1500))
  }
}
