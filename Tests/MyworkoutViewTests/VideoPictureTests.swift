import Testing

@testable import MyworkoutCore
@testable import MyworkoutView

/// Video pictures as cells (SPEC §19): quarter blocks with two colours, mirrored on `m`, and
/// only the cells that changed sent, in one synchronized update.
@Suite struct VideoPictureTests {
  /// A picture of `width`x`height` pixels, each from `colour(x, y)`.
  static func picture(_ width: Int, _ height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8))
    -> VideoPicture
  {
    var rgb: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let (r, g, b) = colour(x, y)
        rgb += [r, g, b]
      }
    }
    return VideoPicture(width: width, height: height, rgb: rgb)
  }

  static let halves = picture(4, 2) { x, _ in x < 2 ? (255, 0, 0) : (0, 0, 255) }

  @Test func aSolidColourIsASpaceOnThatBackground() {
    var quantizer = VideoQuantizer(colors: .direct)
    let cells = QuarterBlocks.cells(
      Self.picture(2, 2) { _, _ in (10, 200, 30) }, columns: 1, rows: 1, mirrored: false,
      colors: .direct, quantizer: &quantizer)
    #expect(cells == [BlockCell(glyph: 0, foreground: 0x0A_C8_1E, background: 0x0A_C8_1E)])
  }

  @Test func eachCellTakesTheShapeThatLosesLeast() {
    var quantizer = VideoQuantizer(colors: .direct)
    // Left column red, right blue: `▌` red on blue.
    let split = QuarterBlocks.cells(
      Self.picture(2, 2) { x, _ in x == 0 ? (255, 0, 0) : (0, 0, 255) }, columns: 1, rows: 1,
      mirrored: false, colors: .direct, quantizer: &quantizer)
    #expect(QuarterBlocks.glyphs[Int(split[0].glyph)] == "▌")
    #expect(split[0].foreground == 0xFF_00_00 && split[0].background == 0x00_00_FF)
    // Bottom row white: `▄`.
    let bottom = QuarterBlocks.cells(
      Self.picture(2, 2) { _, y in y == 1 ? (255, 255, 255) : (0, 0, 0) }, columns: 1, rows: 1,
      mirrored: false, colors: .direct, quantizer: &quantizer)
    #expect(QuarterBlocks.glyphs[Int(bottom[0].glyph)] == "▄")
    #expect(bottom[0].foreground == 0xFF_FF_FF)
  }

  @Test func mirroringSwapsTheHalves() {
    var quantizer = VideoQuantizer(colors: .direct)
    let plain = QuarterBlocks.cells(
      Self.halves, columns: 2, rows: 1, mirrored: false, colors: .direct, quantizer: &quantizer)
    let mirrored = QuarterBlocks.cells(
      Self.halves, columns: 2, rows: 1, mirrored: true, colors: .direct, quantizer: &quantizer)
    #expect(plain.map(\.background) == [0xFF_00_00, 0x00_00_FF])
    #expect(mirrored.map(\.background) == [0x00_00_FF, 0xFF_00_00])
  }

  @Test func thePaletteAndNoColourGetTheirOwnCells() {
    var palette = VideoQuantizer(colors: .palette256)
    let red = QuarterBlocks.cells(
      Self.picture(2, 2) { _, _ in (255, 0, 0) }, columns: 1, rows: 1, mirrored: false,
      colors: .palette256, quantizer: &palette)
    #expect(red[0].background == 196, "xterm's pure red")
    var none = VideoQuantizer(colors: .shades)
    let shades = QuarterBlocks.cells(
      Self.picture(4, 2) { x, _ in x < 2 ? (0, 0, 0) : (255, 255, 255) }, columns: 2, rows: 1,
      mirrored: false, colors: .shades, quantizer: &none)
    #expect(shades.map { QuarterBlocks.shades[Int($0.glyph)] } == [" ", "█"])
  }

  @Test func onlyChangedCellsAreSentAndAnIdenticalPictureSendsNothing() {
    var canvas = VideoCanvas(colors: .direct)
    let region = VideoRegion(rect: Rect(x: 10, y: 3, width: 2, height: 1), mirrored: false)
    let first = String(decoding: canvas.paint(Self.halves, in: region), as: UTF8.self)
    #expect(first.hasPrefix("\u{1B}[?2026h\u{1B}7"), "one synchronized update, cursor saved")
    #expect(first.hasSuffix("\u{1B}[0m\u{1B}8\u{1B}[?2026l"))
    #expect(first.contains("\u{1B}[4;11H"), "row 3 column 10, one-based")
    #expect(first.contains("48;2;255;0;0") && first.contains("48;2;0;0;255"))
    #expect(canvas.paint(Self.halves, in: region).isEmpty, "the same picture: nothing")
    // The right half turns green: one cell, its colour, no move back to the first.
    let green = Self.picture(4, 2) { x, _ in x < 2 ? (255, 0, 0) : (0, 255, 0) }
    let second = String(decoding: canvas.paint(green, in: region), as: UTF8.self)
    #expect(second.contains("\u{1B}[4;12H"))
    #expect(!second.contains("\u{1B}[4;11H"))
    #expect(!second.contains("255;0;0"))
    canvas.invalidate()
    #expect(canvas.paint(green, in: region).count > second.count, "after ncurses drew: whole")
  }

  /// SPEC §19: 24-bit where COLORTERM says so, else 256, 16 or 8 colours as the terminal has;
  /// NO_COLOR (or fewer than 8) shading.
  @Test func theBestColoursTheTerminalHas() {
    #expect(VideoColors.choose(colorCount: 256, noColor: false, colorTerm: "truecolor") == .direct)
    #expect(VideoColors.choose(colorCount: 256, noColor: false, colorTerm: nil) == .palette256)
    #expect(VideoColors.choose(colorCount: 88, noColor: false, colorTerm: nil) == .basic16)
    #expect(VideoColors.choose(colorCount: 16, noColor: false, colorTerm: nil) == .basic16)
    #expect(VideoColors.choose(colorCount: 8, noColor: false, colorTerm: nil) == .basic8)
    #expect(VideoColors.choose(colorCount: 256, noColor: true, colorTerm: "24bit") == .shades)
    #expect(VideoColors.choose(colorCount: 2, noColor: false, colorTerm: nil) == .shades)
  }

  /// The bytes of one cell in each colour mode: the move, both colours in one SGR, the glyph.
  @Test(arguments: [
    (VideoColors.direct, "\u{1B}[38;2;255;0;0;48;2;0;0;255m▌"),
    (.palette256, "\u{1B}[38;5;196;48;5;21m▌"),
    (.basic16, "\u{1B}[91;44m▌"),
    (.basic8, "\u{1B}[31;44m▌"),
  ])
  func aCellIsSentAsItsColoursAndItsGlyph(colors: VideoColors, bytes: String) {
    var canvas = VideoCanvas(colors: colors)
    let region = VideoRegion(rect: Rect(x: 119, y: 9, width: 1, height: 1), mirrored: false)
    let split = Self.picture(2, 2) { x, _ in x == 0 ? (255, 0, 0) : (0, 0, 255) }
    let sent = String(decoding: canvas.paint(split, in: region), as: UTF8.self)
    #expect(sent == "\u{1B}[?2026h\u{1B}7\u{1B}[10;120H" + bytes + "\u{1B}[0m\u{1B}8\u{1B}[?2026l")
  }

  /// The decoder's noise (a still colour moving by 1 or 2) is not sent; a change the eye sees
  /// is, and a slow fade is sent once it adds up, measured from what the screen shows.
  @Test func noiseIsNotSentAndAFadeIsSentAsItAddsUp() {
    var canvas = VideoCanvas(colors: .direct)
    let region = VideoRegion(rect: Rect(x: 0, y: 0, width: 1, height: 1), mirrored: false)
    func grey(_ level: UInt8) -> VideoPicture {
      Self.picture(2, 2) { _, _ in (level, level, level) }
    }
    #expect(!canvas.paint(grey(100), in: region).isEmpty)
    #expect(canvas.paint(grey(102), in: region).isEmpty, "2 of 255: noise")
    #expect(canvas.paint(grey(98), in: region).isEmpty)
    let fade = String(decoding: canvas.paint(grey(104), in: region), as: UTF8.self)
    #expect(fade.contains("48;2;104;104;104"), "4 from the 100 shown: sent")
    #expect(canvas.paint(grey(106), in: region).isEmpty)
    #expect(!canvas.paint(grey(108), in: region).isEmpty)
    // A palette index that changes is always sent.
    var palette = VideoCanvas(colors: .palette256)
    _ = palette.paint(Self.picture(2, 2) { _, _ in (255, 0, 0) }, in: region)
    #expect(!palette.paint(Self.picture(2, 2) { _, _ in (0, 0, 255) }, in: region).isEmpty)
  }

  /// The Player of a class with a video, `duration` seconds long.
  static func player(duration: Int) -> PlayerState {
    PlayerState(
      danceClass: DanceClass(
        id: "c1", title: "Waacking 101", instructor: "Ada", level: .beginner, song: "Song",
        videoURL: "v", thumbnailSlug: "", duration: duration))
  }

  /// A loop within one second says its tenths (a walk-through read `Loop 00:30–00:30` for
  /// 30.0–30.6 s); a longer one its seconds, as before.
  @Test(arguments: [
    (30_000, 30_600, "Loop 00:30.0–00:30.6"), (30_050, 31_900, "Loop 00:30–00:31"),
  ])
  func aLoopWithinOneSecondSaysItsTenths(start: Int, end: Int, text: String) {
    var player = Self.player(duration: 100)
    player.playback = .paused
    player.video = .showing
    player.loop = LoopMarks(start: start, end: end)
    var grid = Grid(width: 80, height: 22)
    _ = PlayerView.draw(player, into: &grid, area: Rect(width: 80, height: 22))
    #expect(grid.text.contains(text), "\(grid.text)")
  }

  @Test func thePlayerLeavesTheVideoRegionBlankAndSaysWhatTheVideoDoes() {
    var player = Self.player(duration: 100)
    player.playback = .paused
    player.video = .showing
    player.videoFit = VideoFit(
      tile: TileSize(columns: 76, rows: 14), videoWidth: 320, videoHeight: 180)
    player.soundNote = "no sound"
    player.loop = LoopMarks(start: 10_000, end: 20_000)
    var grid = Grid(width: 80, height: 22)
    _ = PlayerView.draw(player, into: &grid, area: Rect(width: 80, height: 22))
    #expect(
      grid.video == VideoRegion(rect: Rect(x: 15, y: 3, width: 50, height: 14), mirrored: false))
    #expect(grid.text.contains("❚❚ Paused  no sound  Loop 00:10–00:20"))
    player.video = .failed("file not found")
    var failed = Grid(width: 80, height: 22)
    _ = PlayerView.draw(player, into: &failed, area: Rect(width: 80, height: 22))
    #expect(failed.video == nil)
    #expect(failed.text.contains("❚❚ Paused  No video: file not found"))
  }

  /// A 100-s class playing at 00:31, past the end of its 20.4-s clip.
  static func pastEnd() -> PlayerState {
    var player = player(duration: 100)
    player.playback = .playing
    player.video = .pastEnd
    player.videoDuration = 20_400
    player.position = 31_000
    return player
  }

  /// A clip that ended before its class's listed end: its last picture stays where it was,
  /// and the state line says where the video ends while the clock plays on.
  @Test func aVideoPastItsEndKeepsItsPictureAndSaysWhereItEnded() {
    var player = Self.pastEnd()
    player.mirrored = true
    player.videoFit = VideoFit(
      tile: TileSize(columns: 76, rows: 14), videoWidth: 320, videoHeight: 180)
    var grid = Grid(width: 80, height: 22)
    _ = PlayerView.draw(player, into: &grid, area: Rect(width: 80, height: 22))
    #expect(
      grid.video == VideoRegion(rect: Rect(x: 15, y: 3, width: 50, height: 14), mirrored: true))
    #expect(PlayerView.videoText(player) == "The video ends at 00:20  Mirrored")
    #expect(grid.text.contains("The video ends at 00:20"), "\(grid.text)")
  }

  /// Past a clip's end its last picture is on screen and the class goes on: `m` mirrors it,
  /// `l` sets A–B on the clock (a B after the clip's end could not be set), and `f` leaves the
  /// full view it is in (a walk-through's `f` stayed in it). Steps and sound are the video's:
  /// none is playing.
  @Test func pastAClipsEndThePicturesKeysStillWork() {
    var player = Self.pastEnd()
    player.fullScreen = true
    let keys = PlayerKeys.map(player)
    #expect(keys.action(for: .character("m")) == .player(.mirrorPressed))
    #expect(keys.action(for: .character("l")) == .player(.loopPressed))
    #expect(keys.action(for: .character("f")) == .player(.fullScreenPressed))
    #expect(keys.action(for: .character(",")) == nil)
    #expect(keys.action(for: .character("s")) == nil)
    #expect(keys.bindings.contains { $0.hint?.keys == "m" }, "the footer offers m")
  }

  /// The picture takes the rows the fixed parts leave, from 3 up, and blank rows go around it
  /// only when it keeps 3 (at 40x12 a walk-through saw four blank rows and no picture); the
  /// view draws it in the rows the decoder sizes it for, and a taller terminal never gets a
  /// smaller picture.
  @Test func thePictureTakesTheRowsTheFixedPartsLeave() {
    var last = 0
    for height in 4...40 {
      let size = TerminalSize(width: 40, height: height)
      let tile = PlayerLayout.pictureTile(for: size)
      let area = Rect(width: 40, height: PlayerLayout.contentHeight(for: size))
      let picture = PlayerView.layout(in: area).picture
      #expect(picture.height == tile.rows, "\(height) rows")
      #expect(tile.rows >= last, "\(height) rows")
      last = tile.rows
    }
    #expect(PlayerLayout.pictureTile(for: TerminalSize(width: 40, height: 12)).rows == 3)
    #expect(PlayerLayout.pictureTile(for: TerminalSize(width: 80, height: 24)).rows == 14)
  }

  /// Full view on a narrow terminal: the times row keeps what fits whole (a time left cut to a
  /// stray `0` read as a time). At the right, the time left as §12 writes it (it was the
  /// class's length, which a walk-through took for a mistake).
  @Test func theFullViewsTimesRowDropsWhatDoesNotFitWhole() {
    var player = Self.player(duration: 60)
    player.playback = .playing
    player.video = .showing
    player.fullScreen = true
    player.position = 30_000
    for (width, row) in [
      (14, "▶ 00:30"), (15, "▶ 00:30  -00:30"), (21, "▶ 00:30 ███─── -00:30"),
    ] {
      var grid = Grid(width: width, height: 4)
      PlayerView.drawFullScreen(player, into: &grid, area: Rect(width: width, height: 4))
      let last = grid.text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
      #expect(last.trimmingCharacters(in: .whitespaces) == row, "at \(width) columns")
    }
  }

  /// Full view of a video that waits (loading, a try of a stream, buffering) says so on its
  /// last row where a bar still fits beside it: the still picture and times read as a frozen
  /// app to a walk-through.
  @Test func theFullViewsTimesRowSaysWhenThePictureWaits() {
    var player = Self.player(duration: 60)
    player.playback = .playing
    player.fullScreen = true
    player.position = 30_000
    for (video, width, row) in [
      (VideoPhase.loading, 40, "▶ 00:30 Loading video… █████───── -00:30"),
      (.buffering, 40, "▶ 00:30 Buffering… ███████─────── -00:30"),
      (.loading, 34, "▶ 00:30 Loading video… ██── -00:30"),
      (.loading, 33, "▶ 00:30 █████████───────── -00:30"),
    ] {
      player.video = video
      var grid = Grid(width: width, height: 4)
      PlayerView.drawFullScreen(player, into: &grid, area: Rect(width: width, height: 4))
      let last = grid.text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
      #expect(last.trimmingCharacters(in: .whitespaces) == row, "\(video) at \(width) columns")
    }
  }

  /// A class's pattern (no thumbnail) in any area, down to one cell: drawn clipped, never a
  /// crash (an area narrower than the pattern made a backward range: full view while a video
  /// loads, on a narrow terminal).
  @Test func aClassPatternFitsAnyArea() {
    for width in 0...20 {
      for height in 0...6 {
        var grid = Grid(width: 22, height: 8)
        ClassPattern.draw(
          id: "c0ffee00", colors: .basic8, into: &grid,
          area: Rect(x: 1, y: 1, width: width, height: height))
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        let outside = lines.enumerated().contains { row, line in
          line.enumerated().contains { column, character in
            character != " " && !(1...max(1, height)).contains(row)
              || character != " "
                && !(1...max(1, width)).contains(column)
          }
        }
        #expect(!outside || width == 0 || height == 0, "\(width)x\(height): drawn outside")
      }
    }
  }

  /// A narrow state line drops the video's words from the last: at 40x12 a walk-through saw
  /// `▶ Playing` alone, for 10 s, while the video was tried again (`Loading video…  no sound`
  /// did not fit beside the speed, and went whole).
  @Test func aNarrowStateLineKeepsTheVideosFirstWords() {
    var player = Self.player(duration: 100)
    player.playback = .playing
    player.video = .loading
    player.soundNote = "no sound"
    player.speed = PlaybackSpeed(hundredths: 200)
    player.loop = LoopMarks(start: 10_000)
    for (width, line) in [
      (60, "▶ Playing  Loading video…  no sound  Loop from 00:10"),
      (44, "▶ Playing  Loading video…  no sound"), (40, "▶ Playing  Loading video…"),
    ] {
      var grid = Grid(width: width, height: 12)
      _ = PlayerView.draw(player, into: &grid, area: Rect(width: width, height: 12))
      let row = grid.text.split(separator: "\n").first { $0.contains("▶ Playing") } ?? ""
      #expect(
        row.trimmingCharacters(in: .whitespaces).hasPrefix(line + " ")
          && row.hasSuffix("2×"), "at \(width): \(row)")
    }
  }

  /// Too narrow for the video's words whole (a 30-column terminal), the state line says them
  /// short rather than not at all: nothing told why the picture stood still or was missing.
  @Test func aVeryNarrowStateLineSaysTheVideoShort() {
    var player = Self.pastEnd()
    player.videoDuration = 5_000
    player.playback = .paused
    var grid = Grid(width: 30, height: 10)
    _ = PlayerView.draw(player, into: &grid, area: Rect(width: 30, height: 10))
    #expect(grid.text.contains("❚❚ Paused  Ends at 00:05"), "\(grid.text)")
    player.video = .failed("not found (404)")
    var failed = Grid(width: 30, height: 10)
    _ = PlayerView.draw(player, into: &failed, area: Rect(width: 30, height: 10))
    #expect(failed.text.contains("❚❚ Paused  No video"), "\(failed.text)")
  }

  /// The state line says the picture is mirrored (a symmetric picture would not show it), and
  /// with no sound device a volume key does not pretend there is sound.
  @Test func theStateLineSaysMirroredAndNoSoundOverTheVolume() {
    var player = Self.player(duration: 100)
    player.playback = .playing
    player.video = .showing
    player.mirrored = true
    #expect(PlayerView.videoText(player) == "Mirrored")
    player.soundNote = "no sound: no server or device"
    player.volumeNote = 1
    #expect(PlayerView.videoText(player) == "no sound: no server or device  Mirrored")
    player.soundNote = "sound off"
    #expect(PlayerView.videoText(player) == "Volume 100%  sound off  Mirrored")
    player.video = .failed("file not found")
    #expect(PlayerView.videoText(player) == "No video: file not found", "no picture to mirror")
  }
}
