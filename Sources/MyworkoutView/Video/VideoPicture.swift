import MyworkoutCore

/// A video frame as pixels: RGB24, row by row (two pixels across and two down per cell).
package struct VideoPicture: Equatable, Sendable {
  package var width: Int
  package var height: Int
  package var rgb: [UInt8]
  /// Its place among the pictures of a video, counted from 1 as they come (0: not counted).
  package var serial: Int
  /// What changed since the picture numbered `changes.base` (nil: not known): elsewhere its
  /// pixels are that picture's, so its cells can be too.
  package var changes: Changes?

  /// Runs of changed pixels since the picture numbered `base`.
  package struct Changes: Equatable, Sendable {
    package var base: Int
    /// In band order, each band once.
    package var runs: [Run]

    package init(base: Int, runs: [Run]) {
      self.base = base
      self.runs = runs
    }
  }

  /// Pixels `from..<to` of band `band` (pixel rows `2 * band` and `2 * band + 1`: a row of
  /// cells) changed.
  package struct Run: Equatable, Sendable {
    package var band: Int
    package var from: Int
    package var to: Int

    package init(band: Int, from: Int, to: Int) {
      self.band = band
      self.from = from
      self.to = to
    }
  }

  package init(width: Int, height: Int, rgb: [UInt8], serial: Int = 0, changes: Changes? = nil) {
    self.width = width
    self.height = height
    self.rgb = rgb
    self.serial = serial
    self.changes = changes
  }
}

/// Where the Player's video is drawn: cells the app writes itself, past ncurses (SPEC §19;
/// DECISIONS.md "Video pictures"). The grid keeps them blank.
package struct VideoRegion: Equatable, Sendable {
  package var rect: Rect
  package var mirrored: Bool

  package init(rect: Rect, mirrored: Bool) {
    self.rect = rect
    self.mirrored = mirrored
  }
}

/// The colours a video is drawn in: 24-bit where the terminal says so (`COLORTERM`), else the
/// 256-colour palette, else the 8 basic colours, else (NO_COLOR) shades without colour.
package enum VideoColors: Equatable, Sendable {
  case direct
  case palette256
  /// The 16 ANSI colours (bright ones as SGR 90–97 / 100–107), at xterm's defaults.
  case basic16
  case basic8
  case shades

  package static func choose(colorCount: Int, noColor: Bool, colorTerm: String?) -> VideoColors {
    if noColor || colorCount < 8 { return .shades }
    if let colorTerm, ["truecolor", "24bit"].contains(colorTerm.lowercased()) { return .direct }
    if colorCount >= 256 { return .palette256 }
    return colorCount >= 16 ? .basic16 : .basic8
  }
}
