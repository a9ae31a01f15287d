#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON Web Token read without checking its signature: only for what is scheduled or compared
/// by (when it stops being accepted, whose session a file holds), on tokens checked when they
/// were loaded or made. Never a reason to trust one.
package enum UnverifiedToken {
  /// The payload of `token` (`header.payload.signature`) as `T`; nil when it is not such a
  /// token or its payload is not a `T`.
  package static func payload<T: Decodable>(of token: String, as type: T.Type) -> T? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return nil }
    return try? JSONDecoder().decode(T.self, from: Data(payload))
  }
}
