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
    #expect(input.keys == [.paste("é中"), .control("c")])
    input.keys = []
    input.type("x")
    #expect(input.keys == [.character("x")], "typing after it is typing, not a paste")
  }

  /// A cut `ESC O` sequence (SS3, whose next character ends it) before Ctrl-C: the Ctrl-C is a
  /// key, not the sequence's end (the random-bytes test ended on `ESC O` and its Ctrl-C was
  /// lost about once in 20 runs).
  @Test func aControlCharacterEndsACutSequenceAndIsItsOwnKey() {
    #expect(Self.keys("\u{1B}O\u{03}") == [.control("c")])
    #expect(Self.keys("\u{1B}[\u{03}") == [.control("c")])
    #expect(Self.keys("\u{1B}OAx") == [.character("x")], "SS3 A is an unknown key")
  }
}
