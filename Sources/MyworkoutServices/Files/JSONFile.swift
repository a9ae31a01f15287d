#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How our JSON files are written (readable, stable key order, one trailing newline) and read.
enum JSONFile {
  /// What reading a JSON file found.
  enum Read<Value> {
    case missing
    case found(Value)
    /// The file is there but unusable (unreadable, not a file, enormous, not the JSON expected):
    /// move it aside.
    case damaged
    /// The system failed us (no descriptors, I/O error): report it, leave the file alone.
    case failed(FileError)
  }

  static func encode(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(value)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try JSONDecoder().decode(type, from: data)
  }

  static func read<T: Decodable>(_ type: T.Type, path: String) -> Read<T> {
    do {
      guard let data = try AtomicFile.read(path: path) else { return .missing }
      return .found(try decode(type, from: data))
    } catch let error as FileError where !error.isDamage {
      return .failed(error)
    } catch {
      return .damaged
    }
  }
}
