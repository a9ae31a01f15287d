import MyworkoutCore

/// How a lesson's colours look in the terminal: the perceptually nearest of xterm's 256
/// colours, found by the same quantiser as pictures. No colour, and a colour whose nearest is
/// pure black or pure white (`#000000` and `#FFFFFF` first of all), is the terminal's default
/// foreground, so the text reads on dark and light backgrounds alike. Without colours
/// (`NO_COLOR`) the terminal shows `.colored` text plainly.
struct LessonColors {
  /// The cube's pure black and pure white.
  static let extremes: Set<UInt8> = [16, 231]

  private var quantizer = ColorQuantizer(.xterm256)

  mutating func style(for colour: RGBColor?) -> Style {
    guard let colour, !colour.isPureWhiteOrBlack else { return .normal }
    let index = quantizer.index(for: RGB(colour.red, colour.green, colour.blue))
    return Self.extremes.contains(index) ? .normal : .colored(index)
  }
}
