/// Which colours a picture is drawn with: what the terminal can show.
package enum PictureColors: Hashable, Sendable {
  /// xterm's 256 colours (the cube and grey ramp, 16–255).
  case xterm256
  /// The 8 basic colours (0–7), for 8-colour terminals.
  case basic8
  /// No colour (`NO_COLOR` or a monochrome terminal): lightness as ` ░▒▓█`.
  case shades
}
