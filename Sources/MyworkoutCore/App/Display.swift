/// A terminal's size in cells.
package struct TerminalSize: Hashable, Sendable {
  package var width: Int
  package var height: Int

  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
  }
}

/// What the terminal can show, as the reducer needs it: its size (the Images grid is laid out
/// for it and its tiles are decoded at that size) and its colours (pictures are quantised for
/// them). Set at launch, and the size again on every resize (`Action.terminalResized`).
package struct Display: Hashable, Sendable {
  package var size: TerminalSize
  package var colors: PictureColors
  /// Whether this runtime can play video (SPEC §19): the app with its player process; tests of
  /// §12's clock run without.
  package var video: Bool

  package init(
    size: TerminalSize = TerminalSize(width: 80, height: 24), colors: PictureColors = .xterm256,
    video: Bool = false
  ) {
    self.size = size
    self.colors = colors
    self.video = video
  }

  /// Whether the environment asks for no colour: `NO_COLOR` set and not empty (no-color.org;
  /// an empty one counts as unset, as an empty `MYWORKOUT_DATA_DIR` does).
  package static func noColor(in environment: [String: String]) -> Bool {
    !(environment["NO_COLOR"] ?? "").isEmpty
  }

  /// The colours for a terminal: `NO_COLOR` or no colours at all → shades; fewer than 256 →
  /// the 8 basic colours; else the xterm palette.
  package static func colors(count: Int, noColor: Bool) -> PictureColors {
    if noColor || count < 8 { return .shades }
    return count >= 256 ? .xterm256 : .basic8
  }
}
