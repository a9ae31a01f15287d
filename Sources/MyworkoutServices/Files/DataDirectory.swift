#if canImport(Glibc)
  import Glibc
#endif

/// The directory that holds the app's files (SPEC §7). Only `prepare(path:)` makes one, so a
/// value of this type always names a directory that existed, private to its owner, when made.
package struct DataDirectory: Equatable, Sendable {
  package let path: String

  /// Wraps a path without checking it (tests and `prepare`).
  package init(unchecked path: String) {
    self.path = PathParts.trimmed(path)
  }

  var accountsPath: String { PathParts.join(path, "accounts.json") }
  var sessionPath: String { PathParts.join(path, "session.json") }
  var signingKeyPath: String { PathParts.join(path, "signing.key") }
  package var lockPath: String { PathParts.join(path, "accounts.lock") }

  /// `--data-dir`, else `$MYWORKOUT_DATA_DIR`, else `$XDG_DATA_HOME/myworkout`, else
  /// `$HOME/.local/share/myworkout`. Empty values count as unset, and so does a relative
  /// `XDG_DATA_HOME` (the XDG Base Directory spec: such a path is invalid and ignored).
  package static func resolve(override: String?, environment: [String: String]) -> String {
    func value(_ raw: String?) -> String? {
      guard let raw, !raw.isEmpty else { return nil }
      return raw
    }
    if let path = value(override) { return path }
    if let path = value(environment["MYWORKOUT_DATA_DIR"]) { return path }
    if let base = value(environment["XDG_DATA_HOME"]), base.hasPrefix("/") {
      return PathParts.join(base, "myworkout")
    }
    let home = value(environment["HOME"]) ?? homeFromPasswordDatabase() ?? "."
    return PathParts.join(home, ".local/share/myworkout")
  }

  /// Makes the directory and any missing parents (mode 0700) and returns it. An existing
  /// directory of ours that group or others can reach is narrowed to 0700. Temporary files left
  /// by a writer that was killed mid-write are removed.
  package static func prepare(path raw: String) throws(DataDirectoryError) -> DataDirectory {
    let path = PathParts.trimmed(raw)
    guard !path.isEmpty else {
      throw DataDirectoryError(message: "The data directory path is empty")
    }
    var prefix = path.hasPrefix("/") ? "/" : ""
    var created = false
    for component in path.split(separator: "/") {
      prefix = prefix.isEmpty ? String(component) : PathParts.join(prefix, String(component))
      created = mkdir(prefix, 0o700) == 0
      if created { continue }
      let code = errno
      guard code == EEXIST else {
        throw DataDirectoryError(message: "Cannot create data directory \(path): \(describe(code))")
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw DataDirectoryError(message: "Cannot use data directory \(path): \(describe(errno))")
    }
    guard FileMode.isDirectory(info.st_mode) else {
      throw DataDirectoryError(message: "Data directory \(path) is not a directory")
    }
    let ours = info.st_uid == geteuid()
    if created || (ours && info.st_mode & FileMode.groupOrOther != 0) {
      // Exactly 0700 whatever the umask took away. Best effort: the files inside are 0600
      // whatever happens here.
      _ = chmod(path, 0o700)
    }
    guard access(path, R_OK | W_OK | X_OK) == 0 else {
      throw DataDirectoryError(message: "Cannot use data directory \(path): \(describe(errno))")
    }
    AtomicFile.removeLeftovers(in: path)
    return DataDirectory(unchecked: path)
  }

  private static func homeFromPasswordDatabase() -> String? {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
    let home = String(cString: directory)
    return home.isEmpty ? nil : home
  }
}

/// The data directory cannot be made or used; the message is one line for the user.
package struct DataDirectoryError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  package var description: String { message }
}
