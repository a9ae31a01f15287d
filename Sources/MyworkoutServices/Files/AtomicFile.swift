#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Whole-file reads and atomic replacements. A reader sees either the old or the new contents,
/// never a mixture, and a crash at any moment leaves at worst a hidden temporary file behind.
package enum AtomicFile {
  /// Anything larger than this is not a file we wrote: it is treated as damaged.
  package static let defaultLimit = 1 << 20

  /// Replaces `path` with `data`: a temporary file in the same directory (created exclusively,
  /// mode 0600), every byte written, `fsync`, `rename` over the target, then the directory synced.
  package static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(FileError) {
    let (directory, name) = PathParts.split(path)
    let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
    let temporary = PathParts.join(directory, ".\(name).tmp-\(getpid())-\(suffix)")
    let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw .posix("Cannot write", path, code: errno) }
    do throws(FileError) {
      try writeAll(data, to: fd, path: path)
      guard fchmod(fd, mode) == 0 else { throw .posix("Cannot set the mode of", path, code: errno) }
      guard fsync(fd) == 0 else { throw .posix("Cannot write", path, code: errno) }
    } catch {
      close(fd)
      unlink(temporary)
      throw error
    }
    guard close(fd) == 0 else {
      let code = errno
      unlink(temporary)
      throw .posix("Cannot write", path, code: code)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw .posix("Cannot replace", path, code: code)
    }
    syncDirectory(directory)
  }

  /// The contents of `path`, or nil when it does not exist. Throws when it cannot be read, is not
  /// a regular file, or is larger than `limit` bytes.
  package static func read(path: String, limit: Int = defaultLimit) throws(FileError) -> Data? {
    // O_NONBLOCK: opening a FIFO put in place of the file must not hang the app.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw .posix("Cannot read", path, code: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .posix("Cannot read", path, code: errno) }
    guard FileMode.isRegular(info.st_mode) else {
      throw FileError(message: "\(path) is not a regular file", isDamage: true)
    }
    guard info.st_size <= limit else { throw tooLarge(path, limit: limit) }
    var bytes = [UInt8](repeating: 0, count: limit + 1)
    var count = 0
    while count <= limit {
      let got = bytes.withUnsafeMutableBytes { buffer in
        Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
      }
      if got < 0 {
        let code = errno
        if code == EINTR || code == EAGAIN { continue }
        throw .posix("Cannot read", path, code: code)
      }
      if got == 0 { break }
      count += got
    }
    guard count <= limit else { throw tooLarge(path, limit: limit) }
    return Data(bytes[0..<count])
  }

  private static func tooLarge(_ path: String, limit: Int) -> FileError {
    FileError(message: "\(path) is larger than \(limit / 1024) KiB", isDamage: true)
  }

  private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(FileError) {
    let failure: Int32? = data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(fd, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw .posix("Cannot write", path, code: failure) }
  }

  /// Makes the rename durable. Best effort: the new contents are already in place, and some file
  /// systems refuse to sync a directory.
  private static func syncDirectory(_ directory: String) {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}
