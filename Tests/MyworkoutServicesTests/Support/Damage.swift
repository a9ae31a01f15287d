import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Ways a data file can be damaged, for the corrupt-file corpus.
enum Damage: String, CaseIterable, CustomTestStringConvertible {
  case truncated
  case binary
  case wrongTypes
  case enormous
  case unreadable
  case directory
  case wrongVersion

  var testDescription: String { rawValue }

  /// The damaged bytes written for `file` (nil for the directory case).
  func bytes(for file: String) -> [UInt8]? {
    switch self {
    case .truncated:
      return Array(#"{"version":1,"accounts":[{"profile":{"email":"a@b"#.utf8)
    case .binary:
      var generator = SystemRandomNumberGenerator()
      return [0xff, 0x00] + (0..<510).map { _ in UInt8.random(in: 0...255, using: &generator) }
    case .wrongTypes:
      return Array(
        (file == "accounts.json"
          ? #"{"version":1,"accounts":"x"}"# : #"{"version":1,"token":42,"profile":[]}"#).utf8)
    case .enormous:
      return Array(#"{"version":1,"padding":""#.utf8) + [UInt8](repeating: 0x61, count: 2 << 20)
        + Array(#""}"#.utf8)
    case .unreadable:
      return Array(#"{"version":1}"#.utf8)
    case .directory:
      return nil
    case .wrongVersion:
      return Array(#"{"version":99,"accounts":[],"token":"x","profile":{}}"#.utf8)
    }
  }

  /// Damages `directory/file`; returns what should be found in the moved-aside copy.
  func apply(to directory: String, file: String) -> [UInt8]? {
    let path = directory + "/" + file
    guard let bytes = bytes(for: file) else {
      #expect(mkdir(path, 0o700) == 0)
      put([1, 2, 3], at: path + "/inside")
      return nil
    }
    put(bytes, at: path, mode: self == .unreadable ? 0o000 : 0o600)
    return bytes
  }

  /// Checks the damaged original sits intact at `directory/name`.
  func expectIntact(_ original: [UInt8]?, at directory: String, name: String) {
    let path = directory + "/" + name
    if let original {
      _ = chmod(path, 0o600)
      #expect(contents(path).map { [UInt8]($0) } == original)
    } else {
      #expect(contents(path + "/inside") == Data([1, 2, 3]))
    }
  }
}
