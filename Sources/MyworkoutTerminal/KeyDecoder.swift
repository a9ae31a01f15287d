import CNcurses
import MyworkoutView

/// Turns what `get_wch` returns into `Key`s, gathering a bracketed paste into one `.paste`.
struct KeyDecoder {
  /// Key codes we ask ncurses to report for the bracketed-paste markers `ESC[200~`/`ESC[201~`.
  static let pasteStart: Int32 = KEY_MAX + 1
  static let pasteEnd: Int32 = KEY_MAX + 2

  static func defineKeys() {
    define_key("\u{1B}[200~", pasteStart)
    define_key("\u{1B}[201~", pasteEnd)
  }

  /// The text of a paste in progress, or nil outside a paste.
  private var paste: String?

  mutating func decode(_ value: Int32, isFunctionKey: Bool) -> Key? {
    if isFunctionKey {
      switch value {
      case Self.pasteStart:
        paste = ""
        return nil
      case Self.pasteEnd:
        defer { paste = nil }
        return paste.map(Key.paste)
      default:
        return functionKey(value)
      }
    }
    guard let scalar = Unicode.Scalar(UInt32(bitPattern: value)) else { return nil }
    if paste != nil {
      paste?.unicodeScalars.append(scalar)
      return nil
    }
    switch scalar.value {
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 1...26: return .control(Character(Unicode.Scalar(scalar.value + 96)!))
    case 0..<32: return nil
    default: return .character(Character(scalar))
    }
  }

  private func functionKey(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: .up
    case KEY_DOWN: .down
    case KEY_LEFT: .left
    case KEY_RIGHT: .right
    case KEY_HOME: .home
    case KEY_END: .end
    case KEY_BACKSPACE: .backspace
    case KEY_DC: .delete
    case KEY_ENTER: .enter
    case KEY_BTAB: .backTab
    default: nil
    }
  }
}
