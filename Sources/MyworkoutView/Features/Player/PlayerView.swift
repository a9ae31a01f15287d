import MyworkoutCore

/// The Player (SPEC §12), full width: the class title as heading; instructor, level and song;
/// the picture area (the thumbnail, or a pattern drawn from the class id); the state line; the
/// elapsed and remaining times; the progress bar across the width; watched % and time in
/// class. Only the times, the bar and the counters change while playing, so a second of
/// playback sends the terminal a few dozen bytes.
enum PlayerView {
  /// The rectangles of the parts, top to bottom; the picture takes what the others leave and
  /// goes first when the terminal is short, then the details line.
  struct Layout {
    var heading: Rect
    var details: Rect
    var picture: Rect
    var state: Rect
    var times: Rect
    var bar: Rect
    var watched: Rect
  }

  static func layout(in area: Rect) -> Layout {
    let inner = area.inset(left: PlayerLayout.margin, right: PlayerLayout.margin)
    let space = PlayerLayout.pictureRows(contentHeight: area.height)
    let medium = area.height >= 6
    let rows = inner.rows([
      .fixed(1), .fixed(medium ? 1 : 0), .fixed(space.above), .fill(), .fixed(space.below),
      .fixed(1), .fixed(1), .fixed(1), .fixed(1),
    ])
    return Layout(
      heading: rows[0], details: rows[1],
      picture: space.picture > 0 ? rows[3] : Rect(width: 0, height: 0),
      state: rows[5], times: rows[6], bar: rows[7], watched: rows[8])
  }

  static func draw(_ state: PlayerState, into grid: inout Grid, area: Rect) -> Position? {
    guard !area.isEmpty else { return nil }
    let parts = layout(in: area)
    let item = state.danceClass
    centered(item.title, in: parts.heading, style: .heading, into: &grid)
    centered(
      detailsLine([item.instructor, item.level.title, item.song], width: parts.details.width),
      in: parts.details, style: .hint, into: &grid)
    drawPicture(state, into: &grid, area: parts.picture)
    drawStateLine(state, into: &grid, area: parts.state)
    let hours = state.duration >= 3_600_000
    let elapsed = PlayTime.text(seconds: state.position / 1000, hours: hours)
    spread(
      [(elapsed, timeLeft(state)), (elapsed, "")], in: parts.times, style: .normal, into: &grid)
    drawBar(position: state.position, duration: state.duration, into: &grid, area: parts.bar)
    drawLoopMarks(state, into: &grid, area: parts.bar)
    let watched = "\(state.watchedPercent)%"
    let time = PlayTime.text(
      seconds: state.timeInClass / 1000, hours: state.timeInClass >= 3_600_000)
    spread(
      [
        ("Watched " + watched, "Time in class " + time), ("Watched " + watched, "In class " + time),
        ("Watched " + watched, ""), (watched, ""),
      ], in: parts.watched, style: .label, into: &grid)
    return nil
  }

  /// Instructor, level and song: all of them; else the song cut with `…` where a few of its
  /// characters still fit; else as many as fit whole (then the instructor cut with `…`).
  static func detailsLine(_ parts: [String], width: Int) -> String {
    let details = parts.filter { !$0.isEmpty }
    let whole = (1...max(1, details.count)).reversed().map {
      details.prefix($0).joined(separator: " · ")
    }
    if let all = whole.first, DisplayWidth.of(all) <= width { return all }
    // Only the song is cut so (without one, the level would be).
    if details.count > 1, let last = details.last, last == parts.last {
      let head = details.dropLast().joined(separator: " · ") + " · "
      let room = width - DisplayWidth.of(head)
      if room >= 6 { return head + TextBlock.truncated(last, width: room) }
    }
    return fittingVariant(Array(whole.dropFirst()), width: width) ?? details.first ?? ""
  }

  /// The first of `variants` (fullest first) that fits `width` whole, or nil.
  static func fittingVariant(_ variants: [String], width: Int) -> String? {
    variants.first { DisplayWidth.of($0) <= width }
  }

  /// A line with a part at the left and one at the right (two spaces apart at least): the
  /// first of `variants` that fits, so a narrow terminal drops a label or a field whole and
  /// never cuts one.
  private static func spread(
    _ variants: [(left: String, right: String)], in area: Rect, style: Style,
    into grid: inout Grid
  ) {
    guard !area.isEmpty else { return }
    let fits = { (variant: (left: String, right: String)) -> Bool in
      let right = DisplayWidth.of(variant.right)
      return DisplayWidth.of(variant.left) + (right > 0 ? right + 2 : 0) <= area.width
    }
    guard let chosen = variants.first(where: fits) else { return }
    grid.put(chosen.left, row: 0, column: 0, in: area, style: style)
    if !chosen.right.isEmpty {
      grid.put(
        chosen.right, row: 0, column: area.width - DisplayWidth.of(chosen.right), in: area,
        style: style)
    }
  }

  /// Where the video's frames go in the picture area, once it shows (SPEC §19).
  static func videoRegion(_ state: PlayerState, area: Rect) -> VideoRegion? {
    guard state.video.showsPicture, let fit = state.videoFit,
      fit.columns > 0
    else { return nil }
    let rect = Rect(
      x: area.x + fit.left, y: area.y + fit.top, width: min(fit.columns, area.width - fit.left),
      height: min(fit.rows, area.height - fit.top))
    return VideoRegion(rect: rect, mirrored: state.mirrored)
  }

  /// The video's word after the state: `Loading video…`, `Buffering…`, `No video: <reason>`,
  /// then the volume for 2 s after ↑/↓ (not over `no sound`), `no sound` / `sound off`, the
  /// loop, and `Mirrored`.
  static func videoText(_ state: PlayerState) -> String {
    videoParts(state).joined(separator: "  ")
  }

  /// The video's state in a word or two, for a state line too narrow for its whole words
  /// (nothing while the class itself says `Loading…`).
  static func shortVideoText(_ state: PlayerState) -> String? {
    switch state.video {
    case .none, .showing: nil
    case .loading: state.playback == .loading ? nil : "Loading…"
    case .buffering: "Buffering…"
    case .failed: "No video"
    case .pastEnd:
      "Ends at "
        + PlayTime.text(
          seconds: (state.videoDuration ?? state.position) / 1000,
          hours: state.duration >= 3_600_000)
    }
  }

  /// `videoText`'s parts, first the one that matters most.
  static func videoParts(_ state: PlayerState) -> [String] {
    var parts: [String] = []
    switch state.video {
    case .none, .showing: break
    case .loading: parts.append("Loading video…")
    case .buffering: parts.append("Buffering…")
    case .failed(let reason): parts.append("No video: " + reason)
    case .pastEnd:
      let end = state.videoDuration ?? state.position
      parts.append(
        "The video ends at "
          + PlayTime.text(seconds: end / 1000, hours: state.duration >= 3_600_000))
    }
    if state.video.drivesPosition {
      // With no sound to set the volume of, the reason there is none stays what is said.
      let noSound = state.soundNote?.hasPrefix("no sound") ?? false
      if state.volumeNote != nil, !noSound { parts.append("Volume \(state.volume)%") }
      if let note = state.soundNote { parts.append(note) }
    }
    let hours = state.duration >= 3_600_000
    switch (state.loop.start, state.loop.end) {
    case (let a?, nil): parts.append("Loop from " + PlayTime.text(seconds: a / 1000, hours: hours))
    case (let a?, let b?):
      // Within one second, its tenths: `Loop 00:30–00:30` told nothing of a short loop.
      let tenths = { (point: Int) in a / 1000 == b / 1000 ? ".\(point % 1000 / 100)" : "" }
      parts.append(
        "Loop " + PlayTime.text(seconds: a / 1000, hours: hours) + tenths(a) + "–"
          + PlayTime.text(seconds: b / 1000, hours: hours) + tenths(b))
    default: break
    }
    if state.mirrored, state.video.showsPicture { parts.append("Mirrored") }
    return parts
  }

  /// `▶ Playing`, `❚❚ Paused` (with `Resume at 01:05` until the person plays or seeks) or
  /// `Finished`; the speed at the right when it is not 1×.
  static func stateText(_ state: PlayerState) -> String {
    switch state.playback {
    case .loading: return "Loading…"
    case .playing: return "▶ Playing"
    case .finished: return "Finished"
    case .paused:
      guard let resume = state.resumeAt else { return "❚❚ Paused" }
      let hours = state.duration >= 3_600_000
      return "❚❚ Paused  Resume at " + PlayTime.text(seconds: resume / 1000, hours: hours)
    }
  }

  private static func drawStateLine(_ state: PlayerState, into grid: inout Grid, area: Rect) {
    guard !area.isEmpty else { return }
    // On a narrow terminal the video's words go first, the last of them first (a walk-through
    // saw `Loading video…` dropped at 40x12 with `no sound` after it), then `Resume at …`,
    // then the speed; never half of either. The state itself goes last (a walk-through saw
    // `no sound` kept at 20x6 and `❚❚ Paused` dropped).
    var states = [stateText(state)]
    if state.playback == .paused, state.resumeAt != nil { states.append("❚❚ Paused") }
    let parts = videoParts(state)
    let videos = parts.indices.reversed().map { parts[...$0].joined(separator: "  ") }
    // Too narrow for the video's words whole, they are said short rather than not at all.
    let short = shortVideoText(state).map { short in states.map { $0 + "  " + short } } ?? []
    let texts = states.flatMap { text in videos.map { text + "  " + $0 } } + short + states + videos
    let speed = state.speed != .normal ? state.speed.text : ""
    let room = { (text: String) in
      DisplayWidth.of(text) + (speed.isEmpty ? 0 : DisplayWidth.of(speed) + 2) <= area.width
    }
    let text = texts.first(where: room) ?? fittingVariant(texts, width: area.width)
    grid.put(text ?? "", row: 0, column: 0, in: area, style: .success)
    if let text, room(text), !speed.isEmpty {
      grid.put(speed, row: 0, column: area.width - DisplayWidth.of(speed), in: area, style: .label)
    }
  }

  /// Eighths of a cell, so the bar moves smoothly: `████▌───────`.
  static let partials: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

  static func barText(position: Int, duration: Int, width: Int) -> String {
    guard width > 0 else { return "" }
    let eighths =
      duration > 0 ? min(width * 8, Int(Int64(position) * Int64(width * 8) / Int64(duration))) : 0
    var text = String(repeating: "█", count: eighths / 8)
    if eighths % 8 > 0 { text.append(partials[eighths % 8]) }
    return text
  }

  static func drawBar(position: Int, duration: Int, into grid: inout Grid, area: Rect) {
    let filled = barText(position: position, duration: duration, width: area.width)
    let end = grid.put(filled, row: 0, column: 0, in: area, style: .success)
    if end < area.width {
      grid.put(
        String(repeating: "─", count: area.width - end), row: 0, column: end, in: area,
        style: .hint)
    }
  }

  /// `A` and `B` on the bar where the loop's points are.
  static func drawLoopMarks(_ state: PlayerState, into grid: inout Grid, area: Rect) {
    guard !area.isEmpty, state.duration > 0 else { return }
    for (mark, point) in [("A", state.loop.start), ("B", state.loop.end)] {
      guard let point else { continue }
      let column = min(
        area.width - 1, Int(Int64(point) * Int64(area.width) / Int64(state.duration)))
      grid.put(mark, row: 0, column: column, in: area, style: .label)
    }
  }

  /// The time left, `-08:55` (§12): counts down to `00:00`, not `-00:00`, as at the end nothing
  /// is left to subtract.
  static func timeLeft(_ state: PlayerState) -> String {
    let hours = state.duration >= 3_600_000
    let remaining = max(0, state.duration / 1000 - state.position / 1000)
    return (remaining > 0 ? "-" : "") + PlayTime.text(seconds: remaining, hours: hours)
  }

  /// `f`: the picture over the whole terminal, the state, times and bar on the last row.
  /// The fewest cells of bar full view keeps beside `Loading video…` or `Buffering…`.
  static let fullViewBarAtLeast = 4

  static func drawFullScreen(_ state: PlayerState, into grid: inout Grid, area: Rect) {
    guard area.height >= 2 else { return }
    let picture = Rect(x: area.x, y: area.y, width: area.width, height: area.height - 1)
    if let region = videoRegion(state, area: picture) {
      grid.video = region
    } else {
      drawPicture(state, into: &grid, area: picture)
    }
    let line = fullScreenLine(state, area: area)
    grid.put(line.left, row: 0, column: 0, in: line.last, style: .success)
    guard let bar = line.bar else { return }
    drawBar(position: state.position, duration: state.duration, into: &grid, area: bar)
    drawLoopMarks(state, into: &grid, area: bar)
    grid.put(line.right, row: 0, column: bar.maxX - line.last.x, in: line.last, style: .normal)
  }

  /// Full view's last row: the state and time on the left, the time left on the right, and
  /// the bar between them (nil where they would not fit whole). The mouse finds the bar here.
  static func fullScreenLine(_ state: PlayerState, area: Rect) -> (
    last: Rect, left: String, right: String, bar: Rect?
  ) {
    let last = Rect(x: area.x, y: area.maxY - 1, width: area.width, height: 1)
    let hours = state.duration >= 3_600_000
    let elapsed = PlayTime.text(seconds: state.position / 1000, hours: hours)
    let symbol = state.playback == .playing ? "▶" : state.playback == .finished ? "■" : "❚❚"
    var left = "\(symbol) \(elapsed) "
    let right = " " + timeLeft(state)
    // A picture that waits says so where a bar of 4 cells still fits beside it (a walk-through
    // took the still picture and times of a video being tried again for a frozen app).
    let waiting: String? =
      switch state.video {
      case .loading: "Loading video…"
      case .buffering: "Buffering…"
      default: nil
      }
    if let waiting,
      DisplayWidth.of(left + waiting) + 1 + Self.fullViewBarAtLeast + DisplayWidth.of(right)
        <= area.width
    {
      left += waiting + " "
    }
    let end = min(DisplayWidth.of(left), area.width)
    guard area.height >= 2 else { return (last, left, right, nil) }
    // The time left and the bar only where they fit whole (a time cut short reads as a time).
    guard end + DisplayWidth.of(right) <= area.width else { return (last, left, right, nil) }
    let barWidth = max(0, area.width - end - DisplayWidth.of(right))
    return (last, left, right, Rect(x: last.x + end, y: last.y, width: barWidth, height: 1))
  }

  /// The thumbnail centred in its area, or (none, failed, or still loading) a pattern drawn
  /// from the class id.
  private static func drawPicture(_ state: PlayerState, into grid: inout Grid, area: Rect) {
    guard !area.isEmpty else { return }
    if let region = videoRegion(state, area: area) {
      grid.video = region
      return
    }
    if let picture = state.picture?.picture {
      let column = area.x + max(0, (area.width - picture.columns) / 2)
      let row = area.y + max(0, (area.height - picture.rows) / 2)
      grid.draw(picture, row: row, column: column, clip: area)
      return
    }
    ClassPattern.draw(id: state.danceClass.id, colors: state.colors, into: &grid, area: area)
  }

  private static func centered(_ text: String, in area: Rect, style: Style, into grid: inout Grid) {
    guard !area.isEmpty else { return }
    let shown = TextBlock.truncated(text, width: area.width)
    grid.put(
      shown, row: 0, column: max(0, (area.width - DisplayWidth.of(shown)) / 2), in: area,
      style: style)
  }

  /// A click on the bar seeks there (SPEC §12); the wheel does nothing here.
  static func action(for event: MouseEvent, in state: PlayerState, area: Rect) -> Action? {
    guard event.kind == .press, state.playback != .loading else { return nil }
    // In full view (where `area` is the whole terminal) the bar is on the last row.
    let bar =
      state.fullScreen ? fullScreenLine(state, area: area).bar : layout(in: area).bar
    guard let bar, bar.contains(event.position), bar.width > 0 else { return nil }
    let column = event.position.column - bar.x
    // The cell's left edge; the last cell is the end.
    let target =
      column >= bar.width - 1
      ? state.duration : Int(Int64(state.duration) * Int64(column) / Int64(bar.width))
    return .player(.barClicked(milliseconds: target))
  }
}

/// A picture for a class without a thumbnail: a symmetric pattern of blocks in one colour,
/// both taken from the class id's hex digits, so each class has its own and keeps it.
enum ClassPattern {
  static func draw(id: String, colors: PictureColors, into grid: inout Grid, area: Rect) {
    let nibbles = id.compactMap(\.hexDigitValue)
    guard !nibbles.isEmpty, !area.isEmpty else { return }
    let cellsAcross = 8
    let cellsDown = 4
    // Each pattern cell is 2k columns by k rows, so it looks square.
    let scale = max(1, min(area.width / (cellsAcross * 2), area.height / cellsDown))
    let width = cellsAcross * 2 * scale
    let height = cellsDown * scale
    let left = area.x + max(0, (area.width - width) / 2)
    let top = area.y + max(0, (area.height - height) / 2)
    let color = patternColor(nibbles, colors: colors)
    for row in 0..<cellsDown {
      for column in 0..<cellsAcross {
        let source = column < cellsAcross / 2 ? column : cellsAcross - 1 - column
        guard nibbles[(row * cellsAcross / 2 + source) % nibbles.count] % 2 == 0 else { continue }
        let cell = Rect(
          x: left + column * 2 * scale, y: top + row * scale, width: 2 * scale, height: scale)
        // In an area narrower or shorter than the pattern, its far cells fall outside (their
        // ranges would run backwards).
        guard cell.x < area.maxX, cell.y < area.maxY else { continue }
        for y in cell.y..<min(cell.maxY, area.maxY) {
          for x in cell.x..<min(cell.maxX, area.maxX) {
            if let color {
              // A full block in the colour (not a coloured space): it shows on terminals that
              // drop background colours, and in a copy of the screen's text.
              grid.put("█", row: y, column: x, style: .pixels(foreground: color, background: color))
            } else {
              grid.put("▓", row: y, column: x, style: .normal)
            }
          }
        }
      }
    }
  }

  /// An xterm colour from the id (a bright one of the 6×6×6 cube), a basic one on 8-colour
  /// terminals, none (shading) without colours.
  private static func patternColor(_ nibbles: [Int], colors: PictureColors) -> UInt8? {
    let value = nibbles.suffix(4).reduce(0) { $0 * 16 + $1 }
    switch colors {
    case .shades: return nil
    case .basic8: return UInt8(1 + value % 6)
    case .xterm256:
      // Cube indices 16 + 36r + 6g + b with each channel 1…5, never all alike (no greys).
      let (r, g) = (1 + value % 5, 1 + value / 5 % 5)
      var b = 1 + value / 25 % 5
      if r == g, g == b { b = b == 5 ? 1 : b + 1 }
      return UInt8(16 + 36 * r + 6 * g + b)
    }
  }
}
