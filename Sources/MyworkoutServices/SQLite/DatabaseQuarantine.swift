#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Moves a damaged database file aside (SPEC §7's rule for damaged files), with its -wal and
/// -shm files so that they can never be replayed into the new file made in its place.
package enum DatabaseQuarantine {
  /// Under the data directory's lock, moves `path` aside if it is still the file `damaged`
  /// (another copy of the app may already have moved it and made a new one); returns the new
  /// name, or nil when nothing was moved.
  package static func moveAside(
    path: String, ifStill damaged: FileIdentity?, directory: DataDirectory, now: Date
  ) throws -> String? {
    try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> String? in
      guard let damaged, FileIdentity(path: path) == damaged else { return nil }
      let name = try Quarantine.moveAside(path: path, now: now)
      for suffix in ["-wal", "-shm"] where FileIdentity(path: path + suffix) != nil {
        _ = try Quarantine.moveAside(path: path + suffix, now: now)
      }
      return name
    }
  }

  /// Under the data directory's lock, removes `path` with its -wal and -shm files if it is still
  /// the file `opened`: a file that only holds copies (a newer version's catalog), which another
  /// copy of the app may already have made again. Returns whether it removed it.
  @discardableResult
  package static func remove(
    path: String, ifStill opened: FileIdentity?, directory: DataDirectory
  ) throws -> Bool {
    try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> Bool in
      guard let opened, FileIdentity(path: path) == opened else { return false }
      for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
      return true
    }
  }
}
