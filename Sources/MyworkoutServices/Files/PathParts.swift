/// Splits file paths without Foundation.
enum PathParts {
  /// The directory part (`.` when there is none) and the last component of `path`.
  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let name = String(path[path.index(after: slash)...])
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, name)
  }

  /// `directory/name`, without doubling the slash after `/`.
  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  /// The path without trailing slashes (except for `/` itself).
  static func trimmed(_ path: String) -> String {
    var result = Substring(path)
    while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
    return String(result)
  }
}
