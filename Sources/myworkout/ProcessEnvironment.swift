#if canImport(Glibc)
  import Glibc
#endif

enum ProcessEnvironment {
  /// The process's environment variables, read without Foundation's ProcessInfo.
  static var current: [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
      let pair = String(cString: entry)
      if let equals = pair.firstIndex(of: "=") {
        result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      pointer += 1
    }
    return result
  }
}
