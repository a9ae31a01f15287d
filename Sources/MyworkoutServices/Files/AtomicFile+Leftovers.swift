#if canImport(Glibc)
  import Glibc
#endif

extension AtomicFile {
  /// Removes temporary files that a writer killed mid-write left behind
  /// (`.<name>.tmp-<pid>-<suffix>`, see `write`), when their process no longer exists. The real
  /// files are never touched; a leftover of a live process (or of an unknown name) is kept.
  /// Returns how many were removed.
  @discardableResult
  static func removeLeftovers(in directory: String) -> Int {
    guard let stream = opendir(directory) else { return 0 }
    defer { closedir(stream) }
    var removed = 0
    while let entry = readdir(stream) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      guard let pid = writerProcess(ofTemporary: name), pid != getpid() else { continue }
      guard kill(pid, 0) != 0, errno == ESRCH else { continue }
      if unlink(PathParts.join(directory, name)) == 0 { removed += 1 }
    }
    return removed
  }

  /// The writer's process id in a temporary file's name, or nil when it is not one of ours.
  static func writerProcess(ofTemporary name: String) -> pid_t? {
    guard name.hasPrefix(".") else { return nil }
    // `.<name>.tmp-<pid>-<suffix>`: the pid is the second field from the end, split on `-`,
    // right after the `.tmp` that ends the first part.
    let fields = name.split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count >= 3, fields[fields.count - 3].hasSuffix(".tmp"),
      let pid = pid_t(fields[fields.count - 2]), pid > 0
    else { return nil }
    return pid
  }
}
