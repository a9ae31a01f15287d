#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A one-line, readable reason for a `DecodingError`, naming where in the file it happened,
/// e.g. `lessons[1].id is not a whole number`.
enum DecodingReason {
  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch(let type, let context):
      "\(location(context.codingPath)) is not \(name(of: type))"
    case .valueNotFound(let type, let context):
      "\(location(context.codingPath)) is missing (expected \(name(of: type)))"
    case .keyNotFound(let key, let context):
      "\"\(key.stringValue)\" is missing in \(location(context.codingPath))"
    case .dataCorrupted(let context):
      // FoundationEssentials gives no position for a syntax error (or a fraction where a whole
      // number belongs): the root path with no underlying error.
      if context.codingPath.isEmpty {
        context.underlyingError.map { "not valid JSON: \($0)" } ?? "not valid JSON"
      } else {
        "\(location(context.codingPath)): \(context.debugDescription)"
      }
    @unknown default:
      "\(error)"
    }
  }

  /// `lessons[1].content[0].text`, or `the top level` for the root.
  private static func location(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the top level" }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  private static func name(of type: Any.Type) -> String {
    switch type {
    case is Int.Type: "a whole number"
    case is String.Type: "a string"
    case is [Any].Type: "a list"
    case is [String: Any].Type: "an object"
    default: "\(type)"
    }
  }
}
