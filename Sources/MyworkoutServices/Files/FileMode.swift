#if canImport(Glibc)
  import Glibc
#endif

/// File type and permission bits of `stat.st_mode`, spelled out because the C macros are not all
/// imported into Swift.
enum FileMode {
  static let typeMask: mode_t = 0o170_000
  static let directory: mode_t = 0o040_000
  static let regular: mode_t = 0o100_000
  /// Any permission for group or others.
  static let groupOrOther: mode_t = 0o077

  static func isDirectory(_ mode: mode_t) -> Bool { mode & typeMask == directory }
  static func isRegular(_ mode: mode_t) -> Bool { mode & typeMask == regular }
}
