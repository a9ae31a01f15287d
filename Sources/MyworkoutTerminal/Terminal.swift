import CNcurses
public import MyworkoutView

#if canImport(Glibc)
  import Glibc
#endif

/// The only code that talks to ncurses: it draws a `Grid`, reads keys (wide characters, arrows,
/// bracketed paste), follows resizes, and puts the terminal back exactly as it found it.
@MainActor
public final class Terminal {
  public enum OpenError: Error, CustomStringConvertible {
    case notATerminal
    case unknownTerminal(String)

    public var description: String {
      switch self {
      case .notATerminal:
        "myworkout needs an interactive terminal: standard input and output must be a terminal."
      case .unknownTerminal(let name):
        "myworkout cannot use the terminal type '\(name)'; set TERM to one your system knows "
          + "(for example xterm-256color)."
      }
    }
  }

  public private(set) var width: Int
  public private(set) var height: Int
  /// The terminal's colours (0 without): pictures use the 256-colour palette from 256 up.
  package var colorCount: Int { palette.colorCount }
  private var previous: Grid?
  private let palette: Palette
  private var decoder = KeyDecoder()
  private var isOpen = true
  private var screen: OpaquePointer?

  /// Starts full-screen mode. `colors` is false for `NO_COLOR` (or when the terminal has none).
  public init(colors: Bool, environment: [String: String]) throws(OpenError) {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    setlocale(LC_ALL, "")
    let name = environment["TERM"] ?? ""
    guard !name.isEmpty, let screen = mw_newterm(name) else {
      throw .unknownTerminal(name)
    }
    self.screen = screen
    set_term(screen)
    cbreak()
    noecho()
    nonl()
    intrflush(mw_stdscr(), false)
    keypad(mw_stdscr(), true)
    nodelay(mw_stdscr(), true)
    set_escdelay(25)
    KeyDecoder.defineKeys()
    palette = Palette(colors: colors && has_colors())
    (width, height) = Self.followKernelSize()
    mw_write_raw(Self.bracketedPasteOn)
  }

  static let bracketedPasteOn = "\u{1B}[?2004h"
  static let bracketedPasteOff = "\u{1B}[?2004l"

  /// Draws a frame, sending only the cells that changed since the last one.
  public func draw(_ grid: Grid) {
    guard isOpen else { return }
    let full = previous.map { $0.width != grid.width || $0.height != grid.height } ?? true
    if full { werase(mw_stdscr()) }
    let cells = grid.cells
    let before = full ? [] : previous?.cells ?? []
    for row in 0..<grid.height {
      for column in 0..<grid.width {
        let index = row * grid.width + column
        let cell = cells[index]
        if cell.isContinuation { continue }
        // Unchanged, and so is the cell after it (a wide character's second half).
        if !before.isEmpty, before[index] == cell,
          column + 1 >= grid.width || before[index + 1] == cells[index + 1]
        {
          continue
        }
        let (attributes, pair) = palette.look(for: cell.style)
        var scalars = Array(cell.text.unicodeScalars.prefix(5)).map {
          wchar_t(bitPattern: $0.value)
        }
        scalars.append(0)
        _ = mw_put(Int32(row), Int32(column), scalars, attributes, pair)
      }
    }
    if let cursor = grid.cursor, cursor.row < height, cursor.column < width {
      curs_set(1)
      wmove(mw_stdscr(), Int32(cursor.row), Int32(cursor.column))
    } else {
      curs_set(0)
    }
    wrefresh(mw_stdscr())
    previous = grid
  }

  /// Every key waiting to be read (empty when none). Called when standard input is readable.
  public func readKeys() -> [Key] {
    guard isOpen else { return [] }
    var keys: [Key] = []
    var value: wint_t = 0
    while true {
      let status = mw_get_wch(&value)
      if status == ERR { break }
      if let key = decoder.decode(Int32(value), isFunctionKey: status == KEY_CODE_YES) {
        keys.append(key)
      }
    }
    return keys
  }

  /// Follows a resize: reads the new size from the kernel and redraws everything next frame.
  public func updateSize() {
    guard isOpen else { return }
    (width, height) = Self.followKernelSize()
    previous = nil
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
  public func suspend() {
    guard isOpen else { return }
    leave()
    raise(SIGSTOP)
    mw_write_raw(Self.bracketedPasteOn)
    wrefresh(mw_stdscr())
    updateSize()
  }

  /// Puts the terminal back as it was found. Safe to call more than once.
  public func close() {
    guard isOpen else { return }
    isOpen = false
    leave()
    if let screen { delscreen(screen) }
    screen = nil
  }

  private func leave() {
    curs_set(1)
    if isendwin() == false { endwin() }
    mw_write_raw(Self.bracketedPasteOff)
  }
}
