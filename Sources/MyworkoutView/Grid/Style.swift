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
  /// The cases, numbered for `code`; a new style needs a number here before `code` compiles.
  private enum Case: UInt64 {
    case normal, heading, label, hint, field, valid, invalid, button, buttonDisabled, error
    case success, notice, footer, spinner, border, match, header, avatar, pixels, colored, blank
  }

  /// The style as a number, one for each style: the case from bit 16 up, its payload below.
  /// `init(code:)` reads it back.
  var code: UInt64 {
    let (kind, payload): (Case, UInt64) =
      switch self {
      case .normal: (.normal, 0)
      case .heading: (.heading, 0)
      case .label: (.label, 0)
      case .hint: (.hint, 0)
      case .field: (.field, 0)
      case .valid: (.valid, 0)
      case .invalid: (.invalid, 0)
      case .button: (.button, 0)
      case .buttonDisabled: (.buttonDisabled, 0)
      case .error: (.error, 0)
      case .success: (.success, 0)
      case .notice: (.notice, 0)
      case .footer: (.footer, 0)
      case .spinner: (.spinner, 0)
      case .border: (.border, 0)
      case .match: (.match, 0)
      case .header: (.header, 0)
      case .avatar(let index): (.avatar, UInt64(index))
      case .pixels(let foreground, let background):
        (.pixels, UInt64(foreground) << 8 | UInt64(background))
      case .colored(let index): (.colored, UInt64(index))
      case .blank: (.blank, 0)
      }
    return kind.rawValue << 16 | payload
  }

  /// The style whose `code` this is (every case is decoded: the switch has no default).
  init(code: UInt64) {
    guard let kind = Case(rawValue: code >> 16) else { preconditionFailure("no style \(code)") }
    let payload = UInt8(truncatingIfNeeded: code)
    switch kind {
    case .normal: self = .normal
    case .heading: self = .heading
    case .label: self = .label
    case .hint: self = .hint
    case .field: self = .field
    case .valid: self = .valid
    case .invalid: self = .invalid
    case .button: self = .button
    case .buttonDisabled: self = .buttonDisabled
    case .error: self = .error
    case .success: self = .success
    case .notice: self = .notice
    case .footer: self = .footer
    case .spinner: self = .spinner
    case .border: self = .border
    case .match: self = .match
    case .header: self = .header
    case .avatar: self = .avatar(payload)
    case .pixels:
      self = .pixels(foreground: UInt8(truncatingIfNeeded: code >> 8), background: payload)
    case .colored: self = .colored(payload)
    case .blank: self = .blank
    }
  }
}
