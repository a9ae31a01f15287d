import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Signals handled on the main queue, so the terminal is restored on every way out. ncurses'
/// own handlers are kept out (they would exit without our cleanup and miss SIGHUP).
enum Signals {
  /// Ignores the signals' default actions; call before the terminal opens so that ncurses
  /// installs none of its own handlers.
  static func ignoreDefaults() {
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP] {
      _ = Glibc.signal(signal, SIG_IGN)
    }
  }

  @MainActor
  static func install(
    resize: @escaping @MainActor () -> Void,
    suspend: @escaping @MainActor () -> Void,
    terminate: @escaping @MainActor (Int32) -> Void
  ) -> [any DispatchSourceSignal] {
    func source(_ number: Int32, _ handler: @escaping @MainActor () -> Void) -> any DispatchSourceSignal {
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { MainActor.assumeIsolated { handler() } }
      source.resume()
      return source
    }
    return [
      source(SIGWINCH, resize),
      source(SIGTSTP, suspend),
      // Exit statuses follow the shell's convention: 128 + the signal's number.
      source(SIGINT) { terminate(128 + SIGINT) },
      source(SIGTERM) { terminate(128 + SIGTERM) },
      source(SIGHUP) { terminate(128 + SIGHUP) },
    ]
  }
}
