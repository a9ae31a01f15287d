import MyworkoutCore
import Testing

@testable import MyworkoutView

/// The Classes screen's count line on a narrow screen (issue 24, item 12).
@Suite struct ClassesCountLineTests {
  static func page(query: String, matching: Int) -> CatalogPage {
    CatalogPage(
      query: query, offset: 0, classes: [], matching: matching, isCapped: false, total: 351)
  }

  @Test func aLongQueryIsShortenedInsideItsQuotes() {
    let long = String(repeating: "waacking ", count: 20)
    let line = ClassesView.countLine(Self.page(query: long, matching: 0), width: 40)
    #expect(line == "No classes match \"waacking waacking wa…\"")
    #expect(DisplayWidth.of(line) == 40)
    let wide = ClassesView.countLine(Self.page(query: "中文" + long, matching: 3), width: 40)
    #expect(wide.hasPrefix("3 of 351 classes match \"中文"))
    #expect(wide.hasSuffix("…\""))
    #expect(DisplayWidth.of(wide) <= 40)
  }

  @Test func aLineThatFitsIsTheSpecsLine() {
    #expect(
      ClassesView.countLine(Self.page(query: "anne", matching: 3), width: 40)
        == "3 of 351 classes match \"anne\"")
    #expect(ClassesView.countLine(Self.page(query: "", matching: 0), width: 40) == "351 classes")
  }

  @Test func withNoRoomForTheQueryTheWholeLineIsCut() {
    let line = ClassesView.countLine(Self.page(query: "anne", matching: 3), width: 20)
    #expect(line == "3 of 351 classes ma…")
  }
}
