#if canImport(Glibc)
  import Glibc
#endif

/// Turns for the writers of one database file, across connections and processes.
///
/// SQLite has no queue for its write lock: a connection that finds it taken tries again later
/// (every millisecond, see `SQLiteDatabase.init`), and a writer that commits back to back takes
/// it again within microseconds, so the waiting one gets in only by chance. On a loaded machine
/// that starved one of two processes saving progress for its whole 5-s busy timeout.
///
/// So a connection waiting for the write lock in `BEGIN IMMEDIATE` says so with a shared
/// `flock` on a side file (`<database>-writers`), and a connection about to begin one first
/// lets any waiting writer go (until no shared lock is left, for at most `courtesy`). The side
/// file is made by the first connection that has to wait; until then nobody checks anything
/// but that it is absent. `flock` locks end with their process, so one that dies while waiting
/// leaves no mark; one stopped while waiting costs the others at most `courtesy` per turn.
///
/// The side file is never the database or its log: closing a descriptor drops every POSIX
/// lock its process holds on that file, and SQLite keeps its locks there.
final class SQLiteWriterQueue {
  /// How long a writer lets waiting writers go first, at most.
  static let courtesy: Duration = .milliseconds(50)

  private let path: String
  private var descriptor: Int32 = -1
  /// Set around `BEGIN IMMEDIATE`: only a wait for the write lock is a place in the queue.
  private var isBeginning = false
  /// This connection holds its shared lock: it is waiting.
  private var isWaiting = false

  init(databasePath: String) {
    path = databasePath + "-writers"
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Runs `begin` (the `BEGIN IMMEDIATE`) in turn: after the writers already waiting, and as a
  /// waiting writer while SQLite's busy handler waits inside it.
  func inTurn<T>(_ begin: () throws -> T) rethrows -> T {
    letWaitingWritersGo()
    isBeginning = true
    defer {
      isBeginning = false
      if isWaiting {
        _ = flock(descriptor, LOCK_UN)
        isWaiting = false
      }
    }
    return try begin()
  }

  /// Called by the busy handler on each try: while beginning, join the waiting writers.
  func noteBusy() {
    guard isBeginning, !isWaiting, open(creating: true) else { return }
    isWaiting = flock(descriptor, LOCK_SH | LOCK_NB) == 0
  }

  /// Waits while another connection holds a shared lock (is waiting), up to `courtesy`.
  private func letWaitingWritersGo() {
    guard open(creating: false) else { return }
    let deadline = ContinuousClock.now + Self.courtesy
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
        return
      }
      usleep(200)
    }
    _ = flock(descriptor, LOCK_UN)
  }

  /// Opens the side file once (mode 0600, like every data file); false when it is absent and
  /// not `creating`, or cannot be a lock file (then writers wait as SQLite alone lets them).
  private func open(creating: Bool) -> Bool {
    if descriptor >= 0 { return true }
    // O_NONBLOCK: a FIFO put in its place cannot hang the open; O_NOFOLLOW: nor a link lead
    // elsewhere.
    let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (creating ? O_CREAT : 0)
    let opened = Glibc.open(path, flags, 0o600)
    guard opened >= 0 else { return false }
    // One link only: a hard link to another file (the database itself, whose locks a close
    // would drop) is not a lock file.
    var info = stat()
    guard fstat(opened, &info) == 0, FileMode.isRegular(info.st_mode), info.st_nlink == 1 else {
      close(opened)
      return false
    }
    if info.st_mode & FileMode.groupOrOther != 0 { _ = fchmod(opened, 0o600) }
    descriptor = opened
    return true
  }
}
