#ifndef MYWORKOUT_TERMINAL_GUARD_H
#define MYWORKOUT_TERMINAL_GUARD_H

// Puts the terminal back when the process dies of a crash signal (SIGSEGV, SIGABRT, SIGBUS,
// SIGILL, SIGTRAP, SIGFPE), where no Swift code can run safely: the handlers only call
// async-signal-safe functions on bytes prepared beforehand. They write the saved reset bytes and
// the saved terminal modes, keep a short crash report in a file, name it in one line on the real
// standard error, and re-raise the signal with its default action (so the exit status is the
// signal's). While the screen is up, standard error goes to memory (a crash report carries it),
// so nothing, not even the Swift runtime's fatal-error message, is ever printed over the screen.

/// Saves the terminal modes of `fd` as they are now (before full-screen mode changes them).
/// Returns 0, or -1 when `fd` is not a terminal.
int mw_guard_save_modes(int fd);

/// The bytes that give the screen back to the shell (leave the alternate screen, show the
/// cursor, ...), written on a crash while the guard is armed. Arms the guard. At most 511 bytes.
void mw_guard_arm(const char *reset_bytes);

/// The terminal is the shell's again: a crash from now on does not touch it.
void mw_guard_disarm(void);

/// Sends standard error to memory until `mw_guard_release_stderr`. Returns 0, or -1 (and leaves
/// standard error alone) when that is not possible.
int mw_guard_capture_stderr(void);

/// Gives standard error back and writes to it what was captured meanwhile.
void mw_guard_release_stderr(void);

/// The folder crash reports are written to (`crash-<UTC time>.log`). At most 3,000 bytes.
void mw_guard_set_report_directory(const char *path);

/// Installs the crash handlers, replacing the Swift runtime's own (which print over the screen).
/// Call on the main thread: it also gives that thread an alternate signal stack, so a stack
/// overflow can still be reported. Returns 0, or -1 if a handler could not be installed.
int mw_guard_install_crash_handlers(void);

#endif
