#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a lock file, shared by every process and every store
/// object that uses the same data directory. Each call opens the file anew, so two callers in the
/// same process exclude each other too.
package enum FileLock {
  /// Runs `body` while holding the lock on `path` (created 0600 if missing). Blocks until the lock
  /// is free: call it off the main actor.
  package static func withExclusiveLock<T>(path: String, _ body: () throws -> T) throws -> T {
    let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileError.posix("Cannot open the lock file", path, code: errno) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      let code = errno
      guard code == EINTR else { throw FileError.posix("Cannot lock", path, code: code) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
