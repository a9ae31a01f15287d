import CNcurses
import MyworkoutView
import Testing

@testable import MyworkoutTerminal

/// Input cut short on the way (a paste whose end marker was lost, an escape sequence cut after
/// its first bytes) never swallows Ctrl-C: it always quits. Bracketed paste itself: the text
/// between the markers is one `.paste`.
@Suite struct CutInputTests {
  /// A decoder fed as the app feeds it, and the keys it has made so far.
  struct Input {
    var decoder = KeyDecoder()
    var keys: [Key] = []

    mutating func type(_ text: String) {
      for scalar in text.unicodeScalars {
        decoder.decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
      }
    }

    mutating func functionKey(_ code: Int32) {
      decoder.decode(code, isFunctionKey: true, into: &keys)
    }

    mutating func endOfRead() { decoder.endOfRead(into: &keys) }

    /// Bytes as the terminal sends them (the app reads bytes and puts UTF-8 together).
    mutating func send(_ bytes: [UInt8]) {
      for byte in bytes { decoder.decode(byte: byte, into: &keys) }
    }
  }

  /// The keys `text` makes, typed in one read not yet over.
  static func keys(_ text: String) -> [Key] {
    var input = Input()
    input.type(text)
    return input.keys
  }

  @Test func thePasteBetweenTheMarkersIsOneKey() {
    var input = Input()
    input.functionKey(KeyDecoder.pasteStart)
    input.type("ab\ncd")
    input.endOfRead()
    #expect(input.keys.isEmpty, "a paste goes on across reads")
    input.functionKey(KeyDecoder.pasteEnd)
    #expect(input.keys == [.paste("ab\ncd")])
  }

  @Test func ctrlCInAPasteWhoseEndWasLostEndsThePasteAndIsCtrlC() {
    var input = Input()
    input.functionKey(KeyDecoder.pasteStart)
    input.type("é中")
    input.endOfRead()
    input.type("\u{03}")
    input.endOfRead()
    #expect(input.keys == [.paste("é中"), .control("c")])
    input.keys = []
    input.type("x")
    #expect(input.keys == [.character("x")], "typing after it is typing, not a paste")
  }

  /// A Ctrl-C inside a paste's read is the paste's (dropped with its other control
  /// characters when it is inserted), not the key: a walk-through's paste of `abc^Cdef` quit
  /// the app. Only a Ctrl-C that starts a read of its own ends a paste whose end was lost.
  @Test func ctrlCWithinAPastesTextIsPartOfThePaste() {
    var input = Input()
    input.functionKey(KeyDecoder.pasteStart)
    input.type("abc\u{03}def")
    input.endOfRead()
    input.type("\u{1A}gh\u{1C}")
    input.endOfRead()
    // A paste that comes over several reads (ssh, a big paste): one may begin with its Ctrl-C.
    input.type("\u{03}ij")
    input.endOfRead()
    input.type("\u{03}")
    input.functionKey(KeyDecoder.pasteEnd)
    #expect(input.keys == [.paste("abc\u{03}def\u{1A}gh\u{1C}\u{03}ij\u{03}")])
  }

  /// Ctrl-Z and Ctrl-\\ are keys (the terminal sends no signals for them: see
  /// `mw_interrupt_key_as_input`).
  @Test func ctrlZAndCtrlBackslashAreKeys() {
    #expect(Self.keys("\u{1A}\u{1C}") == [.control("z"), .control("\\")])
  }

  /// Ctrl-Z or Ctrl-\\ alone in its read also ends a paste whose end marker was lost (a
  /// walk-through's lost marker swallowed every key but Ctrl-C, Ctrl-Z too).
  @Test func ctrlZAloneInItsReadEndsAPasteWhoseEndWasLost() {
    var input = Input()
    input.functionKey(KeyDecoder.pasteStart)
    input.type("xyz")
    input.endOfRead()
    input.type("\u{1A}")
    input.endOfRead()
    #expect(input.keys == [.paste("xyz"), .control("z")])
  }

  /// A cut `ESC O` sequence (SS3, whose next character ends it) before Ctrl-C: the Ctrl-C is a
  /// key, not the sequence's end (the random-bytes test ended on `ESC O` and its Ctrl-C was
  /// lost about once in 20 runs).
  @Test func aControlCharacterEndsACutSequenceAndIsItsOwnKey() {
    #expect(Self.keys("\u{1B}O\u{03}") == [.control("c")])
    #expect(Self.keys("\u{1B}[\u{03}") == [.control("c")])
    #expect(Self.keys("\u{1B}OAx") == [.character("x")], "SS3 A is an unknown key")
  }

  /// UTF-8 put together from bytes: a character may come over several reads; a byte that is
  /// not UTF-8, or that cuts a character short, is dropped alone and the next byte is read as it
  /// is (ncurses' `get_wch` lost up to 16 bytes after one, a Ctrl-C among them).
  @Test func bytesThatAreNotUTF8AreDroppedAloneAndLoseNothingAfterThem() {
    var input = Input()
    input.send([0xC3])  // é's first byte
    input.endOfRead()
    input.send([0xA9] + Array("中".utf8))
    #expect(input.keys == [.character("é"), .character("中")], "a character split over reads")
    input.keys = []
    input.send([0xFF, 0x61, 0x80, 0x62, 0xC3, 0x63, 0xE4, 0xB8, 0x03])
    #expect(input.keys == [.character("a"), .character("b"), .character("c"), .control("c")])
    input.keys = []
    // Longer forms than needed, a surrogate and a value past U+10FFFF are not UTF-8.
    input.send([0xE0, 0x80, 0xAF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x64])
    #expect(input.keys == [.character("d")])
    input.keys = []
    input.send([0xC3])
    input.functionKey(KEY_UP)
    input.send([0xA9, 0x65])
    #expect(input.keys == [.up, .character("e")], "a function key cuts a character short")
  }

  /// Alt+[ is `ESC [` at the end of a read, which could also be a mouse report cut after its
  /// first bytes (the rest comes in the next read, starting with `<`). Anything else next is
  /// typed as it is: Alt+[ then `ef` lost the `e` (taken for the sequence's end), and digits and
  /// spaces as its parameters (a walk-through's finding).
  @Test func altBracketThenKeysLosesNothing() {
    var input = Input()
    input.type("\u{1B}[")
    input.endOfRead()
    input.type("ef")
    #expect(input.keys == [.character("e"), .character("f")])
    input.keys = []
    input.type("\u{1B}[")
    input.endOfRead()
    input.type("12 3")
    #expect(input.keys == "12 3".map { .character($0) })
    input.keys = []
    input.type("\u{1B}[")
    input.endOfRead()
    input.type("<0;5;7M")
    #expect(input.keys == [.mouse(MouseEvent(.press, row: 6, column: 4))], "a mouse report cut")
  }
}
