import CTerminalGuard

#if canImport(Glibc)
  import Glibc
#endif

/// Puts the terminal back when the app dies of a crash signal (SIGSEGV, SIGABRT, SIGBUS, SIGILL,
/// SIGTRAP, SIGFPE), keeps a short report (`crash-<UTC time>.log`) and names it in one line once
/// the shell has its screen back. The handlers are C (CTerminalGuard): only async-signal-safe
/// calls on bytes prepared here, never Swift code.
package enum CrashGuard {
  /// Installs the handlers, replacing the Swift runtime's own (which print over the screen);
  /// reports go to `reportDirectory`. Call on the main thread, after the runtime has started.
  package static func install(reportDirectory: String) {
    mw_guard_set_report_directory(reportDirectory)
    _ = mw_guard_install_crash_handlers()
  }

  /// Saves the terminal's modes as they are now (before full-screen mode changes them).
  static func saveModes() {
    _ = mw_guard_save_modes(STDIN_FILENO)
  }

  /// The screen is up: on a crash, write `resetBytes` and the saved modes. Standard error goes to
  /// memory meanwhile (a crash report includes it), so nothing prints over the screen.
  static func arm(resetBytes: String) {
    mw_guard_arm(resetBytes)
    _ = mw_guard_capture_stderr()
  }

  /// The terminal is the shell's again: give standard error back, with what was written to it.
  static func disarm() {
    mw_guard_disarm()
    mw_guard_release_stderr()
  }
}
