#if canImport(Glibc)
  import Glibc
#endif

/// Where the app's own files (`Assets/`: the classes, the lessons, the images, the art) are
/// (SPEC §16): `--assets DIR`; else `Assets/` beside the binary; else `../share/myworkout/` for
/// an installed copy; else the source tree the binary was built from.
enum AssetsLocation {
  /// The first candidate that holds the shipped catalog, or nil.
  static func find(override: String?) -> String? {
    if let override, !override.isEmpty { return override }
    let candidates = [
      executableDirectory.map { $0 + "/Assets" },
      executableDirectory.map { $0 + "/../share/myworkout" },
      sourceTree,
    ].compactMap { $0 }
    return candidates.first { access($0 + "/classes.csv", R_OK) == 0 }
  }

  /// `Assets/` of the source tree this file was compiled from.
  private static var sourceTree: String {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Sources/myworkout/AssetsLocation.swift
    return parts.joined(separator: "/") + "/Assets"
  }

  /// The directory of the running binary (`/proc/self/exe`); also where `myworkout-remote` and
  /// `myworkout-media` are found.
  static var executableDirectory: String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let slash = path.lastIndex(of: "/") else { return nil }
    return String(path[..<slash])
  }
}
