import Testing

@testable import MyworkoutTerminal

/// The fallbacks for picture cells on terminals with fewer than 256 colours or none.
@Suite struct PalettePixelsTests {
  @Test func theBasicColoursStay() {
    #expect((0...7).map { Palette.basic(UInt8($0)) } == Array(0...7))
    #expect((8...15).map { Palette.basic(UInt8($0)) } == Array(0...7))
  }

  @Test(arguments: [
    (UInt8(16), Int32(0)), (196, 1), (46, 2), (226, 3), (21, 4), (201, 5), (51, 6), (231, 7),
    // Level 1 (95) is nearer 0, level 2 (135) nearer 205.
    (59, 0), (102, 7), (52, 0), (88, 1),
    // The grey ramp: dark to black, light to white.
    (232, 0), (241, 0), (242, 7), (255, 7),
  ])
  func cubeAndRampGoToTheNearestBasic(index: UInt8, basic: Int32) {
    #expect(Palette.basic(index) == basic)
  }

  @Test func lightnessRisesAlongTheRampAndCube() {
    let ramp = (232...255).map { Palette.lightness(UInt8($0)) }
    #expect(ramp == ramp.sorted() && Set(ramp).count == ramp.count)
    #expect(Palette.lightness(16) == 0)
    #expect(Palette.lightness(231) == 255)
    #expect(Palette.lightness(46) > Palette.lightness(196))  // green looks lighter than red
    #expect(Palette.lightness(196) > Palette.lightness(21))  // and red than blue
    #expect(Palette.lightness(15) > Palette.lightness(7))
  }
}
