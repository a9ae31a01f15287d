#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Moves a damaged file aside, next to where it was, so that nothing is ever deleted silently.
package enum Quarantine {
  /// Renames `path` to `<name>.corrupt-<yyyyMMdd'T'HHmmss'Z'>` (then `-2`, `-3`, ... if taken) in
  /// the same directory and returns the new file name.
  package static func moveAside(path: String, now: Date) throws(FileError) -> String {
    let (directory, name) = PathParts.split(path)
    let base = "\(name).corrupt-\(timestamp(now))"
    for attempt in 1...999 {
      let candidate = attempt == 1 ? base : "\(base)-\(attempt)"
      if try claim(path, as: PathParts.join(directory, candidate)) { return candidate }
    }
    throw FileError(message: "Cannot move \(path) aside: too many damaged copies")
  }

  /// Moves `path` to `target` unless `target` exists; true when moved.
  private static func claim(_ path: String, as target: String) throws(FileError) -> Bool {
    // A hard link fails atomically when the target exists, so two processes cannot pick the
    // same name.
    if link(path, target) == 0 {
      guard unlink(path) == 0 else {
        let code = errno
        unlink(target)
        throw .posix("Cannot move aside", path, code: code)
      }
      return true
    }
    if errno == EEXIST { return false }
    // Directories and some file systems refuse hard links: rename after checking the name is free
    // (callers hold the data directory's lock, so no one else takes it in between).
    var info = stat()
    if lstat(target, &info) == 0 { return false }
    guard rename(path, target) == 0 else { throw .posix("Cannot move aside", path, code: errno) }
    return true
  }

  /// `20261121T141500Z` for the UTC time `now`.
  static func timestamp(_ now: Date) -> String {
    var seconds = time_t(now.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let date = pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2)
    let time = pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2)
    return "\(date)T\(time)Z"
  }

  private static func pad(_ value: Int32, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
