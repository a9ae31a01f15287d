import CNcurses
import MyworkoutView
import Testing

@testable import MyworkoutTerminal

/// Bracketed paste: the text between the markers is one `.paste`; a paste whose end marker was
/// lost (a cut sequence, a terminal's garbled output) must not swallow Ctrl-C for ever.
@Suite struct PasteTests {
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
}
