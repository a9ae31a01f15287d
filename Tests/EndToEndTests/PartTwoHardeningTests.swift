import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension EndToEnd {
  /// Issue 24: the fuzz and signal checks of part one, run against each screen of part two
  /// (Classes, the Player, Lessons, Images): random bytes never crash a screen; Ctrl-S never
  /// freezes the app.
  @Suite(.timeLimit(.minutes(2)))
  struct PartTwoHardeningTests {
    /// A screen of part two and the keys that open it from Profile.
    enum Screen: String, CaseIterable, CustomTestStringConvertible {
      case classes, player, lessons, images
      var keys: [String] {
        switch self {
        case .classes: ["c"]
        case .player: ["c"]
        case .lessons: ["n"]
        case .images: ["i"]
        }
      }
      /// What the screen shows once open.
      var shows: String {
        switch self {
        case .classes: " classes"
        case .player: "Paused"
        case .lessons: "Lesson "
        case .images: " of "
        }
      }
      var testDescription: String { rawValue }
    }

    /// Bytes a terminal might send, or garbage: printable ASCII and UTF-8, control characters,
    /// cut escape sequences and mouse reports, stray UTF-8 continuation bytes. Leaves out only
    /// the keys that end the test's subject on purpose (Ctrl-C, Ctrl-Z, Ctrl-\, Ctrl-O, `q`,
    /// `l`).
    static func fuzz(seed: UInt64, count: Int) -> [UInt8] {
      var state = seed
      func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
      }
      let pieces: [[UInt8]] = [
        Array("\u{1B}[".utf8), Array("\u{1B}[<0;5;5M".utf8), Array("\u{1B}[<64;3;3M".utf8),
        Array("\u{1B}O".utf8), Array("\u{1B}[200~pasted\n\u{1B}[201~".utf8), [0x1B],
        Array("é中".utf8), [0x80], [0xC3], [0xFF], [0x09], [0x0D], [0x7F], [0x08], [0x00],
        Array("\u{1B}[A".utf8), Array("\u{1B}[6~".utf8), Array("\u{1B}[1;5H".utf8),
      ]
      let excluded: Set<UInt8> = [0x03, 0x1A, 0x1C, 0x0F, UInt8(ascii: "q"), UInt8(ascii: "l")]
      var bytes: [UInt8] = []
      while bytes.count < count {
        if next() % 3 == 0 {
          bytes += pieces[Int(next() % UInt64(pieces.count))]
        } else {
          let byte = UInt8(next() % 128)
          if !excluded.contains(byte) { bytes.append(byte) }
        }
      }
      return bytes
    }

    /// Ctrl-S (XOFF) used to stop the terminal's output: the app then hung in its next write,
    /// deaf to keys and signals, until Ctrl-Q. Flow control is off while the app runs.
    @Test func ctrlSNeitherFreezesTheScreenNorTheApp() throws {
      let app = try TerminalSession()
      try app.launchShell()
      try app.waitFor("$")
      try app.type(
        "stty -g > before; sh -c '\"$APP\" --latency 0s; exit $?'; echo \"status=$?\"; "
          + "stty -g > after; cmp -s before after && echo modes-re\"\"stored")
      try app.press("Enter")
      try app.waitFor("Myworkout GO")
      try app.press("C-s")
      try app.type("zoe@x.co")
      try app.waitFor("[zoe@x.co ")
      let shell = try #require(try app.childPID())
      let pid = try #require(try app.childPID(of: shell))
      kill(pid, SIGTERM)
      let end = try app.waitFor("modes-restored")
      #expect(end.contains("status=143"))
      #expect(try app.terminalLooksRestored())
    }

    @Test(arguments: Screen.allCases)
    func randomBytesNeverCrashAScreen(screen: Screen) throws {
      let app = try TerminalSession()
      try app.launch(["--latency", "0s"])
      try app.waitFor("Myworkout GO")
      try app.submitEmail("registered@email.com", expecting: "Welcome back")
      try app.logIn()
      for key in screen.keys { try app.press(key) }
      if screen == .player {
        try app.waitFor("Hip Hop Foundations")
        try app.press("Tab", "Enter")
      }
      try app.waitFor(screen.shows)
      let bytes = Self.fuzz(
        seed: UInt64(Screen.allCases.firstIndex(of: screen) ?? 0) + 24, count: 600)
      for chunk in stride(from: 0, to: bytes.count, by: 40) {
        try app.send(bytes: Array(bytes[chunk..<min(chunk + 40, bytes.count)]))
      }
      // Still running and drawing; Ctrl-C still ends it as a key, with its status.
      try app.waitUntil("the app still drawing after the fuzz") { $0.contains("Ctrl-C quit") }
      try app.press("C-c")
      #expect(try app.waitForExit() == 130)
    }
  }
}
