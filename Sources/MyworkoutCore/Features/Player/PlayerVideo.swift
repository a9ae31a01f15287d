/// The video of a class (SPEC §19) as the Player's state sees it: whether one plays, what the
/// player process reported, and what the Player asks of it. The pictures themselves never enter
/// the state (the runtime hands them to the terminal); their media times do.
package enum VideoPhase: Equatable, Sendable {
  /// No video for this class (or no player in this runtime): §12's clock over the thumbnail.
  case none
  /// `Loading video…` until the first frame.
  case loading
  case showing
  /// `Buffering…`: the source ran dry; time in class counts, watched % does not.
  case buffering
  /// `No video: <reason>`; the clock runs over the thumbnail as in §12.
  case failed(String)
  /// The video ended a second or more before the class's listed end (a catalog that lists a
  /// class longer than its clip, a still picture named as its video): its last picture stays
  /// and §12's clock plays the rest of the class (it jumped to `Finished` at the listed end,
  /// and a still picture's class could never be played). A seek back before its end shows the
  /// video again.
  case pastEnd

  /// Why a video could not be opened that may pass (the network's and the server's, as the
  /// player process words them): the next play tries it again. A file not there, a refusal, a
  /// file that is not a video stay as they are.
  package static let reasonsThatMayPass: Set<String> = [
    "no connection", "the server did not answer", "the server had a problem (5xx)",
  ]

  /// Why a video stopped when its player process did (killed, crashed): not the source's fault.
  package static let playerStopped = "the player stopped"

  /// Whether the video's frames, not the wall clock, move the position.
  package var drivesPosition: Bool {
    switch self {
    case .loading, .showing, .buffering: true
    case .none, .failed, .pastEnd: false
    }
  }

  /// Whether the picture area shows the video's picture (not the thumbnail).
  package var showsPicture: Bool {
    switch self {
    case .showing, .buffering, .pastEnd: true
    case .none, .loading, .failed: false
    }
  }
}

/// What the Player asks of the video player (the runtime carries it out).
package enum VideoCommand: Equatable, Sendable {
  /// The class's `videoUrl`, as the catalog gives it (the runtime finds the file or URL).
  case open(source: String)
  /// The picture's size in pixels (two per cell across and down).
  case size(width: Int, height: Int)
  case play
  case pause
  case seek(milliseconds: Int)
  case speed(PlaybackSpeed)
  case sound(Bool)
  case volume(Int)
  case step(forward: Bool)
  /// The end of the A–B loop (nil: none): the player says the time the moment play reaches
  /// it, and play goes back to A from exactly there.
  case mark(milliseconds: Int?)
  /// The Player closed.
  case close
}

/// What the video player reports.
package enum VideoEvent: Equatable, Sendable {
  case ready(durationMilliseconds: Int, width: Int, height: Int, hasSound: Bool)
  /// A picture was shown at this media time (while playing, at most once a second of media).
  case shown(milliseconds: Int)
  /// The media time while playing (about four times a second) and at a pause.
  case time(milliseconds: Int)
  case buffering(Bool)
  case ended
  case failed(String)
  /// nil: sound plays; else why not (`no sound`, `sound off`).
  case sound(String?)
  /// Every frame step asked for has its picture on screen (or none to show).
  case stepsLanded
}

/// The picture's place for a video of an aspect in a tile: as many cells as keep the aspect (a
/// cell is about twice as tall as wide), centred.
package struct VideoFit: Equatable, Sendable {
  package var columns: Int
  package var rows: Int
  /// Offsets inside the tile.
  package var left: Int
  package var top: Int

  /// Pixels: two across and two down per cell (quarter blocks).
  package var pixelWidth: Int { columns * 2 }
  package var pixelHeight: Int { rows * 2 }

  package init(tile: TileSize, videoWidth: Int, videoHeight: Int) {
    guard tile.columns > 0, tile.rows > 0, videoWidth > 0, videoHeight > 0 else {
      (columns, rows, left, top) = (0, 0, 0, 0)
      return
    }
    // columns / (2 rows) = width / height.
    var rows = tile.rows
    var columns = Int((2 * Double(rows) * Double(videoWidth) / Double(videoHeight)).rounded())
    if columns > tile.columns {
      columns = tile.columns
      rows = max(
        1, Int((Double(columns) * Double(videoHeight) / Double(videoWidth) / 2).rounded()))
      rows = min(rows, tile.rows)
    }
    columns = max(1, columns)
    self.columns = columns
    self.rows = rows
    left = (tile.columns - columns) / 2
    top = (tile.rows - rows) / 2
  }
}

/// `l`: A, then B (a loop A→B), then neither.
package struct LoopMarks: Equatable, Sendable {
  package var start: Int?
  package var end: Int?

  package init(start: Int? = nil, end: Int? = nil) {
    self.start = start
    self.end = end
  }

  /// The next press at `position`.
  package mutating func press(at position: Int) {
    switch (start, end) {
    case (nil, _):
      start = position
    case (let a?, nil):
      if position == a {
        start = nil
      } else {
        (start, end) = (min(a, position), max(a, position))
      }
    default:
      (start, end) = (nil, nil)
    }
  }

  /// Where play goes back to, when play from `previous` to `position` reached the loop's end
  /// (from before it, or from it: B was set where play was). Past B after a seek, play goes on.
  package func wrap(from previous: Int, to position: Int) -> Int? {
    guard let start, let end, previous <= end, position >= end else { return nil }
    return start
  }
}
