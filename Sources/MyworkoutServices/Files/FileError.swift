#if canImport(Glibc)
  import Glibc
#endif

/// A file could not be read, written, locked or moved. The message is one line that names the
/// file and the reason, ready to be shown to the user.
package struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  /// True when the file itself is unusable (unreadable, not a regular file, enormous, unparseable)
  /// rather than the system being briefly short of something (descriptors, memory, I/O).
  package let isDamage: Bool

  package init(message: String, isDamage: Bool = false) {
    self.message = message
    self.isDamage = isDamage
  }

  package var description: String { message }

  /// `"<what> <path>: <strerror(code)>"`, e.g. `Cannot write /x/accounts.json: Permission denied`.
  package static func posix(_ what: String, _ path: String, code: Int32) -> FileError {
    FileError(message: "\(what) \(path): \(describe(code))", isDamage: damageCodes.contains(code))
  }

  /// Error numbers that say something about the file itself, not about the system's state.
  private static let damageCodes: Set<Int32> = [EACCES, EPERM, EISDIR, ELOOP, EINVAL, ENXIO]
}

/// The text of an `errno` value, e.g. "Permission denied".
func describe(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "error \(code)" }
  return String(cString: text)
}
