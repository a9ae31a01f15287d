import CNcurses
import MyworkoutView

#if canImport(Glibc)
  import Glibc
#endif

/// The only code that talks to ncurses: it draws a `Grid`, reads keys (wide characters, arrows,
/// bracketed paste), follows resizes, and puts the terminal back exactly as it found it.
@MainActor
package final class Terminal: TerminalBackend {
  package enum OpenError: Error, CustomStringConvertible {
    case notATerminal
    case unknownTerminal(String)
    /// `TERM` is unset or empty.
    case noTerminalType
    /// The terminal type cannot move the cursor (terminfo has no `cup`), as `dumb`.
    case noCursorAddressing(String)

    package var description: String {
      switch self {
      case .notATerminal:
        "myworkout needs an interactive terminal: standard input and output must be a terminal."
      case .unknownTerminal(let name):
        "myworkout cannot use the terminal type '\(name)'; set TERM to one your system knows "
          + "(for example xterm-256color)."
      case .noTerminalType:
        "myworkout cannot tell the terminal type: TERM is not set or is empty; set it to your "
          + "terminal's type (for example xterm-256color)."
      case .noCursorAddressing(let name):
        "myworkout cannot draw on the terminal type TERM='\(name)': it cannot move the cursor; "
          + "set TERM to one that can (for example xterm-256color)."
      }
    }
  }

  package private(set) var width: Int
  package private(set) var height: Int
  /// The terminal's colours (0 without): pictures use the 256-colour palette from 256 up.
  package var colorCount: Int { palette.colorCount }
  private var previous: Grid?
  private let palette: Palette
  private var decoder = KeyDecoder()
  private var isOpen = true
  private let mouse: Bool
  private var screen: OpaquePointer?
  /// The Player's video, drawn past ncurses in the region the grid leaves blank.
  private var canvas: VideoCanvas
  private var picture: VideoPicture?

  /// Starts full-screen mode. `colors` is false for `NO_COLOR` (or when the terminal has none).
  /// `mouse`: turn mouse reporting on (off with `--no-mouse`, so the terminal's own text
  /// selection works).
  package init(colors: Bool, mouse: Bool = true, environment: [String: String]) throws(OpenError) {
    // Chosen when the first picture comes (after ncurses knows the terminal's colours).
    canvas = VideoCanvas(colors: .shades)
    let name = try Self.check(environment: environment)
    // Only the character type: ncurses needs to know the terminal speaks UTF-8, and nothing
    // here formats by locale (the other categories are a dozen files to read before the frame).
    // The screen is drawn in UTF-8 and typed bytes are read as UTF-8 whatever the locale says;
    // a locale of another character set (C or POSIX, as in a minimal container, or one not
    // installed) made ncurses drop every mark that is not ASCII (the focus marker, `•`, `✓`),
    // so the character type is then C.UTF-8's, as in terminals of today (under another of
    // its spellings, or English's, where a system lacks that name).
    if setlocale(LC_CTYPE, "") == nil || !Self.localeIsUTF8 {
      for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
        break
      }
    }
    // The modes as the shell left them, for the crash handlers (ncurses changes them next).
    CrashGuard.saveModes()
    self.mouse = mouse
    guard let screen = mw_newterm(name) else { throw .unknownTerminal(name) }
    self.screen = screen
    set_term(screen)
    cbreak()
    noecho()
    nonl()
    _ = mw_interrupt_key_as_input()
    intrflush(mw_stdscr(), false)
    keypad(mw_stdscr(), true)
    nodelay(mw_stdscr(), true)
    // A frame is drawn after every waiting key has been read, so ncurses need not look for
    // more while it draws: without this it polls the terminal twice a frame (two system calls
    // before the frame's first byte, SPEC §16) and may send a frame in two writes.
    typeahead(-1)
    set_escdelay(25)
    KeyDecoder.defineKeys()
    palette = Palette(colors: colors && has_colors())
    canvas = VideoCanvas(
      colors: VideoColors.choose(
        colorCount: palette.colorCount, noColor: !colors,
        colorTerm: environment["COLORTERM"]))
    (width, height) = Self.followKernelSize()
    mw_write_raw(Self.bracketedPasteOn + (mouse ? Self.mouseOn : ""))
    CrashGuard.arm(resetBytes: Self.resetBytes())
  }

  /// The character type's character set is UTF-8.
  static var localeIsUTF8: Bool {
    guard let name = nl_langinfo(nl_item(CODESET)) else { return false }
    let codeset = String(cString: name).lowercased()
    return codeset == "utf-8" || codeset == "utf8"
  }

  /// Checks, creating nothing and sending nothing to the terminal, that standard input and
  /// output are a terminal whose type ncurses knows and can draw on; returns that type.
  package static func check(environment: [String: String]) throws(OpenError) -> String {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    let name = try terminalType(environment: environment)
    switch mw_terminal_type_usable(name) {
    case 1: return name
    case 0: throw .unknownTerminal(name)
    default: throw .noCursorAddressing(name)
    }
  }

  /// `TERM`, which must be set and not empty.
  nonisolated package static func terminalType(environment: [String: String]) throws(OpenError)
    -> String
  {
    let name = environment["TERM"] ?? ""
    guard !name.isEmpty else { throw .noTerminalType }
    return name
  }

  static let bracketedPasteOn = "\u{1B}[?2004h"
  static let bracketedPasteOff = "\u{1B}[?2004l"
  /// Mouse reporting of presses, releases and the wheel, in the SGR encoding (any size of
  /// terminal, and decoded by `KeyDecoder`, not by ncurses).
  static let mouseOn = "\u{1B}[?1000h\u{1B}[?1006h"
  /// Mouse reporting off (normal and SGR modes), for when the app turns it on.
  static let mouseOff = "\u{1B}[?1000l\u{1B}[?1006l"

  /// What gives the screen back to the shell after a crash: attributes off, paste and mouse
  /// modes off, keypad back to normal, the cursor shown, the normal screen back.
  private static func resetBytes() -> String {
    let capability = { (name: String) in String(cString: mw_capability(name)) }
    return capability("sgr0") + bracketedPasteOff + mouseOff + capability("rmkx")
      + capability("cnorm") + capability("rmcup")
  }

  /// Draws a frame, sending only the cells that changed since the last one.
  package func draw(_ grid: Grid) {
    // Nothing is drawn from the background (the shell's terminal; `reclaim` draws all at `fg`).
    guard isOpen, mw_in_foreground() != 0 else { return }
    let clear = GridDiff.needsClear(from: previous, to: grid)
    if clear { werase(mw_stdscr()) }
    let changes = GridDiff.changes(from: previous, to: grid)
    if let old = previous?.video, old != grid.video {
      // ncurses believes the old region blank; the screen shows a picture there: those lines
      // are drawn again whole.
      wredrawln(mw_stdscr(), Int32(old.rect.y), Int32(old.rect.height))
    }
    // The picture on the screen is the last one painted unless ncurses drew under it (or it
    // moved): only then is it painted again after this frame (a time report that moves the bar
    // costs no picture).
    let repaint =
      clear || grid.video == nil || grid.video != previous?.video
      || changes.contains(where: {
        grid.video?.rect.contains(Position(row: $0.row, column: $0.column)) ?? false
      })
    if repaint { canvas.invalidate() }
    // An ASCII cell (most of a full redraw's 1,920) goes through one buffer, without making
    // its text.
    var ascii: [wchar_t] = [0, 0]
    for change in changes {
      let (attributes, pair) = palette.look(for: change.cell.style)
      if let byte = change.cell.asciiByte {
        ascii[0] = wchar_t(byte)
        _ = mw_put(Int32(change.row), Int32(change.column), ascii, attributes, pair)
        continue
      }
      var scalars = Array(change.cell.text.unicodeScalars.prefix(Cell.scalarLimit)).map {
        wchar_t(bitPattern: $0.value)
      }
      scalars.append(0)
      _ = mw_put(Int32(change.row), Int32(change.column), scalars, attributes, pair)
    }
    if let cursor = grid.cursor, cursor.row < height, cursor.column < width {
      curs_set(1)
      wmove(mw_stdscr(), Int32(cursor.row), Int32(cursor.column))
    } else {
      curs_set(0)
    }
    wrefresh(mw_stdscr())
    previous = grid
    if repaint { paintVideo() }
  }

  /// Shows the video's picture now, and again whenever its region is drawn anew (a panel over
  /// it closed, a resize) until another comes; nil forgets it (another video, or none).
  package func drawVideo(_ picture: VideoPicture?) {
    guard isOpen else { return }
    self.picture = picture
    paintVideo()
  }

  private func paintVideo() {
    guard let region = previous?.video, let picture, mw_in_foreground() != 0 else { return }
    let bytes = canvas.paint(picture, in: region)
    guard !bytes.isEmpty else { return }
    bytes.withUnsafeBytes { mw_write_bytes($0.baseAddress, $0.count) }
  }

  /// Every key waiting to be read (empty when none). Called when standard input is readable.
  package func readKeys() -> [Key] {
    guard isOpen else { return [] }
    var keys: [Key] = []
    while true {
      let value = mw_getch()
      if value == ERR { break }
      if value >= KEY_MIN {
        decoder.decode(value, isFunctionKey: true, into: &keys)
      } else {
        decoder.decode(byte: UInt8(truncatingIfNeeded: value), into: &keys)
      }
    }
    decoder.endOfRead(into: &keys)
    return keys
  }

  /// Follows a resize: reads the new size from the kernel and redraws everything next frame.
  package func updateSize() {
    guard isOpen else { return }
    (width, height) = Self.followKernelSize()
    previous = nil
    canvas.invalidate()
  }

  /// Tells ncurses the size the kernel reports, and returns the size ncurses then uses.
  private static func followKernelSize() -> (width: Int, height: Int) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    if mw_terminal_size(STDOUT_FILENO, &rows, &columns) == 0 {
      resizeterm(rows, columns)
    }
    return (Int(getmaxx(mw_stdscr())), Int(getmaxy(mw_stdscr())))
  }

  /// Ctrl-Z: give the terminal back, stop, and on `fg` take it again and redraw.
  package func suspend() {
    guard isOpen else { return }
    leave()
    mw_stop_job()
    guard waitForForeground() else { return }
    mw_write_raw(Self.bracketedPasteOn + (mouse ? Self.mouseOn : ""))
    wrefresh(mw_stdscr())
    updateSize()
  }

  /// Takes the terminal back after a stop the app did not ask for (the shell set its own modes
  /// meanwhile): the program's modes, bracketed paste and mouse reporting again, and the whole
  /// screen drawn anew at the next frame.
  package func reclaim() {
    guard isOpen, waitForForeground() else { return }
    if isendwin() == false { endwin() }
    mw_write_raw(Self.bracketedPasteOn + (mouse ? Self.mouseOn : ""))
    wrefresh(mw_stdscr())
    updateSize()
  }

  /// After a stop, the app may go on in the background (`bg`, or a SIGCONT from outside): the
  /// terminal is the shell's, and a program there must not draw nor change its modes (a
  /// walk-through saw mouse reporting turned on at the shell's prompt). Stops again, as a
  /// background job that wants the terminal does (`Stopped (tty output)`), until the shell
  /// brings it to the foreground: true then. False when a signal to end came meanwhile (a
  /// supervisor's `kill -TERM` and `kill -CONT`): the terminal is left as the shell has it and
  /// nothing touches it any more (the app is on its way out).
  private func waitForForeground() -> Bool {
    while mw_in_foreground() == 0 {
      guard !Self.endingSignalPending() else {
        isOpen = false
        CrashGuard.disarm()
        return false
      }
      mw_stop_for_terminal()
    }
    return true
  }

  /// Whether a signal that ends the app waits to be read (they are blocked and read by the main
  /// loop).
  private static func endingSignalPending() -> Bool {
    var pending = sigset_t()
    sigemptyset(&pending)
    sigpending(&pending)
    return EndingSignals.numbers.contains { sigismember(&pending, $0) == 1 }
  }

  /// Puts the terminal back as it was found. Safe to call more than once.
  package func close() {
    guard isOpen else { return }
    isOpen = false
    // In the background (stopped from outside, then told to end and continued), the terminal
    // is the shell's: changing its modes would stop the app on its way out (SIGTTOU).
    if mw_in_foreground() != 0 { leave() }
    CrashGuard.disarm()
    if let screen { delscreen(screen) }
    screen = nil
  }

  private func leave() {
    curs_set(1)
    if isendwin() == false { endwin() }
    mw_write_raw(Self.bracketedPasteOff + (mouse ? Self.mouseOff : ""))
  }
}

/// The signals that end the app (each as SIGTERM does: progress saved, the terminal restored,
/// then by that signal): besides the terminal's own, every signal whose default ends the
/// process. The main loop reads them and the terminal's stop, continue and resize.
package enum EndingSignals {
  package static let numbers: [Int32] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
    SIGXFSZ, SIGIO, SIGPWR,
  ]
}
