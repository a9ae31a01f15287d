#ifndef MYWORKOUT_CNCURSES_SHIM_H
#define MYWORKOUT_CNCURSES_SHIM_H

// The wide-character ncurses API, plus static inline wrappers for what Swift cannot import
// (macros and global variables). The Terminal adapter is the only code that uses this module.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

// From <ncursesw/term.h>, which cannot be included here: its capability macros (`columns`,
// `lines`, ...) would rewrite ordinary names.
struct term;
extern int setupterm(const char *type, int fd, int *error);
extern struct term *set_curterm(struct term *terminal);
extern int del_curterm(struct term *terminal);

static inline WINDOW *mw_stdscr(void) { return stdscr; }

static inline attr_t mw_attr_normal(void) { return A_NORMAL; }
static inline attr_t mw_attr_bold(void) { return A_BOLD; }
static inline attr_t mw_attr_dim(void) { return A_DIM; }
static inline attr_t mw_attr_reverse(void) { return A_REVERSE; }
static inline attr_t mw_attr_underline(void) { return A_UNDERLINE; }

/// Reads one byte or function key without waiting (the screen is in nodelay mode): a byte
/// (0–255), a function key code (KEY_MIN and above), or ERR when nothing is left to read. Bytes,
/// not characters: `get_wch` took up to 16 bytes after one that is not UTF-8 into its multibyte
/// buffer and lost them (a Ctrl-C among them), so the app puts UTF-8 together itself.
static inline int mw_getch(void) { return wgetch(stdscr); }

/// Draws one character (a base character and up to four combining marks) at a position.
/// The pair goes through setcchar's `opts` so that pairs past 32,767 (extended pairs) work.
static inline int mw_put(int row, int column, const wchar_t *text, attr_t attributes,
                         int pair) {
  cchar_t cell;
  if (setcchar(&cell, text, attributes, (short)(pair <= 0x7FFF ? pair : 0), &pair) != OK)
    return ERR;
  return mvwadd_wch(stdscr, row, column, &cell);
}

/// How many colours the terminal has (ncurses' COLORS, valid after start_color).
static inline int mw_colors(void) { return COLORS; }

/// The terminal's size as the kernel knows it (ncurses' own LINES/COLS lag behind a resize).
static inline int mw_terminal_size(int fd, int *rows, int *columns) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
  *rows = size.ws_row;
  *columns = size.ws_col;
  return 0;
}

/// Starts ncurses on standard output and input for a terminal type; NULL when it is unknown.
static inline SCREEN *mw_newterm(const char *type) { return newterm(type, stdout, stdin); }

/// 1 when the terminal type is known and can move its cursor (terminfo `cup`), 0 when the type
/// is unknown, -1 when it is known but has no cursor addressing (`dumb`). Reads the terminfo
/// entry and frees it again: nothing is sent to the terminal and no screen is started.
static inline int mw_terminal_type_usable(const char *type) {
  int error = 0;
  if (setupterm(type, STDOUT_FILENO, &error) != OK) return 0;
  const char *cup = tigetstr("cup");
  int usable = cup != NULL && cup != (const char *)-1;
  del_curterm(set_curterm(NULL));
  return usable ? 1 : -1;
}

/// A string capability of the current terminal, or "" when it has none.
static inline const char *mw_capability(const char *name) {
  const char *value = tigetstr(name);
  return value == NULL || value == (const char *)-1 ? "" : value;
}

static inline void mw_write_raw(const char *text) {
  fputs(text, stdout);
  fflush(stdout);
}

/// Bytes to the terminal through ncurses' own stream (so they follow what it wrote), at once.
static inline void mw_write_bytes(const void *bytes, size_t count) {
  // What ncurses left in stdio's buffer goes first; then the bytes in one write (through
  // stdio they went out in three: the buffer's remainder, whole blocks, the tail), so the
  // terminal gets a picture at once.
  fflush(stdout);
  const char *next = bytes;
  while (count > 0) {
    ssize_t written = write(STDOUT_FILENO, next, count);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        // A terminal set non-blocking by someone else: wait for room rather than cut a
        // sequence in two.
        struct pollfd out = {.fd = STDOUT_FILENO, .events = POLLOUT};
        poll(&out, 1, 1000);
        continue;
      }
      return;
    }
    next += written;
    count -= (size_t)written;
  }
}

/// Ctrl-C becomes a key the app reads instead of a SIGINT the terminal sends to the whole
/// foreground process group: a shell that ran the app (dash in `sh -c '...; echo'`) would get the
/// signal too and end its script. Flow control goes too: Ctrl-S (XOFF) would stop the terminal's
/// output, and the app would hang in its next write, deaf to keys and signals, until Ctrl-Q.
/// ncurses keeps this in its "program" modes (restored after Ctrl-Z and `fg`) and gives the
/// shell its own modes back at `endwin`. 0 on success.
static inline int mw_interrupt_key_as_input(void) {
  struct termios modes;
  if (tcgetattr(STDIN_FILENO, &modes) != 0) return -1;
  modes.c_cc[VINTR] = _POSIX_VDISABLE;
  // Ctrl-Z and Ctrl-\ likewise: read as keys, the app stops or quits itself; in a paste they
  // are the paste's text (a walk-through's paste of `abc^Zdef` stopped the app).
  modes.c_cc[VSUSP] = _POSIX_VDISABLE;
  modes.c_cc[VQUIT] = _POSIX_VDISABLE;
  modes.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
  if (tcsetattr(STDIN_FILENO, TCSANOW, &modes) != 0) return -1;
  return def_prog_mode();
}

// 1 when this process's group has the terminal on standard input (or it has none to wait
// for: no terminal, or its session is gone), 0 when it runs in the background (`bg`).
static inline int mw_in_foreground(void) {
  pid_t group = tcgetpgrp(STDIN_FILENO);
  return group == -1 || group == getpgrp();
}

// Stops this process's job as the kernel stops a background job that wants the terminal
// (`Stopped (tty output)`): its whole process group, so that a script that ran the app stops
// with it and its shell sees the job stopped (and `fg` continues it; a walk-through's `bg`
// under `sh -c` left the script running and `fg` waiting on a stopped app). By SIGSTOP where
// SIGTTOU would not stop this process (ignored, or blocked: a parent may leave either so, and
// a signal that stops nothing would spin the caller's loop).
static inline void mw_stop_for_terminal(void) {
  struct sigaction action;
  sigset_t blocked;
  int ignored = sigaction(SIGTTOU, NULL, &action) == 0 && action.sa_handler == SIG_IGN;
  int held = pthread_sigmask(SIG_BLOCK, NULL, &blocked) == 0 && sigismember(&blocked, SIGTTOU);
  int stop = ignored || held ? SIGSTOP : SIGTTOU;
  if (kill(0, stop) != 0) raise(stop);
}

// Ctrl-Z (read as a key, see above): stops the job as the terminal's own stop character did,
// every process of the terminal's foreground group (a script that ran the app stops with it,
// so its shell takes the terminal back); only this process when it is not that group.
static inline void mw_stop_job(void) {
  pid_t group = tcgetpgrp(STDIN_FILENO);
  if (group > 0 && group == getpgrp()) {
    kill(-group, SIGSTOP);
  } else {
    raise(SIGSTOP);
  }
}

#endif
