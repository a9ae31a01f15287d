/// The xterm 256-colour palette: 16 system colours (xterm's defaults; terminals theme them),
/// a 6x6x6 colour cube (16–231) and a 24-step grey ramp (232–255).
package enum XtermPalette {
  /// The cube's channel levels.
  static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

  /// xterm's default system colours 0–15.
  static let system: [RGB] = [
    RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
    RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
    RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
    RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
  ]

  /// The colour an index shows in xterm (and, for 16–255, in practically every terminal).
  package static func rgb(_ index: UInt8) -> RGB {
    switch index {
    case 0..<16:
      return system[Int(index)]
    case 16..<232:
      let cube = Int(index) - 16
      return RGB(cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    default:
      let grey = UInt8(8 + 10 * (Int(index) - 232))
      return RGB(grey, grey, grey)
    }
  }
}
