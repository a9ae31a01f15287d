#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file's bytes with POSIX calls (no Foundation in app targets), up to a limit.
package enum FileBytes {
  /// The whole file; `.unreadable` when it cannot be opened, is not a regular file, or is
  /// larger than `limit` bytes.
  /// `followingLinks: false`: a symbolic link in the path's last place is refused too (the
  /// server's image folder, served to anyone, holds only its own files).
  package static func read(_ path: String, limit: Int, followingLinks: Bool = true)
    throws(ImageError) -> [UInt8]
  {
    try withOpenFile(path, flags: followingLinks ? 0 : O_NOFOLLOW) {
      (descriptor, size) throws(ImageError) in
      guard size <= limit else {
        throw .unreadable("\(path) is over \(limit >> 20) MiB")
      }
      return try readUpTo(descriptor, count: size, path: path)
    }
  }

  /// At most the first `count` bytes (fewer if the file is shorter).
  static func prefix(_ path: String, count: Int) throws(ImageError) -> [UInt8] {
    try withOpenFile(path) { (descriptor, size) throws(ImageError) in
      try readUpTo(descriptor, count: min(size, count), path: path)
    }
  }

  private static func withOpenFile<T>(
    _ path: String, flags: Int32 = 0, _ body: (Int32, Int) throws(ImageError) -> T
  ) throws(ImageError) -> T {
    // O_NONBLOCK: a FIFO in a picture's place is opened at once (and refused below), not
    // waited on for a writer; a regular file's reads do not change with it.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags)
    guard descriptor >= 0 else { throw .unreadable("\(path): \(reason(errno))") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .unreadable("\(path): \(reason(errno))") }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable("\(path) is not a file") }
    return try body(descriptor, Int(status.st_size))
  }

  /// Reads until `count` bytes or the end of the file (which may have shrunk meanwhile).
  private static func readUpTo(_ descriptor: Int32, count: Int, path: String) throws(ImageError)
    -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        posixRead(descriptor, buffer.baseAddress! + filled, count - filled)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw .unreadable("\(path): \(reason(errno))")
      }
      if result == 0 { break }
      filled += result
    }
    bytes.removeLast(count - filled)
    return bytes
  }

  private static func reason(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// `read(2)`; a file-level name because `FileBytes.read` hides the C function inside the type.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int
{
  read(descriptor, buffer, count)
}
