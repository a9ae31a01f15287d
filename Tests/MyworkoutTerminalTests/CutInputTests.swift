import CNcurses
import MyworkoutView
import Testing

@testable import MyworkoutTerminal

/// Input cut short on the way (a paste whose end marker was lost, an escape sequence cut after
/// its first bytes) never swallows Ctrl-C: it always quits. Bracketed paste itself: the text
/// between the markers is one `.paste`.
@Suite struct CutInputTests {
  func decode(_ parts: [Int32?]) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for part in parts {
      if let scalar = part {
        decoder.decode(scalar, isFunctionKey: false, into: &keys)
      } else {
        decoder.endOfRead(into: &keys)
      }
    }
    return keys
  }

  static func text(_ text: String) -> [Int32?] { text.unicodeScalars.map { Int32($0.value) } }

  @Test func thePasteBetweenTheMarkersIsOneKey() {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    decoder.decode(KeyDecoder.pasteStart, isFunctionKey: true, into: &keys)
    for part in Self.text("ab\ncd") { decoder.decode(part!, isFunctionKey: false, into: &keys) }
    decoder.endOfRead(into: &keys)
    #expect(keys.isEmpty, "a paste goes on across reads")
    decoder.decode(KeyDecoder.pasteEnd, isFunctionKey: true, into: &keys)
    #expect(keys == [.paste("ab\ncd")])
  }

  @Test func ctrlCInAPasteWhoseEndWasLostEndsThePasteAndIsCtrlC() {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    decoder.decode(KeyDecoder.pasteStart, isFunctionKey: true, into: &keys)
    for part in Self.text("é中") { decoder.decode(part!, isFunctionKey: false, into: &keys) }
    decoder.endOfRead(into: &keys)
    decoder.decode(3, isFunctionKey: false, into: &keys)
    #expect(keys == [.paste("é中"), .control("c")])
    keys = []
    decoder.decode(Int32(UInt8(ascii: "x")), isFunctionKey: false, into: &keys)
    #expect(keys == [.character("x")], "typing after it is typing, not a paste")
  }

  /// A cut `ESC O` sequence (SS3, whose next character ends it) before Ctrl-C: the Ctrl-C is a
  /// key, not the sequence's end (the random-bytes test ended on `ESC O` and its Ctrl-C was
  /// lost about once in 20 runs).
  @Test func aControlCharacterEndsACutSequenceAndIsItsOwnKey() {
    #expect(decode(Self.text("\u{1B}O\u{03}")) == [.control("c")])
    #expect(decode(Self.text("\u{1B}[\u{03}")) == [.control("c")])
    #expect(decode(Self.text("\u{1B}OAx")) == [.character("x")], "SS3 A is an unknown key")
  }
}
