import MyworkoutCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Notices that the data directory was removed while the app runs. The first request that finds
/// it gone fails with a plain message; the next one (`Try again`) makes it again, with the
/// signing key the running app holds, and goes on.
final class DataFolderWatch: Sendable {
  let directory: DataDirectory
  let keys: SigningKeyFile
  /// True once a request has said the folder is gone (and it has not been made again since).
  private let reported = Mutex(false)

  init(directory: DataDirectory, keys: SigningKeyFile) {
    self.directory = directory
    self.keys = keys
  }

  /// Returns when the folder is there (making it again if a request already said it was gone);
  /// throws `ServiceError.dataFolderGone` the first time it is found missing (its message is
  /// chosen with the others, in `ServiceError.message`). Blocking file I/O.
  func ensurePresent() throws {
    var info = stat()
    // Anything but "no such file" is for the stores to report in their own words.
    guard stat(directory.path, &info) != 0, errno == ENOENT else {
      reported.withLock { $0 = false }
      return
    }
    let first = reported.withLock { reported in
      defer { reported = true }
      return !reported
    }
    if first { throw ServiceError.dataFolderGone(path: directory.path) }
    let made = try DataDirectory.prepare(path: directory.path)
    try keys.keep(in: made)
    reported.withLock { $0 = false }
  }
}
