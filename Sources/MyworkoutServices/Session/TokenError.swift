/// Why a session token was refused.
package enum TokenError: Error, Equatable, Sendable {
  /// Not three base64url parts, or a part is not the JSON it should be.
  case malformed
  /// The header names an algorithm other than HS256 (`none` included).
  case unsupportedAlgorithm
  /// The signature does not match (tampered with, or signed with another key).
  case badSignature
  /// A claim is missing or has the wrong type or value.
  case invalidClaims
  /// `exp` has been reached (no allowance for clock skew).
  case expired
  /// `iat` is in the future.
  case issuedInFuture
}
