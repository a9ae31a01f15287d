#if canImport(Glibc)
  import Glibc
#endif

/// Which file a path names (device and inode): tells whether a file is still the one seen
/// earlier or has been replaced, e.g. before moving a damaged file aside.
package struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The file at `path` (not following a final symbolic link), or nil when there is none.
  package init?(path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
