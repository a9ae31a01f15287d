@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Runs `body` with a fresh directory made by `mkdtemp` under /tmp, removed afterwards.
func withTemporaryDirectory<T>(
  _ body: (String) async throws -> T
) async throws -> T {
  var template = Array("/tmp/myworkout-tests-XXXXXX".utf8CString)
  let path: String? = template.withUnsafeMutableBufferPointer { buffer in
    mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
  }
  guard let path else { throw FileError(message: "mkdtemp failed") }
  defer { removeTree(path) }
  return try await body(path)
}

/// A prepared data directory inside a fresh temporary directory.
func withDataDirectory<T>(_ body: (DataDirectory) async throws -> T) async throws -> T {
  try await withTemporaryDirectory { root throws in
    try await body(DataDirectory.prepare(path: root + "/data"))
  }
}

/// Deletes a directory tree, making unreadable entries readable first.
func removeTree(_ path: String) {
  _ = chmod(path, 0o700)
  try? FileManager.default.removeItem(atPath: path)
}

/// The permission bits of `path` (without following a final symbolic link).
func permissions(_ path: String) -> mode_t {
  var info = stat()
  guard lstat(path, &info) == 0 else { return 0o7777 }
  return info.st_mode & 0o777
}

func exists(_ path: String) -> Bool {
  var info = stat()
  return lstat(path, &info) == 0
}

/// The names in a directory, sorted.
func listing(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

func contents(_ path: String) -> Data? {
  try? AtomicFile.read(path: path, limit: 16 << 20)
}

/// Writes raw bytes (not atomically: tests use it to damage files).
func put(_ bytes: [UInt8], at path: String, mode: mode_t = 0o600) {
  let fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, mode)
  precondition(fd >= 0, "cannot create \(path)")
  _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
  close(fd)
  _ = chmod(path, mode)
}

let isRoot = geteuid() == 0
