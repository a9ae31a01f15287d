import Testing

@testable import MyworkoutCore

@Suite struct RGBColorTests {
  @Test(arguments: [
    ("#FF0000", RGBColor(red: 255, green: 0, blue: 0)),
    ("#0000ff", RGBColor(red: 0, green: 0, blue: 255)),
    ("#1a2B3c", RGBColor(red: 0x1A, green: 0x2B, blue: 0x3C)),
    ("#F0a", RGBColor(red: 255, green: 0, blue: 0xAA)),
    ("#888", RGBColor(red: 0x88, green: 0x88, blue: 0x88)),
  ])
  func parses(hex: String, colour: RGBColor) {
    #expect(RGBColor(hex: hex) == colour)
  }

  @Test(arguments: [
    "", "#", "FF0000", "#FF000", "#FF00000", "#FF0000FF", "#GG0000", " #FF0000", "#FF0000 ",
    "red", "#ff", "##F00", "#F00\n", "#ＦＦ0000",
  ])
  func rejects(_ hex: String) {
    #expect(RGBColor(hex: hex) == nil)
  }

  @Test func pureWhiteAndBlack() {
    #expect(RGBColor(hex: "#FFFFFF")!.isPureWhiteOrBlack)
    #expect(RGBColor(hex: "#fff")!.isPureWhiteOrBlack)
    #expect(RGBColor(hex: "#000000")!.isPureWhiteOrBlack)
    #expect(!RGBColor(hex: "#FEFEFE")!.isPureWhiteOrBlack)
    #expect(!RGBColor(hex: "#010000")!.isPureWhiteOrBlack)
    #expect(!RGBColor(hex: "#FF0000")!.isPureWhiteOrBlack)
  }
}
