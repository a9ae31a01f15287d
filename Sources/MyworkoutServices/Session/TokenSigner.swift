import Crypto
import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Signs and checks session tokens: JWTs (RFC 7519) with HS256, written by hand on swift-crypto.
package struct TokenSigner: Sendable {
  let signingKey: SigningKey
  var key: SymmetricKey { signingKey.key }

  package init(key: SigningKey) {
    signingKey = key
  }

  /// A token whose claims carry `profile` and name `accountID` as their subject, valid from
  /// `issuedAt` for `lifetime`.
  package func sign(_ profile: Profile, accountID: String, issuedAt: Date, lifetime: Duration)
    -> String
  {
    let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
    return sign(
      profile, accountID: accountID, issuedAt: issuedAt,
      expiresAt: issued + lifetime.components.seconds)
  }

  /// A token whose claims carry `profile` and name `accountID`, issued at `issuedAt` and valid
  /// until the moment `expiresAt` (seconds since 1970).
  func sign(_ profile: Profile, accountID: String, issuedAt: Date, expiresAt: Int64) -> String {
    let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
    let claims = TokenClaims(
      profile: profile, accountID: accountID, issuedAt: issued, expiresAt: expiresAt)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding these plain structs cannot fail.
    let header = (try? encoder.encode(TokenHeader.hs256)) ?? Data()
    let payload = (try? encoder.encode(claims)) ?? Data()
    return signed(header: header, payload: payload)
  }

  /// `header.payload.signature` for raw JSON parts (tests use it to forge odd tokens).
  func signed(header: Data, payload: Data) -> String {
    let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    let signature = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// How far a token's issue time may be ahead of the clock (skew between issuer and
  /// verifier). Expiry has no such allowance: a token is refused from its `exp` on.
  package static let leeway: Duration = .seconds(30)

  /// The moment a token stops being accepted (its `exp`, exactly), read without checking the
  /// signature: for scheduling, on tokens that were verified when they were loaded or made.
  package static func acceptedUntil(_ token: String) -> Date? {
    guard let claims = UnverifiedToken.payload(of: token, as: TokenClaims.self) else { return nil }
    return Date(timeIntervalSince1970: Double(claims.exp))
  }

  /// The profile a genuine, current token carries. `leeway` is how far its `iat` may be ahead
  /// of `now`; it is refused from the moment `exp` is reached.
  package func verify(
    _ token: String, now: Date, leeway: Duration = TokenSigner.leeway
  ) throws(TokenError) -> Profile {
    try claims(of: token, now: now, leeway: leeway).profile
  }

  /// The claims of a genuine, current token (see `verify`).
  func claims(
    of token: String, now: Date, leeway: Duration = TokenSigner.leeway
  ) throws(TokenError) -> TokenClaims {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
      let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2])
    else { throw .malformed }
    guard let header = try? JSONDecoder().decode(TokenHeader.self, from: Data(headerBytes)) else {
      throw .malformed
    }
    guard header.alg == "HS256", header.typ == nil || header.typ == "JWT" else {
      throw .unsupportedAlgorithm
    }
    let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard
      HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key)
    else { throw .badSignature }
    guard let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(payloadBytes)),
      !claims.sub.isEmpty, !claims.email.isEmpty
    else { throw .invalidClaims }
    let current = now.timeIntervalSince1970
    let slack = Double(leeway.components.seconds) + Double(leeway.components.attoseconds) * 1e-18
    guard current < Double(claims.exp) else { throw .expired }
    guard Double(claims.iat) <= current + slack else { throw .issuedInFuture }
    return claims
  }
}
