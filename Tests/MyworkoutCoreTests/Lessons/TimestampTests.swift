import Testing

@testable import MyworkoutCore

@Suite struct TimestampTests {
  // Expected seconds from Python: calendar.timegm(strptime(text, "%Y-%m-%dT%H:%M:%SZ")).
  static let known: [(String, Int64)] = [
    ("1970-01-01T00:00:00Z", 0),
    ("1969-12-31T23:59:59Z", -1),
    ("2026-11-22T04:15:00Z", 1_795_320_900),
    ("2024-02-29T12:00:00Z", 1_709_208_000),
    ("2000-02-29T23:59:59Z", 951_868_799),
    ("2000-03-01T00:00:00Z", 951_868_800),
    ("2100-03-01T00:00:00Z", 4_107_542_400),
    ("1900-03-01T00:00:00Z", -2_203_891_200),
    ("1600-02-29T00:00:00Z", -11_670_998_400),
    ("0001-01-01T00:00:00Z", -62_135_596_800),
    ("9999-12-31T23:59:59Z", 253_402_300_799),
  ]

  @Test(arguments: known)
  func formats(text: String, seconds: Int64) {
    #expect(Timestamp(secondsSince1970: seconds).iso8601 == text)
  }

  @Test(arguments: known)
  func parses(text: String, seconds: Int64) {
    #expect(Timestamp(iso8601: text) == Timestamp(secondsSince1970: seconds))
  }

  /// Leap years: every 4th, except centuries, except every 400th.
  @Test(arguments: [
    ("2024-02-29T00:00:00Z", true), ("2000-02-29T00:00:00Z", true),
    ("1600-02-29T00:00:00Z", true), ("2023-02-29T00:00:00Z", false),
    ("1900-02-29T00:00:00Z", false), ("2100-02-29T00:00:00Z", false),
    ("2024-02-30T00:00:00Z", false), ("2024-04-31T00:00:00Z", false),
  ])
  func leapDays(text: String, exists: Bool) {
    #expect((Timestamp(iso8601: text) != nil) == exists)
  }

  @Test func dayAfterLeapDay() {
    let leapDay = Timestamp(iso8601: "2024-02-29T23:59:59Z")!
    let next = Timestamp(secondsSince1970: leapDay.secondsSince1970 + 1)
    #expect(next.iso8601 == "2024-03-01T00:00:00Z")
    let plainYear = Timestamp(iso8601: "2023-02-28T23:59:59Z")!
    #expect(
      Timestamp(secondsSince1970: plainYear.secondsSince1970 + 1).iso8601 == "2023-03-01T00:00:00Z")
  }

  /// Every day from 1896 to 2104 (leap and non-leap centuries) survives a round trip, and
  /// consecutive days are 86,400 s apart.
  @Test func roundTripsEveryDay() {
    let start = Timestamp(iso8601: "1896-01-01T12:34:56Z")!.secondsSince1970
    var texts: [String] = []
    var mismatches: [String] = []
    for day in Int64(0)..<Int64(76_336) {
      let stamp = Timestamp(secondsSince1970: start + day * 86_400)
      texts.append(stamp.iso8601)
      if Timestamp(iso8601: texts[texts.count - 1]) != stamp { mismatches.append(texts.last!) }
    }
    #expect(mismatches.isEmpty)
    #expect(Set(texts).count == texts.count)
    #expect(texts.last == "2104-12-31T12:34:56Z")
    #expect(texts.filter { $0.hasPrefix("2000-02-29") || $0.hasPrefix("1904-02-29") }.count == 2)
    #expect(!texts.contains { $0.hasPrefix("1900-02-29") || $0.hasPrefix("2100-02-29") })
  }

  @Test(arguments: [
    "", "2026-11-22", "2026-11-22T04:15:00", "2026-11-22T04:15:00z", "2026-11-22 04:15:00Z",
    "2026-11-22T04:15:00.5Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
    "2026-11-00T00:00:00Z", "2026-11-22T24:00:00Z", "2026-11-22T23:60:00Z",
    "2026-11-22T23:59:60Z", "+026-11-22T04:15:00Z", "2026-1a-22T04:15:00Z",
    "２026-11-22T04:15:00Z",
  ])
  func rejects(_ text: String) {
    #expect(Timestamp(iso8601: text) == nil)
  }

  @Test func ordersByTime() {
    #expect(Timestamp(secondsSince1970: -5) < Timestamp(secondsSince1970: 3))
    #expect(Timestamp(secondsSince1970: 1_795_320_900).description == "2026-11-22T04:15:00Z")
  }
}
