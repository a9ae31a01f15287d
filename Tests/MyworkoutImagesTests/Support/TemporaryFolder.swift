import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under /tmp for one test, removed (with its files) afterwards.
func withTemporaryFolder(_ body: (String) async throws -> Void) async throws {
  var template = Array("/tmp/myworkout-images-XXXXXX".utf8CString)
  guard let made = mkdtemp(&template) else {
    Issue.record("mkdtemp failed")
    return
  }
  let path = String(cString: made)
  defer { removeTree(path) }
  try await body(path)
}

/// Writes bytes to a file, replacing it.
func write(_ bytes: [UInt8], to path: String) {
  guard let file = fopen(path, "wb") else {
    Issue.record("cannot create \(path)")
    return
  }
  _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
  fclose(file)
}

private func removeTree(_ path: String) {
  if let stream = opendir(path) {
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      removeTree(path + "/" + name)
    }
    closedir(stream)
    rmdir(path)
  } else {
    unlink(path)
  }
}
