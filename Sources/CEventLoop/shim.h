#ifndef MYWORKOUT_CEVENTLOOP_SHIM_H
#define MYWORKOUT_CEVENTLOOP_SHIM_H

// What the app's main-thread event loop needs from the system: signalfd, poll, and libdispatch's
// run-loop hooks (the ones Foundation's RunLoop uses on Linux) to drain the main queue from our
// own loop instead of parking the main thread in dispatch_main().
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

/// A file descriptor that becomes readable when work is queued on the main dispatch queue.
extern int _dispatch_get_main_queue_handle_4CF(void);
/// Runs the work queued on the main dispatch queue (on the calling thread, the main thread).
extern void _dispatch_main_queue_callback_4CF(void *message);

static inline void mw_unused_handler(int number) { (void)number; }

/// Acknowledges a wake-up of the main queue's handle (an eventfd on Linux) by reading its
/// counter without blocking, as CoreFoundation's run loop does before it drains the queue. Left
/// unread, a wake-up for which the drain finds nothing to run keeps the handle readable, and the
/// loop would spin.
static inline void mw_acknowledge_wakeup(int fd) {
  unsigned long long count;
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && !(flags & O_NONBLOCK)) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  while (read(fd, &count, sizeof count) < 0 && errno == EINTR) {}
}

/// Blocks the signals the app handles, in this thread and in every thread started after it, and
/// returns a signalfd that reads them (-1 on failure). Call before any other thread starts.
///
/// Each signal also gets a handler that does nothing (it never runs while the signal is
/// blocked). That keeps ncurses from installing its own: ncurses installs handlers only over the
/// default action, and for SIGTSTP it would otherwise set SIG_IGN around every refresh, which
/// discards a Ctrl-Z pressed at that moment. SIG_IGN is not an option here for the same reason:
/// an ignored signal is dropped before the signalfd can read it.
static inline int mw_block_signals_into_fd(const int *numbers, int count) {
  sigset_t set;
  sigemptyset(&set);
  struct sigaction action;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  action.sa_handler = mw_unused_handler;
  for (int index = 0; index < count; index++) {
    sigaddset(&set, numbers[index]);
    sigaction(numbers[index], &action, NULL);
  }
  if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
  return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/// Ends the process by signal `number` with its default action, as shells expect of a program
/// that a signal ended (a script that ran it can tell an interruption from an exit, and `$?` is
/// 128 + number either way): the handler back to the default, the signal unblocked in this
/// thread, and raised. Falls back to exiting with 128 + number.
static inline void mw_end_by_signal(int number) {
  fflush(NULL);
  signal(number, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, number);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(number);
  _exit(128 + number);
}

/// Reads one pending signal's number from a signalfd, or 0 when none is pending.
static inline int mw_read_signal(int fd) {
  struct signalfd_siginfo info;
  ssize_t count = read(fd, &info, sizeof info);
  return count == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}

/// A repeating timer as a file descriptor (readable at each expiry), on the monotonic clock, so the
/// main loop's own poll wakes for it with no other thread involved; -1 on failure.
static inline int mw_ticker_create(long long interval_ns) {
  int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (fd < 0) return -1;
  struct itimerspec spec;
  spec.it_interval.tv_sec = interval_ns / 1000000000LL;
  spec.it_interval.tv_nsec = interval_ns % 1000000000LL;
  spec.it_value = spec.it_interval;
  if (timerfd_settime(fd, 0, &spec, NULL) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/// Reads a ticker's expiry count (so it stops being readable); 0 when none is pending.
static inline unsigned long long mw_ticker_read(int fd) {
  unsigned long long count = 0;
  if (read(fd, &count, sizeof count) != (ssize_t)sizeof count) return 0;
  return count;
}

/// Names the calling thread (at most 15 bytes show), as `top -H` and /proc/PID/task/TID/comm
/// list it.
static inline void mw_name_this_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
