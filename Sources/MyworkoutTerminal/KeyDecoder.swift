import CNcurses
import MyworkoutView

/// Turns what `wgetch` returns (bytes and function keys) into `Key`s, putting UTF-8 together and
/// gathering a bracketed paste into one `.paste`. A byte that is not UTF-8, or that cuts a
/// character short, is dropped alone: the bytes after it are read as they are.
/// Home and End are understood in every common form whatever terminfo says; an Esc followed in
/// the same read by a character (Alt+letter) or by the rest of a sequence no key definition
/// matched (`ESC [ 1 ; 5 H`) is ignored, never taken for Esc and typed text. Mouse reports come
/// in xterm's SGR form (`ESC [ < button ; column ; row M`, `m` for a release), decoded here
/// rather than by ncurses, whose own mouse parser can block waiting for bytes.
struct KeyDecoder {
  /// Key codes we ask ncurses to report for the bracketed-paste markers `ESC[200~`/`ESC[201~`.
  static let pasteStart: Int32 = KEY_MAX + 1
  static let pasteEnd: Int32 = KEY_MAX + 2

  /// Home and End as xterm, VT220, rxvt and others send them, with the keypad in either mode.
  static let homeSequences = ["\u{1B}[1~", "\u{1B}[7~", "\u{1B}[H", "\u{1B}OH"]
  static let endSequences = ["\u{1B}[4~", "\u{1B}[8~", "\u{1B}[F", "\u{1B}OF"]
  /// The arrows as terminals that ignore keypad-transmit mode send them (terminfo names the
  /// `ESC O` forms), and F1 as rxvt, VT220s and the Linux console send it.
  static let otherForms: [(String, Int32)] = [
    ("\u{1B}[A", KEY_UP), ("\u{1B}[B", KEY_DOWN), ("\u{1B}[C", KEY_RIGHT), ("\u{1B}[D", KEY_LEFT),
    ("\u{1B}[11~", KEY_F0 + 1), ("\u{1B}[[A", KEY_F0 + 1),
  ]

  static func defineKeys() {
    // No mouse key: xterm's own terminfo (`xterm`, `xterm-256color`) names `ESC [ <` as one,
    // and ncurses would take every report's start and leave the rest as typed text. Reports
    // are read here, whole (and a KEY_MOUSE that comes anyway starts one, see `decode`).
    define_key(nil, KEY_MOUSE)
    define_key("\u{1B}[200~", pasteStart)
    define_key("\u{1B}[201~", pasteEnd)
    for sequence in homeSequences { define_key(sequence, KEY_HOME) }
    for sequence in endSequences { define_key(sequence, KEY_END) }
    for (sequence, key) in otherForms { define_key(sequence, key) }
  }

  /// The text of a paste in progress, or nil outside a paste.
  private var paste: String?
  /// Nothing decoded yet in this read.
  private var readStarts = true
  /// In a paste, Ctrl-C, Ctrl-Z or Ctrl-\ began this read: a person's key if nothing follows
  /// it in the read.
  private var controlBeganRead: Unicode.Scalar?
  /// The keys that end a paste whose end marker was lost when typed alone: quit, stop, quit.
  private static let escapesFromAPaste: Set<UInt32> = [3, 26, 28]

  /// Where an escape sequence that ncurses did not recognise stands.
  private enum Escape: Equatable {
    case none
    /// An Esc was read: it is the Esc key if the read ends here or a control key follows.
    case started
    /// Inside `ESC [ ...`: its parameter bytes so far, up to its final byte.
    case controlSequence([UInt8])
    /// After `ESC O`: the next character ends it.
    case singleShift
    /// `ESC [` ended a read: a mouse report cut there if the next read starts with `<`, else
    /// Alt+[ (nothing), and what follows is read as it is.
    case cutAfterBracket
  }

  private var escape = Escape.none

  /// A UTF-8 character begun: its value so far, how many continuation bytes it still needs,
  /// and the least value it may have (a longer form than needed is not UTF-8).
  private struct BegunCharacter {
    var value: UInt32
    var needed: Int
    var least: UInt32
  }

  private var character: BegunCharacter?

  /// Decodes one byte read from the terminal. A character's bytes may come over several reads
  /// (a slow link); a byte that cannot go on with it drops it and is decoded on its own.
  mutating func decode(byte: UInt8, into keys: inout [Key]) {
    if var begun = character {
      if byte & 0xC0 == 0x80 {
        begun.value = begun.value << 6 | UInt32(byte & 0x3F)
        begun.needed -= 1
        guard begun.needed == 0 else {
          character = begun
          return
        }
        character = nil
        if begun.value >= begun.least, let scalar = Unicode.Scalar(begun.value) {
          decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
        }
        return
      }
      character = nil
    }
    switch byte {
    case 0x00...0x7F: decode(Int32(byte), isFunctionKey: false, into: &keys)
    case 0xC2...0xDF:
      character = BegunCharacter(value: UInt32(byte & 0x1F), needed: 1, least: 0x80)
    case 0xE0...0xEF:
      character = BegunCharacter(value: UInt32(byte & 0x0F), needed: 2, least: 0x800)
    case 0xF0...0xF4:
      character = BegunCharacter(value: UInt32(byte & 0x07), needed: 3, least: 0x1_0000)
    default: break  // a continuation byte with nothing begun, or a byte UTF-8 never uses
    }
  }

  /// Decodes one character (put together by `decode(byte:)`) or function key, appending the
  /// keys it completes to `keys`.
  mutating func decode(_ value: Int32, isFunctionKey: Bool, into keys: inout [Key]) {
    let startsRead = readStarts
    readStarts = false
    if let control = controlBeganRead {
      // Followed in its read (by a character or a key): the paste's own.
      controlBeganRead = nil
      paste?.unicodeScalars.append(control)
    }
    if isFunctionKey {
      character = nil
      if escape == .started { keys.append(.escape) }
      escape = .none
      switch value {
      case Self.pasteStart:
        paste = ""
      case Self.pasteEnd:
        if let text = paste { keys.append(.paste(text)) }
        paste = nil
      case KEY_MOUSE:
        // The start of the only reports the app asks for (SGR, `ESC [ <`), taken by ncurses
        // as the mouse key: the rest of the report follows.
        escape = .controlSequence([UInt8(ascii: "<")])
      default:
        if let key = functionKey(value) { keys.append(key) }
      }
      return
    }
    guard let scalar = Unicode.Scalar(UInt32(bitPattern: value)) else { return }
    if paste != nil {
      // A Ctrl-C, Ctrl-Z or Ctrl-\ alone in its read (a person's key) is that key: in a paste
      // whose end marker was lost (cut or garbled on the way) it ends the paste, which would
      // otherwise take every key as text for ever (see `endOfRead`). Any other is the paste's
      // own (a walk-through pasted `abc^Cdef`), dropped with its other control characters when
      // it is inserted.
      if Self.escapesFromAPaste.contains(scalar.value), startsRead {
        controlBeganRead = scalar
      } else {
        paste?.unicodeScalars.append(scalar)
      }
      return
    }
    guard continueEscape(scalar, into: &keys) else { return }
    if scalar.value == 27 {
      escape = .started
    } else if let key = Self.key(for: scalar) {
      keys.append(key)
    }
  }

  /// The read is over: an Esc with nothing after it is the Esc key; an unfinished sequence is
  /// dropped, except a mouse report's start (`ESC [ <…`, or `ESC [` if the next read starts
  /// with `<`), whose rest a slow link brings in the next read: it is never typed as keys.
  mutating func endOfRead(into keys: inout [Key]) {
    readStarts = true
    if let control = controlBeganRead, let text = paste {
      controlBeganRead = nil
      keys.append(.paste(text))
      paste = nil
      if let key = Self.key(for: control) { keys.append(key) }
    }
    if escape == .started { keys.append(.escape) }
    if case .controlSequence(let parameters) = escape {
      if parameters.isEmpty {
        escape = .cutAfterBracket
        return
      }
      if parameters.first == UInt8(ascii: "<") { return }
    }
    escape = .none
  }

  /// Feeds `scalar` to an escape in progress; false when it belonged to the escape, true when
  /// it is to be decoded on its own.
  private mutating func continueEscape(_ scalar: Unicode.Scalar, into keys: inout [Key]) -> Bool {
    let value = scalar.value
    switch escape {
    case .none:
      return true
    case .cutAfterBracket:
      escape = .none
      guard value == UInt32(UInt8(ascii: "<")) else { return true }
      escape = .controlSequence([UInt8(ascii: "<")])
      return false
    case .singleShift:
      // Its next character ends it, unless that is a control character (a cut sequence):
      // then the character is a key of its own, so a Ctrl-C after a cut `ESC O` still quits.
      escape = .none
      return value < 0x20 || value == 0x7F
    case .controlSequence(var parameters):
      // Parameter and intermediate bytes continue it, a final byte ends it.
      if (0x20...0x3F).contains(value) {
        if parameters.count < 32 { parameters.append(UInt8(value)) }
        escape = .controlSequence(parameters)
        return false
      }
      escape = .none
      guard (0x40...0x7E).contains(value) else { return true }
      if let event = Self.mouse(parameters, final: UInt8(value)) { keys.append(.mouse(event)) }
      return false
    case .started:
      escape = .none
      switch value {
      case 0x5B:  // [
        escape = .controlSequence([])
        return false
      case 0x4F:  // O
        escape = .singleShift
        return false
      case 0x20...0x7E, 0xA0...:  // Alt and a character: no key
        return false
      default:  // Esc, then a control key such as another Esc or Enter
        keys.append(.escape)
        return true
      }
    }
  }

  /// An SGR mouse report (`< button ; column ; row`, final `M` for a press, `m` for a release),
  /// or nil for anything else, a release, or a button the app does not use. Cells count from 1.
  static func mouse(_ parameters: [UInt8], final: UInt8) -> MouseEvent? {
    guard parameters.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") else { return nil }
    let fields = parameters.dropFirst().split(separator: UInt8(ascii: ";")).map {
      Int(String(decoding: $0, as: UTF8.self))
    }
    guard fields.count == 3, let button = fields[0], let column = fields[1], let row = fields[2],
      column >= 1, row >= 1
    else { return nil }
    let kind: MouseEvent.Kind
    switch button & ~0b1_1100 {  // shift, alt and ctrl bits do not matter here
    case 0: kind = .press
    case 64: kind = .wheelUp
    case 65: kind = .wheelDown
    default: return nil
    }
    guard button & 32 == 0 else { return nil }  // motion
    return MouseEvent(kind, row: row - 1, column: column - 1)
  }

  private static func key(for scalar: Unicode.Scalar) -> Key? {
    switch scalar.value {
    case 9: .tab
    case 10, 13: .enter
    case 8, 127: .backspace
    case 1...26: .control(Character(Unicode.Scalar(scalar.value + 96)!))
    // The terminal's quit key, read as a key (`mw_interrupt_key_as_input`).
    case 28: .control("\\")
    case 0..<32, 0x80..<0xA0: nil
    default: .character(Character(scalar))
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
    case KEY_PPAGE: .pageUp
    case KEY_NPAGE: .pageDown
    case KEY_F0 + 1...KEY_F0 + 12: .function(Int(code - KEY_F0))
    default: nil
    }
  }
}
