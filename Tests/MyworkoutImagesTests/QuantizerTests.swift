import MyworkoutCore
import MyworkoutImages
import MyworkoutView
import TestProcesses
import Testing

/// Colours and the basic colour (0–7) nearest each.
let basicCases: [(RGB, UInt8)] = [
  (RGB(0, 0, 0), 0), (RGB(255, 0, 0), 1), (RGB(0, 255, 0), 2), (RGB(255, 255, 0), 3),
  (RGB(0, 0, 255), 4), (RGB(255, 0, 255), 5), (RGB(0, 255, 255), 6), (RGB(255, 255, 255), 7),
  (RGB(40, 40, 40), 0), (RGB(200, 200, 200), 7), (RGB(180, 30, 20), 1), (RGB(30, 40, 160), 4),
]

/// Nearest palette colours, measured in OKLab.
@Suite struct QuantizerTests {
  @Test func everyCubeAndRampColourMapsToItself() {
    var quantizer = ColorQuantizer(.xterm256)
    for index in UInt8(16)...255 {
      #expect(quantizer.index(for: XtermPalette.rgb(index)) == index)
    }
  }

  @Test func thePaletteIsXterms() {
    #expect(XtermPalette.rgb(16) == RGB(0, 0, 0))
    #expect(XtermPalette.rgb(196) == RGB(255, 0, 0))
    #expect(XtermPalette.rgb(67) == RGB(95, 135, 175))
    #expect(XtermPalette.rgb(231) == RGB(255, 255, 255))
    #expect(XtermPalette.rgb(232) == RGB(8, 8, 8))
    #expect(XtermPalette.rgb(255) == RGB(238, 238, 238))
    #expect(XtermPalette.rgb(9) == RGB(255, 0, 0))
  }

  /// Nearest by lightness, which is not linear in the byte value: 3 is perceptually nearer
  /// the ramp's 8 (232) than black (16).
  @Test(arguments: [
    (UInt8(0), UInt8(16)), (255, 231), (128, 244), (8, 232), (100, 241), (245, 255), (3, 232),
    (50, 236),
  ])
  func greysGoToTheNearestGrey(level: UInt8, index: UInt8) {
    var quantizer = ColorQuantizer(.xterm256)
    #expect(quantizer.index(for: RGB(level, level, level)) == index)
  }

  @Test func systemColoursAreNeverChosenFor256() {
    var quantizer = ColorQuantizer(.xterm256)
    for rgb in [RGB(205, 0, 0), RGB(0, 0, 238), RGB(229, 229, 229), RGB(127, 127, 127)] {
      #expect(quantizer.index(for: rgb) >= 16)
    }
  }

  @Test func nearColoursRoundToTheirCubeNeighbour() {
    var quantizer = ColorQuantizer(.xterm256)
    #expect(quantizer.index(for: RGB(250, 5, 3)) == 196)
    #expect(quantizer.index(for: RGB(0, 0, 250)) == 21)
    #expect(quantizer.index(for: RGB(100, 140, 170)) == 67)
  }

  @Test(arguments: basicCases)
  func eightColoursGoToTheNearestBasic(color: RGB, index: UInt8) {
    var quantizer = ColorQuantizer(.basic8)
    #expect(quantizer.index(for: color) == index)
  }

  @Test func rememberedAnswersMatchFreshOnes() {
    var warm = ColorQuantizer(.xterm256)
    var random = SplitMix64(seed: 7)
    let colors = (0..<500).map { _ in
      RGB(
        .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
        .random(in: 0...255, using: &random))
    }
    let first = colors.map { warm.index(for: $0) }
    let again = colors.map { warm.index(for: $0) }
    let fresh = colors.map { color in
      var quantizer = ColorQuantizer(.xterm256)
      return quantizer.index(for: color)
    }
    #expect(first == again)
    #expect(first == fresh)
  }
}
