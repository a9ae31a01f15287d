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

extension Style {
  /// The style as a number, one for each style: the case from bit 16 up, its payload below.
  /// `init(code:)` reads it back.
  var code: UInt64 {
    switch self {
    case .normal: 0
    case .heading: 1 << 16
    case .label: 2 << 16
    case .hint: 3 << 16
    case .field: 4 << 16
    case .valid: 5 << 16
    case .invalid: 6 << 16
    case .button: 7 << 16
    case .buttonDisabled: 8 << 16
    case .error: 9 << 16
    case .success: 10 << 16
    case .notice: 11 << 16
    case .footer: 12 << 16
    case .spinner: 13 << 16
    case .border: 14 << 16
    case .match: 15 << 16
    case .header: 16 << 16
    case .avatar(let index): 17 << 16 | UInt64(index)
    case .pixels(let foreground, let background):
      18 << 16 | UInt64(foreground) << 8 | UInt64(background)
    case .colored(let index): 19 << 16 | UInt64(index)
    case .blank: 20 << 16
    }
  }

  /// The style whose `code` this is.
  init(code: UInt64) {
    let payload = UInt8(truncatingIfNeeded: code)
    switch code >> 16 {
    case 1: self = .heading
    case 2: self = .label
    case 3: self = .hint
    case 4: self = .field
    case 5: self = .valid
    case 6: self = .invalid
    case 7: self = .button
    case 8: self = .buttonDisabled
    case 9: self = .error
    case 10: self = .success
    case 11: self = .notice
    case 12: self = .footer
    case 13: self = .spinner
    case 14: self = .border
    case 15: self = .match
    case 16: self = .header
    case 17: self = .avatar(payload)
    case 18: self = .pixels(foreground: UInt8(truncatingIfNeeded: code >> 8), background: payload)
    case 19: self = .colored(payload)
    case 20: self = .blank
    default: self = .normal
    }
  }
}
