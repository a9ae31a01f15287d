/// What the runtime needs from a terminal: its size, drawing a frame, reading keys, following a
/// resize, suspending and restoring. The ncurses adapter is one; tests use a recording one, so
/// the runtime is tested without a terminal.
@MainActor
package protocol TerminalBackend: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// Draws a frame (only what changed since the last one).
  func draw(_ grid: Grid)
  /// Every key waiting to be read (empty when none).
  func readKeys() -> [Key]
  /// Follows a resize: the next frame is drawn whole at the new size.
  func updateSize()
  /// Gives the terminal back and stops the process (Ctrl-Z); on `fg`, takes it again.
  func suspend()
  /// Takes the terminal back after a stop the app did not ask for; the next frame is drawn whole.
  func reclaim()
  /// Puts the terminal back as it was found. Safe to call more than once.
  func close()
  /// Shows a video picture in the region the last frame drawn holds (SPEC §19), and again
  /// when that region is drawn anew; nil forgets it (another video starts, or none).
  func drawVideo(_ picture: VideoPicture?)
}
