import CNcurses
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

  /// xterm's own terminfo (`xterm`, `xterm-256color`: the most common `TERM` there is) names
  /// `ESC [ <` as the mouse key, so ncurses gives KEY_MOUSE for the start of every report and
  /// leaves the rest. The rest is the same report, never typed text (a walk-through's click on
  /// the Player's bar typed `8` and `m`: a seek to 80 % and the mirror).
  @Test func aReportWhoseStartNcursesTookAsTheMouseKeyIsStillAClick() {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for report in ["0;101;58M", "0;101;58m", "65;3;4M"] {
      decoder.decode(KEY_MOUSE, isFunctionKey: true, into: &keys)
      for scalar in report.unicodeScalars {
        decoder.decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
      }
    }
    decoder.endOfRead(into: &keys)
    #expect(
      keys == [
        .mouse(MouseEvent(.press, row: 57, column: 100)),
        .mouse(MouseEvent(.wheelDown, row: 3, column: 2)),
      ])
  }

  /// A report split between two reads (a slow link, SSH) is still one click: the rest of it
  /// is never typed (a walk-through's split click sought to 30 % and then 80 %). Any other
  /// sequence cut at a read's end is dropped, as before.
  @Test func aReportSplitBetweenTwoReadsIsStillOneClick() {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for part in ["\u{1B}[<0;60", ";38M", "\u{1B}[<0;60;38m"] {
      for scalar in part.unicodeScalars {
        decoder.decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
      }
      decoder.endOfRead(into: &keys)
    }
    #expect(keys == [.mouse(MouseEvent(.press, row: 37, column: 59))])
    keys = []
    for part in ["\u{1B}[1;5", "x"] {
      for scalar in part.unicodeScalars {
        decoder.decode(Int32(scalar.value), isFunctionKey: false, into: &keys)
      }
      decoder.endOfRead(into: &keys)
    }
    #expect(keys == [.character("x")], "a cut key sequence is dropped, the next key typed")
  }

  @Test func aPressThenTypingInOneRead() {
    #expect(
      decode("\u{1B}[<0;2;3Mab")
        == [.mouse(MouseEvent(.press, row: 2, column: 1)), .character("a"), .character("b")])
  }
}
