import MyworkoutCore
import MyworkoutView
import Testing

/// The Player as a person sees it (SPEC §12): paused with `Resume at`, playing at a speed,
/// Finished, an hour-long class, a small terminal; and a click on the bar.
@Suite struct PlayerSnapshotTests {
  static let item = DanceClass(
    id: "9f2c41d07be3a65c", title: "Waacking 101: Arms and Attitude", instructor: "Zoë Okafor",
    level: .intermediate, song: "Disco Lights", videoURL: "v", thumbnailSlug: "", duration: 600)

  /// The Player opened from Profile › Classes, its stored progress read.
  static func state(_ item: DanceClass = item, stored: ClassProgress, speed: Int = 100)
    -> AppState
  {
    var state = AppState.launch(with: .valid(ScreenSnapshotTests.session))
    state.startSpeed = PlaybackSpeed(hundredths: speed)
    var list = ClassesState()
    list.results = CatalogPage(
      query: "", offset: 0, classes: [item], matching: 1, isCapped: false, total: 1)
    list.load = .loaded
    list.focus = .list
    guard case .signedIn(var signedIn) = state.root else { fatalError("signed in") }
    signedIn.path = [.classes(list)]
    state.root = .signedIn(signedIn)
    _ = reduce(&state, .classes(.enterPressed))
    _ = reduce(&state, .player(.progressLoaded(.success(stored))))
    _ = reduce(&state, .clockRead(WallTime(milliseconds: 0)))
    return state
  }

  func render(_ state: AppState, _ width: Int = 80, _ height: Int = 24) -> Grid {
    Renderer.render(state, width: width, height: height)
  }

  @Test func pausedWhereThePersonLeftOff() {
    let stored = ClassProgress(
      lastPosition: 65_000, watched: IntervalSet([0..<150_000]), timeInClass: 190_000)
    assertSnapshot(render(Self.state(stored: stored)), named: "player-resume")
  }

  @Test func playingAtOneAndAHalfTimes() {
    var state = Self.state(stored: ClassProgress(), speed: 150)
    _ = reduce(&state, .player(.playPausePressed))
    // Ticks of 250 ms for 43.4 s: 65.1 s of media at 1.5×.
    for tick in stride(from: 250, through: 43_500, by: 250) {
      _ = reduce(&state, .clockRead(WallTime(milliseconds: Int64(tick))))
    }
    let grid = render(state)
    assertSnapshot(grid, named: "player-playing")
    #expect(grid.cursor == nil, "no cursor on the Player")
  }

  /// A subtitle too wide for the line cuts the song with `…` while a few of its characters
  /// fit, before leaving it out (a walk-through's long instructor hid the song whole).
  @Test(arguments: [
    (80, "Instructor With A Really Long Name Indeed · Intermediate · A song title tha…"),
    (40, "Zoë Okafor · Intermediate · Disco L…"),
    (30, "Zoë Okafor · Intermediate"),
  ])
  func aLongSubtitleCutsTheSongBeforeLeavingItOut(width: Int, line: String) {
    let long = DanceClass(
      id: "0b", title: "Long", instructor: "Instructor With A Really Long Name Indeed",
      level: .intermediate, song: "A song title that is also very long indeed", videoURL: "v",
      thumbnailSlug: "", duration: 600)
    let text = render(Self.state(width == 80 ? long : Self.item, stored: ClassProgress()), width)
      .text
    let subtitle = text.split(separator: "\n").first { $0.contains("Intermediate") }
    #expect(subtitle?.trimmingCharacters(in: .whitespaces) == line)
  }

  /// Without a song, the level is never cut: it goes whole or not at all (a review).
  @Test func withoutASongTheLevelIsNotCut() {
    let songless = DanceClass(
      id: "0c", title: "Songless", instructor: "Zoë Okafor Lennox", level: .intermediate,
      song: "", videoURL: "v", thumbnailSlug: "", duration: 600)
    let text = render(Self.state(songless, stored: ClassProgress()), 30).text
    let subtitle = text.split(separator: "\n").first { $0.contains("Lennox") }
    #expect(subtitle?.trimmingCharacters(in: .whitespaces) == "Zoë Okafor Lennox")
  }

  @Test func finishedAnHourLongClass() {
    let long = DanceClass(
      id: "0a", title: "Marathon", instructor: "Bea", level: .advanced, song: "", videoURL: "v",
      thumbnailSlug: "", duration: 3_725)
    var state = Self.state(long, stored: ClassProgress())
    _ = reduce(&state, .player(.seekToEndPressed(last: true)))
    assertSnapshot(render(state), named: "player-finished-hour")
  }

  @Test func aSmallTerminalKeepsTheControls() {
    let stored = ClassProgress(lastPosition: 300_000, watched: IntervalSet([0..<300_000]))
    let grid = render(Self.state(stored: stored), 40, 12)
    assertSnapshot(grid, named: "player-40x12")
    #expect(grid.text.contains("Watched 50%"))
  }

  /// `q` leaves for Classes and Esc goes back (from the full-screen picture, to the Player):
  /// §12, §19.
  @Test func qLeavesAndEscGoesBack() {
    let state = Self.state(stored: ClassProgress())
    let q = KeyBindings.action(for: .character("q"), in: state, width: 80, height: 24)
    #expect(q == .player(.leavePressed))
    let escape = KeyBindings.action(for: .escape, in: state, width: 80, height: 24)
    #expect(escape == .player(.backPressed))
  }

  /// The clock is read when the bar next moves an eighth of a cell, for a bar
  /// `PlayerLayout.barWidth` cells wide: the one drawn.
  @Test(arguments: [40, 80, 133])
  func theBarIsAsWideAsTheClockReckons(width: Int) {
    var state = Self.state(stored: ClassProgress())
    state.display.size = TerminalSize(width: width, height: 24)
    let bar = render(state, width, 24).lines.first { $0.contains("─────") } ?? ""
    let cells = bar.filter { "█▉▊▋▌▍▎▏─".contains($0) }
      .count
    #expect(cells == PlayerLayout.barWidth(for: state.display.size))
  }

  @Test func aClickOnTheBarSeeksThereAndTheKeysPanelListsEveryKey() {
    var state = Self.state(stored: ClassProgress())
    // 80 columns: the bar runs from column 2 to 77; its header line is row 0.
    let grid = render(state)
    let barRow = grid.lines.firstIndex { $0.contains("─────") }!
    let click = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: barRow, column: 2 + 38)), in: state, width: 80,
      height: 24)
    #expect(click == .player(.barClicked(milliseconds: 300_000)))
    let end = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: barRow, column: 77)), in: state, width: 80, height: 24)
    #expect(end == .player(.barClicked(milliseconds: 600_000)))
    _ = reduce(&state, .keysPanelToggled)
    assertSnapshot(render(state), named: "player-keys")
  }

  /// Full view (`f`): the bar is on the last row, and a click there seeks; a click where the
  /// normal view's bar would be (now picture) does nothing. A walk-through's clicks on the
  /// visible bar did nothing, and one on the picture seeked.
  @Test func inFullViewAClickOnTheLastRowsBarSeeks() {
    let base = PlayerAtEverySizeTests.with(Self.state(stored: ClassProgress())) {
      $0.video = .showing
    }
    let normalBarRow = render(base).lines.firstIndex { $0.contains("─────") }!
    var state = base
    _ = reduce(&state, .player(.fullScreenPressed))
    let lines = render(state).lines
    #expect(lines.firstIndex { $0.contains("─────") } == 23)
    // `❚❚ 00:00 ` then the bar up to ` -10:00`: columns 9 to 72, 64 cells.
    let bar = lines[23]
    let barStart = bar.distance(
      from: bar.startIndex, to: bar.firstIndex { "█▉▊▋▌▍▎▏─".contains($0) }!)
    let barEnd = bar.distance(
      from: bar.startIndex, to: bar.lastIndex { "█▉▊▋▌▍▎▏─".contains($0) }!)
    let width = barEnd - barStart + 1
    let middle = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: 23, column: barStart + width / 2)), in: state,
      width: 80, height: 24)
    #expect(middle == .player(.barClicked(milliseconds: 600_000 * (width / 2) / width)))
    let end = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: 23, column: barEnd)), in: state, width: 80, height: 24)
    #expect(end == .player(.barClicked(milliseconds: 600_000)))
    let onThePicture = KeyBindings.action(
      for: .mouse(MouseEvent(.press, row: normalBarRow, column: 40)), in: state, width: 80,
      height: 24)
    #expect(onThePicture == nil)
  }
}

/// Issue 24, item 7: the `Keys` panel at 40x12 wraps its descriptions at words, keeps every
/// row (scrolling to the last), and ↓/PgDn/End/the wheel scroll it.
@Suite struct KeysPanelTests {
  let getStarted = AppState.launch(with: .none)
  let profile = AppState.launch(with: .valid(ScreenSnapshotTests.session))

  /// The lines of the `Keys` panel drawn over a screen (tall enough to show them all).
  func panelLines(_ state: AppState) -> [String] {
    var state = state
    _ = reduce(&state, .keysPanelToggled)
    return Renderer.render(state, width: 80, height: 40).lines.filter { $0.contains("│ ") }
  }

  /// A spec walk-through: every screen's `Keys` panel lists Ctrl-Z (it suspends everywhere,
  /// SPEC §5) just before Ctrl-C, and a form's panel names ↑ once, under "move back" (↓ under
  /// "move"), though its footer keeps the short `Tab/↑↓ move`.
  @Test func theKeysPanelListsSuspendAndEachArrowOnce() {
    let login = AppState(
      root: .signedOut(SignedOut(path: [.login(LoginForm(email: "a@b.co"))])))
    let signup = AppState(
      root: .signedOut(SignedOut(path: [.signup(SignupForm(email: "a@b.co"))])))
    for state in [
      getStarted, login, signup, profile, AppState.launch(with: .invalid),
      PlayerSnapshotTests.state(stored: ClassProgress()),
    ] {
      let lines = panelLines(state)
      let suspend = lines.firstIndex { $0.contains("Ctrl-Z") && $0.contains("suspend") }
      let quit = lines.firstIndex { $0.contains("Ctrl-C") && $0.contains("quit") }
      #expect(suspend != nil, "\(lines.joined(separator: "\n"))")
      #expect(suspend.map { $0 + 1 } == quit, "\(lines.joined(separator: "\n"))")
    }
    for state in [getStarted, login, signup] {
      let lines = panelLines(state)
      let arrowsUp = lines.filter { $0.contains("↑") }
      #expect(arrowsUp.count == 1, "\(lines.joined(separator: "\n"))")
      #expect(arrowsUp.first?.contains("Shift-Tab/↑") == true)
      #expect(arrowsUp.first?.contains("move back") == true)
      #expect(lines.contains { $0.contains("Tab/↓") && $0.contains("move") })
      #expect(KeyBindings.hints(for: state).map(\.text).contains("Tab/↑↓ move"))
    }
  }

  static func playerWithKeys() -> AppState {
    var state = PlayerSnapshotTests.state(stored: ClassProgress())
    _ = reduce(&state, .keysPanelToggled)
    return state
  }

  @Test func at40x12ItWrapsAndScrollsToEveryRow() {
    var state = Self.playerWithKeys()
    var screen = Renderer.render(state, width: 40, height: 12).text
    #expect(screen.contains("Keys"))
    #expect(screen.contains("↓ more"))
    #expect(!screen.contains("Ctrl-C    quit"), "not all in view at once:\n\(screen)")
    // No description is cut mid-word: every word shown is a whole word of the help.
    #expect(screen.contains("play/pause (on Finished:"), "\(screen)")
    #expect(screen.contains("play from the start)"), "wrapped, not cut:\n\(screen)")

    var seen = screen
    for _ in 0..<30 {
      guard let action = KeyBindings.action(for: .down, in: state, width: 40, height: 12) else {
        break
      }
      _ = reduce(&state, action)
      screen = Renderer.render(state, width: 40, height: 12).text
      seen += screen
    }
    #expect(state.keysScroll > 0)
    #expect(screen.contains("↑ more"))
    #expect(!screen.contains("↓ more"), "at the end:\n\(screen)")
    #expect(seen.contains("?/F1"))
    #expect(screen.contains("Ctrl-C"), "the last row in view:\n\(screen)")

    // Home goes back to the top; End and PgDn go down; the wheel too.
    _ = reduce(&state, KeyBindings.action(for: .home, in: state, width: 40, height: 12)!)
    #expect(state.keysScroll == 0)
    _ = reduce(&state, KeyBindings.action(for: .pageDown, in: state, width: 40, height: 12)!)
    #expect(state.keysScroll > 1)
    _ = reduce(&state, KeyBindings.action(for: .end, in: state, width: 40, height: 12)!)
    let end = state.keysScroll
    let wheel = Key.mouse(MouseEvent(.wheelUp, row: 5, column: 20))
    _ = reduce(&state, KeyBindings.action(for: wheel, in: state, width: 40, height: 12)!)
    #expect(state.keysScroll < end)
    _ = reduce(&state, KeyBindings.action(for: .escape, in: state, width: 40, height: 12)!)
    #expect(!state.showsKeys)
  }

  @Test func at80x24EverythingFitsAndNothingScrolls() {
    let state = Self.playerWithKeys()
    let screen = Renderer.render(state, width: 80, height: 24).text
    #expect(screen.contains("Ctrl-C"))
    #expect(!screen.contains("more"))
    #expect(KeyBindings.action(for: .down, in: state, width: 80, height: 24) == nil)
  }
}

/// Issue 24, item 8: at small sizes parts are dropped whole (a label or a field), never cut
/// mid-word, and Get started keeps its hint while there is room for it.
@Suite struct SmallSizeTests {
  @Test func thePlayerAt20x6DropsWholeParts() {
    var state = PlayerSnapshotTests.state(
      stored: ClassProgress(
        lastPosition: 65_000, watched: IntervalSet([0..<150_000]), timeInClass: 61_000),
      speed: 150)
    let grid = Renderer.render(state, width: 20, height: 6)
    assertSnapshot(grid, named: "player-20x6")
    let text = grid.text
    #expect(!text.contains("e in class"), "\(text)")
    #expect(text.contains("Watched 25%"), "\(text)")
    #expect(text.contains("01:05"), "\(text)")
    #expect(text.contains("❚❚ Paused"), "\(text)")
    #expect(!text.contains("Resume a"), "dropped whole:\n\(text)")
    // Wider, the time in class comes back whole.
    _ = reduce(&state, .terminalResized(TerminalSize(width: 40, height: 12)))
    #expect(Renderer.render(state, width: 40, height: 12).text.contains("Time in class 01:01"))
  }

  /// Where the state and the video's words do not fit together, the state stays: `❚❚ Paused`
  /// at 20x6, not `no sound` (a walk-through saw the state dropped).
  @Test func atTwentyColumnsTheStateOutlivesTheVideosWords() {
    var state = PlayerSnapshotTests.state(stored: ClassProgress())
    guard case .signedIn(var signedIn) = state.root,
      case .player(var player)? = signedIn.path.last
    else {
      Issue.record("a Player")
      return
    }
    player.video = .showing
    player.soundNote = "no sound"
    signedIn.path[signedIn.path.count - 1] = .player(player)
    state.root = .signedIn(signedIn)
    let text = Renderer.render(state, width: 20, height: 6).text
    #expect(text.contains("❚❚ Paused"), "\(text)")
    #expect(Renderer.render(state, width: 40, height: 12).text.contains("❚❚ Paused  no sound"))
  }

  @Test func getStartedAt40x12KeepsItsHint() {
    let grid = Renderer.render(.launch(with: .none), width: 40, height: 12)
    assertSnapshot(grid, named: "get-started-40x12")
    #expect(grid.text.contains("Enter your email"), "\(grid.text)")
    #expect(grid.text.contains("[ Browse classes ]"))
  }
}
