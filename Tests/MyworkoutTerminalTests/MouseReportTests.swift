import MyworkoutView
import Testing

@testable import MyworkoutTerminal

/// xterm's SGR mouse reports (`ESC [ < b ; x ; y M`), decoded by the app, not by ncurses.
@Suite struct MouseReportTests {
  func decode(_ text: String) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for scalar in text.unicodeScalars {
      decoder.decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
    }
    decoder.endOfRead(into: &keys)
    return keys
  }

  @Test func pressesAndWheelTurnsBecomeMouseKeysAtCellsFromZero() {
    #expect(decode("\u{1B}[<0;12;5M") == [.mouse(MouseEvent(.press, row: 4, column: 11))])
    #expect(decode("\u{1B}[<64;1;1M") == [.mouse(MouseEvent(.wheelUp, row: 0, column: 0))])
    #expect(decode("\u{1B}[<65;200;60M") == [.mouse(MouseEvent(.wheelDown, row: 59, column: 199))])
    // With Ctrl held (16) it is still a press.
    #expect(decode("\u{1B}[<16;3;3M") == [.mouse(MouseEvent(.press, row: 2, column: 2))])
  }

  @Test func releasesMotionOtherButtonsAndJunkAreDroppedWithoutTypingAnything() {
    #expect(decode("\u{1B}[<0;12;5m").isEmpty, "a release")
    #expect(decode("\u{1B}[<32;12;5M").isEmpty, "motion with the button down")
    #expect(decode("\u{1B}[<2;12;5M").isEmpty, "the right button")
    #expect(decode("\u{1B}[<0;0;5M").isEmpty, "no column 0 in a report")
    #expect(decode("\u{1B}[<1;2;3;4M").isEmpty, "four fields")
    #expect(decode("\u{1B}[<0;12M").isEmpty)
  }

  @Test func aPressThenTypingInOneRead() {
    #expect(
      decode("\u{1B}[<0;2;3Mab")
        == [.mouse(MouseEvent(.press, row: 2, column: 1)), .character("a"), .character("b")])
  }
}
