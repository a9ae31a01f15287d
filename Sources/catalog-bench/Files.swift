#if canImport(Glibc)
  import Glibc
#endif

/// A fresh directory under /tmp.
func temporaryDirectory() -> String {
  var template = Array("/tmp/catalog-bench-XXXXXX".utf8CString)
  guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    fatal("cannot make a temporary directory")
  }
  return String(cString: made)
}

/// Writes `text` to a new file at `path`.
func write(_ text: String, to path: String) {
  guard let file = fopen(path, "w") else { fatal("cannot write \(path)") }
  defer { fclose(file) }
  var text = text
  text.withUTF8 { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, file) }
}

/// Removes the files the benchmark made (one level of directories below `path`).
func removeTree(_ path: String) {
  guard let directory = opendir(path) else { return }
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(cString: bytes.bindMemory(to: CChar.self).baseAddress!)
    }
    if name == "." || name == ".." { continue }
    let child = path + "/" + name
    if unlink(child) != 0 { removeTree(child) }
  }
  closedir(directory)
  rmdir(path)
}

/// Reports `message` on standard error and exits with status 1.
func fatal(_ message: String) -> Never {
  let line = Array("catalog-bench: \(message)\n".utf8)
  _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  exit(1)
}
