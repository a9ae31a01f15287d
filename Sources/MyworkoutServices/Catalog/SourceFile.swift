import Crypto

#if canImport(Glibc)
  import Glibc
#endif

/// What identifies one version of a classes file: where it is, its size and modification time
/// (cheap to compare on every first load) and the SHA-256 of its bytes (compared when the first
/// two changed, so that a file merely touched is not imported again).
struct SourceFingerprint: Equatable, Sendable {
  var path: String
  var size: Int64
  /// Nanoseconds since 1970.
  var modified: Int64
  /// Lowercase hex; empty when only `stat` was asked for.
  var sha256: String

  /// Same path, size and modification time.
  func hasSameStat(as other: SourceFingerprint) -> Bool {
    path == other.path && size == other.size && modified == other.modified
  }
}

/// Reads a classes file in chunks (never whole), refusing what is not a regular file.
enum SourceFile {
  static let chunkSize = 1 << 16

  /// Path, size and modification time of the regular file at `path` (no hash).
  static func identify(_ path: String) throws(FileError) -> SourceFingerprint {
    var info = stat()
    guard stat(path, &info) == 0 else { throw .posix("Cannot read", path, code: errno) }
    guard FileMode.isRegular(info.st_mode) else {
      throw FileError(message: "\(path) is not a regular file", isDamage: true)
    }
    return fingerprint(path, info, sha256: "")
  }

  /// Reads the whole file, handing each chunk to `body`; returns its fingerprint with the hash
  /// of exactly the bytes handed out.
  static func read(
    _ path: String, _ body: (UnsafeRawBufferPointer) throws -> Void = { _ in }
  ) throws -> SourceFingerprint {
    // O_NONBLOCK: a FIFO put in place of the file must not hang the app.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw FileError.posix("Cannot read", path, code: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw FileError.posix("Cannot read", path, code: errno) }
    guard FileMode.isRegular(info.st_mode) else {
      throw FileError(message: "\(path) is not a regular file", isDamage: true)
    }
    var hasher = SHA256()
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        let code = errno
        if code == EINTR || code == EAGAIN { continue }
        throw FileError.posix("Cannot read", path, code: code)
      }
      if count == 0 { break }
      try buffer.withUnsafeBytes { bytes in
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
        hasher.update(bufferPointer: chunk)
        try body(chunk)
      }
    }
    return fingerprint(path, info, sha256: hasher.finalize().hexString)
  }

  private static func fingerprint(
    _ path: String, _ info: stat, sha256: String
  ) -> SourceFingerprint {
    let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    return SourceFingerprint(
      path: path, size: Int64(info.st_size), modified: modified, sha256: sha256)
  }
}
