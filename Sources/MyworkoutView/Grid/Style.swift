/// What a cell means; the terminal adapter decides how that looks (colour or, with `NO_COLOR`
/// or a monochrome terminal, attributes only). Views never name colours.
package enum Style: Hashable, Sendable {
  case normal
  case heading
  case label
  case hint
  case field
  case valid
  case invalid
  case button
  case buttonDisabled
  case error
  case success
  case notice
  case footer
  case spinner
  case border
  /// The part of a text a search matched.
  case match
  /// The header line of signed-in screens.
  case header
  /// One of the identicon colours (0..<Style.avatarColorCount).
  case avatar(UInt8)
  /// One cell of a picture drawn with `▀`: the upper half in xterm 256-colour index
  /// `foreground`, the lower half in `background` (0–7 are the basic colours).
  case pixels(foreground: UInt8, background: UInt8)
  /// Text in xterm 256-colour index 16–255 on the terminal's own background (a lesson's
  /// coloured code); plain without colours.
  case colored(UInt8)
  /// What the person typed into a lesson's blank: underlined, so the blank's extent shows.
  case blank

  package static let avatarColorCount: UInt8 = 6
}
