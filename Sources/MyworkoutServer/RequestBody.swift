import HTTPTypes
import Hummingbird
import MyworkoutCore
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading request bodies: at most 1 MiB, JSON (or a form where Auth0 accepts one); anything
/// malformed is a 400 with a JSON body saying why.
enum RequestBody {
  static func bytes(
    of request: Request, context: some RequestContext, limit: Int = ServerLimits.bodyBytes
  ) async throws -> Data {
    // Refused before a byte is read when the length says so.
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
      throw APIError.tooLarge(limit: limit)
    }
    var request = request
    do {
      let buffer = try await request.collectBody(upTo: limit)
      return Data(buffer.readableBytesView)
    } catch is NIOTooManyBytesError {
      throw APIError.tooLarge(limit: limit)
    }
  }

  /// The body as `T`: JSON, or URL-encoded form when `form` is allowed and the content type
  /// says so.
  static func decode<T: Decodable>(
    _ type: T.Type, from request: Request, context: some RequestContext, form: Bool = false,
    limit: Int = ServerLimits.bodyBytes
  ) async throws -> T {
    let data = try await bytes(of: request, context: context, limit: limit)
    // No text of ours holds U+0000, and PostgreSQL's text cannot: refused here, as JSON's
    // escape, a form's `%00`, or the raw byte.
    if Self.holdsNUL(data) { throw APIError.badRequest(Self.nulRefusal) }
    if form, Self.isForm(request) {
      do {
        return try URLEncodedFormDecoder().decode(
          T.self, from: String(decoding: data, as: UTF8.self))
      } catch {
        throw APIError.badRequest(Self.formRefusal + Self.reason(error))
      }
    }
    guard !data.isEmpty else { throw APIError.badRequest("The body is empty; JSON was expected.") }
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      // Valid JSON with a fraction or a number past 64 bits where every number of the API is
      // whole (the decoder calls that invalid JSON, and names no field): the fields are named.
      if case DecodingError.dataCorrupted = error {
        let (paths, count) = Self.fractionalFields(in: data)
        if !paths.isEmpty {
          let more =
            count > paths.count ? " and \(CatalogCountLine.grouped(count - paths.count)) more" : ""
          throw APIError.badRequest(
            Self.jsonRefusal
              + paths.map { "'\($0)'" }.joined(separator: ", ") + more
              + (count == 1 ? " must be" : " must each be") + " a whole number within 64 bits.")
        }
      }
      throw APIError.badRequest(Self.jsonRefusal + Self.reason(error))
    }
  }

  /// The refusal of a body without the field `name`, worded as `decode` words it for the
  /// body's kind (a form or JSON).
  static func missing(_ name: String, in request: Request) -> APIError {
    APIError.badRequest(
      (isForm(request) ? formRefusal : jsonRefusal) + "missing field '\(name)'")
  }

  /// Whether `request` says its body is a URL-encoded form (else it is read as JSON).
  private static func isForm(_ request: Request) -> Bool {
    request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded")
      == true
  }

  private static let formRefusal = "The form could not be read: "
  private static let jsonRefusal = "The body is not the JSON expected: "

  /// A short reason that names the field, never echoing values (they may be passwords).
  static let nulRefusal = "Text must not contain the NUL character (U+0000)."

  /// Whether `bytes` hold a NUL: raw, as JSON's `\u0000`, or percent-encoded `%00`.
  static func holdsNUL(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.contains(0) || bytes.firstRange(of: nulEscape) != nil
      || bytes.firstRange(of: nulPercent) != nil
  }

  private static let nulEscape = Array(#"\u0000"#.utf8)
  private static let nulPercent = Array("%00".utf8)

  /// The paths of the first `limit` numbers in JSON `data` that are not whole numbers within
  /// 64 bits, the shallowest first (the request's own fields before anything nested), each cut
  /// to 60 characters, and how many there are in all (none when it is not JSON). A walk-through
  /// sent 36 KB of fractions under a 20,000-character key: naming every path answered 80 MB.
  static func fractionalFields(in data: Data, limit: Int = 3) -> (paths: [String], count: Int) {
    guard let value = try? JSONDecoder().decode(JSONShape.self, from: data) else { return ([], 0) }
    // Level by level; a node's path is its parent's and its own part, made only when named.
    var parts: [(parent: Int, part: String)] = [(-1, "")]
    var level: [(value: JSONShape, node: Int)] = [(value, 0)]
    var paths: [String] = []
    var count = 0
    func path(_ node: Int) -> String {
      var pieces: [String] = []
      var at = node
      while at > 0 {
        pieces.append(parts[at].part)
        at = parts[at].parent
      }
      // The first part's own dot goes (`.started` is `started`); a key's dots stay (`.5`).
      let joined = pieces.reversed().joined()
      let text = joined.hasPrefix(".") ? joined.dropFirst() : Substring(joined)
      return text.count > 60 ? text.prefix(59) + "…" : String(text)
    }
    while !level.isEmpty {
      var next: [(value: JSONShape, node: Int)] = []
      for (value, node) in level {
        switch value {
        case .object(let members):
          for key in members.keys.sorted() {
            parts.append((node, "." + key))
            next.append((members[key]!, parts.count - 1))
          }
        case .array(let elements):
          for (index, element) in elements.enumerated() {
            parts.append((node, "[\(index)]"))
            next.append((element, parts.count - 1))
          }
        case .fraction:
          count += 1
          if paths.count < limit { paths.append(path(node)) }
        case .other: break
        }
      }
      level = next
    }
    return (paths, count)
  }

  /// JSON as far as `fractionalFields` needs it.
  private indirect enum JSONShape: Decodable {
    case object([String: JSONShape])
    case array([JSONShape])
    /// A number that is not a whole number within 64 bits.
    case fraction
    case other

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() || (try? single.decode(Bool.self)) != nil
        || (try? single.decode(String.self)) != nil || (try? single.decode(Int64.self)) != nil
      {
        self = .other
      } else if (try? single.decode(Double.self)) != nil {
        self = .fraction
      } else if let members = try? single.decode([String: JSONShape].self) {
        self = .object(members)
      } else {
        self = .array(try single.decode([JSONShape].self))
      }
    }
  }

  static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, _): "missing field '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    case DecodingError.dataCorrupted: "not valid JSON"
    default: "unreadable"
    }
  }
}
