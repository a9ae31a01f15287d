import CEventLoop
import MyworkoutTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// The app's event loop, on the process's main thread: one `poll` over standard input, a
/// signalfd, and the main dispatch queue's wake-up handle. Keys are handled on the thread that
/// reads them, with no hop through another thread; an idle app sleeps in `poll` with nothing
/// to wake it. Work queued on the main queue (MainActor tasks, the spinner timer) runs here too.
@MainActor
final class MainLoop {
  struct Handlers {
    var input: @MainActor () -> Void
    var resize: @MainActor () -> Void
    var suspend: @MainActor () -> Void
    /// SIGCONT: the process goes on after a stop (its own Ctrl-Z's, or one from outside).
    var continued: @MainActor () -> Void
    var terminate: @MainActor (_ status: Int32) -> Void
  }

  private let signals: Int32
  /// The signal that asked the app to end, once one has: the process then ends by it.
  private var endingSignal: Int32?
  /// Repeating timers as timerfds polled with the rest, by descriptor (see `LoopTimers`).
  private var tickers: [Int32: @MainActor () -> Void] = [:]
  /// Other descriptors polled for reading (the video player's reports), by descriptor.
  private var readers: [Int32: @MainActor () -> Void] = [:]

  /// Calls `readable` whenever `fd` has something to read; nil stops watching it.
  func watch(_ fd: Int32, _ readable: (@MainActor () -> Void)?) {
    readers[fd] = readable
  }

  /// Blocks the handled signals (so they queue on the signalfd instead of interrupting, and so
  /// ncurses' own handlers never run). Must be created before any other thread starts.
  init() {
    // The terminal's resize, stop and continue, and every signal that ends the app.
    let numbers = [SIGWINCH, SIGTSTP, SIGCONT] + EndingSignals.numbers
    signals = numbers.withUnsafeBufferPointer {
      mw_block_signals_into_fd($0.baseAddress, Int32($0.count))
    }
  }

  /// Starts a repeating timer that this loop's `poll` wakes for directly: one wake-up of the
  /// main thread per tick and no other thread (a Dispatch timer also wakes libdispatch's
  /// manager thread, which then wakes the main queue). Nil when no timerfd could be made.
  func addTicker(every interval: Duration, _ fire: @escaping @MainActor () -> Void) -> Int32? {
    let nanoseconds =
      interval.components.seconds * 1_000_000_000 + interval.components.attoseconds / 1_000_000_000
    let fd = mw_ticker_create(max(1, nanoseconds))
    guard fd >= 0 else { return nil }
    tickers[fd] = fire
    return fd
  }

  func removeTicker(_ fd: Int32) {
    guard tickers.removeValue(forKey: fd) != nil else { return }
    close(fd)
  }

  /// Runs forever; handlers end the process through `exit`.
  func run(_ handlers: Handlers) -> Never {
    let base = [
      pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
      pollfd(fd: _dispatch_get_main_queue_handle_4CF(), events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let tickerFDs = tickers.keys.sorted()
      let readerFDs = readers.keys.sorted()
      var fds =
        base + (tickerFDs + readerFDs).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if poll(&fds, nfds_t(fds.count), -1) < 0 {
        if errno == EINTR { continue }
        handlers.terminate(1)
      }
      if fds[2].revents != 0 {
        mw_acknowledge_wakeup(fds[2].fd)
        _dispatch_main_queue_callback_4CF(nil)
      }
      // Keys before signals: text typed just before Ctrl-Z or Ctrl-C was typed first, and once
      // the app stops, the shell would read whatever is left in the terminal's input.
      if fds[0].revents & Int16(POLLIN) != 0 { handlers.input() }
      if fds[1].revents != 0 { drainSignals(handlers) }
      for ticker in fds[base.count..<(base.count + tickerFDs.count)] where ticker.revents != 0 {
        // Late ticks run once: the state reads the clock, not a count of ticks.
        if mw_ticker_read(ticker.fd) > 0, let fire = tickers[ticker.fd] { fire() }
      }
      for reader in fds[(base.count + tickerFDs.count)...] where reader.revents != 0 {
        readers[reader.fd]?()
      }
      if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
        // The terminal went away (its SIGHUP may come too, or not, as for an orphaned process).
        endingSignal = SIGHUP
        handlers.terminate(128 + SIGHUP)
      }
    }
  }

  /// Ends the process with `status` (the terminal already restored): by the signal that asked
  /// for the end, when one did and the status says so, else by an exit. Ctrl-C read as a key
  /// is an exit with 130, as in other full-screen programs: no signal reached anyone, and a
  /// shell running the app goes on with its command line.
  func end(status: Int32) -> Never {
    if let number = endingSignal, status == 128 + number { mw_end_by_signal(number) }
    exit(status)
  }

  private func drainSignals(_ handlers: Handlers) {
    while true {
      let number = mw_read_signal(signals)
      switch number {
      case 0: return
      case SIGWINCH: handlers.resize()
      case SIGTSTP: handlers.suspend()
      case SIGCONT: handlers.continued()
      // Exit statuses follow the shell's convention: 128 + the signal's number.
      default:
        endingSignal = number
        handlers.terminate(128 + number)
      }
    }
  }
}
