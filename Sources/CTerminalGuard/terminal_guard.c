#define _GNU_SOURCE
#include "terminal_guard.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

// Everything the handler reads is prepared here beforehand; the handler allocates nothing.
static struct termios saved_modes;
static int modes_fd = -1;
static char reset_bytes[512];
static size_t reset_length;
static atomic_int armed;
static char report_directory[3072];
static atomic_int captured_fd = -1;
static atomic_int original_stderr = -1;
static atomic_flag handling = ATOMIC_FLAG_INIT;
static char alternate_stack[64 * 1024];
static char executable_path[1024];

static const int crash_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGTRAP, SIGFPE};

int mw_guard_save_modes(int fd) {
  if (tcgetattr(fd, &saved_modes) != 0) return -1;
  modes_fd = fd;
  return 0;
}

void mw_guard_arm(const char *bytes) {
  size_t length = strlen(bytes);
  if (length >= sizeof reset_bytes) length = sizeof reset_bytes - 1;
  memcpy(reset_bytes, bytes, length);
  reset_length = length;
  atomic_store(&armed, 1);
}

void mw_guard_disarm(void) { atomic_store(&armed, 0); }

int mw_guard_capture_stderr(void) {
  if (atomic_load(&captured_fd) >= 0) return 0;
  int memory = memfd_create("myworkout-stderr", MFD_CLOEXEC);
  if (memory < 0) return -1;
  int original = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (original < 0 || dup2(memory, STDERR_FILENO) < 0) {
    if (original >= 0) close(original);
    close(memory);
    return -1;
  }
  atomic_store(&original_stderr, original);
  atomic_store(&captured_fd, memory);
  return 0;
}

static void write_all(int fd, const char *bytes, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, bytes, length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    bytes += written;
    length -= (size_t)written;
  }
}

static void write_text(int fd, const char *text) { write_all(fd, text, strlen(text)); }

/// Copies everything written to the memory file `from` so far to `to`.
static void copy_captured(int from, int to) {
  char buffer[4096];
  off_t offset = 0;
  while (1) {
    ssize_t count = pread(from, buffer, sizeof buffer, offset);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) return;
    write_all(to, buffer, (size_t)count);
    offset += count;
  }
}

void mw_guard_release_stderr(void) {
  int memory = atomic_exchange(&captured_fd, -1);
  int original = atomic_exchange(&original_stderr, -1);
  if (memory < 0 || original < 0) return;
  dup2(original, STDERR_FILENO);
  close(original);
  copy_captured(memory, STDERR_FILENO);
  close(memory);
}

void mw_guard_set_report_directory(const char *path) {
  size_t length = strlen(path);
  if (length >= sizeof report_directory) length = 0;
  memcpy(report_directory, path, length);
  report_directory[length] = 0;
}

// --- Formatting without stdio (none of it is async-signal-safe) ---

/// Appends `text` to `buffer` (of `size` bytes, kept NUL-terminated); returns the new length.
static size_t append(char *buffer, size_t size, size_t length, const char *text) {
  while (*text && length + 1 < size) buffer[length++] = *text++;
  buffer[length] = 0;
  return length;
}

/// Appends `value` in decimal, padded with zeros to at least `width` digits.
static size_t append_number(char *buffer, size_t size, size_t length, long value, int width) {
  char digits[24];
  int count = 0;
  unsigned long rest = value < 0 ? (unsigned long)(-value) : (unsigned long)value;
  do {
    digits[count++] = (char)('0' + rest % 10);
    rest /= 10;
  } while (rest > 0 && count < 20);
  while (count < width && count < 20) digits[count++] = '0';
  if (value < 0) length = append(buffer, size, length, "-");
  char text[24];
  for (int index = 0; index < count; index++) text[index] = digits[count - 1 - index];
  text[count] = 0;
  return append(buffer, size, length, text);
}

/// The civil UTC date and time of `seconds` since 1970 (H. Hinnant's days-to-civil algorithm;
/// gmtime is not async-signal-safe).
static void civil(time_t seconds, long parts[6]) {
  long days = (long)(seconds / 86400);
  long rest = (long)(seconds % 86400);
  if (rest < 0) {
    rest += 86400;
    days -= 1;
  }
  days += 719468;
  long era = (days >= 0 ? days : days - 146096) / 146097;
  long day_of_era = days - era * 146097;
  long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  long month_index = (5 * day_of_year + 2) / 153;
  long day = day_of_year - (153 * month_index + 2) / 5 + 1;
  long month = month_index < 10 ? month_index + 3 : month_index - 9;
  long year = year_of_era + era * 400 + (month <= 2);
  parts[0] = year;
  parts[1] = month;
  parts[2] = day;
  parts[3] = rest / 3600;
  parts[4] = rest / 60 % 60;
  parts[5] = rest % 60;
}

static const char *signal_name(int number) {
  switch (number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGFPE: return "SIGFPE";
    default: return "signal";
  }
}

/// Creates `<directory>/crash-<yyyyMMdd'T'HHmmss'Z'>[-n].log` (0600, never over another file);
/// returns its descriptor (path in `path`), or -1.
static int create_report(const long parts[6], char *path, size_t size) {
  if (report_directory[0] == 0) return -1;
  for (int attempt = 1; attempt < 100; attempt++) {
    size_t length = append(path, size, 0, report_directory);
    if (length > 0 && path[length - 1] != '/') length = append(path, size, length, "/");
    length = append(path, size, length, "crash-");
    length = append_number(path, size, length, parts[0], 4);
    length = append_number(path, size, length, parts[1], 2);
    length = append_number(path, size, length, parts[2], 2);
    length = append(path, size, length, "T");
    length = append_number(path, size, length, parts[3], 2);
    length = append_number(path, size, length, parts[4], 2);
    length = append_number(path, size, length, parts[5], 2);
    length = append(path, size, length, "Z");
    if (attempt > 1) {
      length = append(path, size, length, "-");
      length = append_number(path, size, length, attempt, 1);
    }
    append(path, size, length, ".log");
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

static void write_report(int fd, int number, const long parts[6]) {
  char text[256];
  size_t length = append(text, sizeof text, 0, "myworkout crashed: signal ");
  length = append_number(text, sizeof text, length, number, 1);
  length = append(text, sizeof text, length, " (");
  length = append(text, sizeof text, length, signal_name(number));
  length = append(text, sizeof text, length, ")\ntime: ");
  length = append_number(text, sizeof text, length, parts[0], 4);
  length = append(text, sizeof text, length, "-");
  length = append_number(text, sizeof text, length, parts[1], 2);
  length = append(text, sizeof text, length, "-");
  length = append_number(text, sizeof text, length, parts[2], 2);
  length = append(text, sizeof text, length, "T");
  length = append_number(text, sizeof text, length, parts[3], 2);
  length = append(text, sizeof text, length, ":");
  length = append_number(text, sizeof text, length, parts[4], 2);
  length = append(text, sizeof text, length, ":");
  length = append_number(text, sizeof text, length, parts[5], 2);
  length = append(text, sizeof text, length, "Z\nprocess: ");
  length = append_number(text, sizeof text, length, (long)getpid(), 1);
  append(text, sizeof text, length, "\n\nbacktrace (of the thread that received the signal):\n");
  write_text(fd, text);
  void *frames[64];
  int count = backtrace(frames, 64);
  backtrace_symbols_fd(frames, count, fd);
  // The release binary exports no symbols, so the frames are bare addresses: say how to name them.
  if (executable_path[0] != '\0') {
    write_text(fd, "(name the addresses with: addr2line -f -e ");
    write_text(fd, executable_path);
    write_text(fd, " ADDRESS...)\n");
  }
  int memory = atomic_load(&captured_fd);
  if (memory >= 0) {
    write_text(fd, "\nstandard error while the screen was up:\n");
    copy_captured(memory, fd);
  }
}

static void crash_handler(int number, siginfo_t *info, void *context) {
  (void)info;
  (void)context;
  if (atomic_flag_test_and_set(&handling)) {
    // Another thread is reporting a crash already and will end the process.
    while (1) pause();
  }
  // 1. The terminal first: whatever fails later, the shell gets its screen back.
  if (atomic_load(&armed)) {
    write_all(STDOUT_FILENO, reset_bytes, reset_length);
    if (modes_fd >= 0) tcsetattr(modes_fd, TCSANOW, &saved_modes);
  }
  // 2. The report.
  struct timespec now = {0, 0};
  clock_gettime(CLOCK_REALTIME, &now);
  long parts[6];
  civil(now.tv_sec, parts);
  char path[sizeof report_directory + 64];
  int fd = create_report(parts, path, sizeof path);
  if (fd >= 0) {
    write_report(fd, number, parts);
    close(fd);
  }
  // 3. One line, on the real standard error, now that the terminal is back.
  int out = atomic_load(&original_stderr);
  if (out < 0) out = STDERR_FILENO;
  char line[sizeof path + 128];
  size_t length = append(line, sizeof line, 0, "myworkout crashed (");
  length = append(line, sizeof line, length, signal_name(number));
  length = append(line, sizeof line, length, fd >= 0 ? "); report: " : "); no report could be kept");
  if (fd >= 0) length = append(line, sizeof line, length, path);
  append(line, sizeof line, length, "\n");
  write_text(out, line);
  // 4. Die of the same signal, with its default action.
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(number, &action, NULL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, number);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(number);
  // Not reached: the default action of each of these signals ends the process.
  _exit(128 + number);
}

int mw_guard_install_crash_handlers(void) {
  ssize_t path_length = readlink("/proc/self/exe", executable_path, sizeof executable_path - 1);
  executable_path[path_length > 0 ? path_length : 0] = '\0';

  // In a dynamically linked program the first call of backtrace() loads libgcc_s (which
  // allocates): do it now, not in a crash. A static program (no interpreter, AT_BASE is 0) has
  // its unwinder linked in, and a first unwind there sorts every frame description of the
  // binary (20 ms and 2 MiB): that is left for a crash, which is rare.
  if (getauxval(AT_BASE) != 0) {
    void *frames[2];
    backtrace(frames, 2);
  }

  stack_t stack;
  memset(&stack, 0, sizeof stack);
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, NULL);

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = crash_handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigfillset(&action.sa_mask);
  int result = 0;
  for (size_t index = 0; index < sizeof crash_signals / sizeof crash_signals[0]; index++) {
    if (sigaction(crash_signals[index], &action, NULL) != 0) result = -1;
  }
  return result;
}
