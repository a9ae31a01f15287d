import Crypto
import CryptoExtras
import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One RSA public key as a JSON Web Key (RFC 7517), the form `/.well-known/jwks.json` serves.
package struct JSONWebKey: Codable, Equatable, Sendable {
  package var kty: String
  package var kid: String
  package var use: String
  package var alg: String
  /// Modulus and exponent, base64url without padding.
  package var n: String
  package var e: String

  package init(
    kty: String = "RSA", kid: String, use: String = "sig", alg: String = "RS256", n: String,
    e: String
  ) {
    self.kty = kty
    self.kid = kid
    self.use = use
    self.alg = alg
    self.n = n
    self.e = e
  }
}

/// `{"keys": [...]}`.
package struct JSONWebKeySet: Codable, Equatable, Sendable {
  package var keys: [JSONWebKey]
  package init(keys: [JSONWebKey]) { self.keys = keys }
}

/// The claims of an id_token (Auth0's, with our profile fields) — also what an access token
/// carries, less the profile.
package struct IDTokenClaims: Codable, Equatable, Sendable {
  package var sub: String
  package var iss: String
  package var aud: String
  package var iat: Int64
  package var exp: Int64
  package var email: String?
  package var name: String?
  package var givenName: String?
  package var familyName: String?
  package var gender: String?
  package var phoneNumber: String?
  package var scope: String?

  package init(
    sub: String, iss: String, aud: String, iat: Int64, exp: Int64, email: String? = nil,
    name: String? = nil, givenName: String? = nil, familyName: String? = nil,
    gender: String? = nil, phoneNumber: String? = nil, scope: String? = nil
  ) {
    self.sub = sub
    self.iss = iss
    self.aud = aud
    self.iat = iat
    self.exp = exp
    self.email = email
    self.name = name
    self.givenName = givenName
    self.familyName = familyName
    self.gender = gender
    self.phoneNumber = phoneNumber
    self.scope = scope
  }

  /// The id_token claims for `profile`, whose account id is `sub`.
  package init(profile: Profile, sub: String, iss: String, aud: String, iat: Int64, exp: Int64) {
    self.init(
      sub: sub, iss: iss, aud: aud, iat: iat, exp: exp,
      email: profile.email, name: profile.fullName ?? profile.email, givenName: profile.firstName,
      familyName: profile.lastName, gender: profile.gender.rawValue,
      phoneNumber: profile.mobile)
  }

  /// The profile an id_token carries; nil for a token without an email (an access token).
  /// Gender and number are optional (a real Auth0 tenant returns them only when asked to).
  package var profile: Profile? {
    guard let email else { return nil }
    return Profile(
      email: email, gender: gender.flatMap(Gender.init(rawValue:)) ?? .preferNotToSay,
      mobile: phoneNumber ?? "", firstName: givenName ?? "", lastName: familyName ?? "")
  }

  enum CodingKeys: String, CodingKey {
    case sub, iss, aud, iat, exp, email, name, gender, scope
    case givenName = "given_name"
    case familyName = "family_name"
    case phoneNumber = "phone_number"
  }
}

private struct RS256Header: Codable {
  var alg: String
  var typ: String?
  var kid: String?
}

/// Signs JWTs with RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) on swift-crypto.
package struct RS256Signer: Sendable {
  let key: _RSA.Signing.PrivateKey
  package let keyID: String

  package init(key: _RSA.Signing.PrivateKey) throws {
    self.key = key
    // The key id: the first 16 base64url characters of the SHA-256 of the modulus.
    let modulus = try key.publicKey.getKeyPrimitives().modulus
    keyID = String(Base64URL.encode(SHA256.hash(data: modulus)).prefix(16))
  }

  /// A fresh 2048-bit key (tests; `load(path:)` for the server).
  package static func generate() throws -> RS256Signer {
    try RS256Signer(key: _RSA.Signing.PrivateKey(keySize: .bits2048))
  }

  /// The key in the PEM file at `path`, made (mode 0600) when missing. One that cannot be read
  /// is never replaced (a new key ends every session): the error names the file and the ways
  /// on.
  package static func load(path: String) throws -> RS256Signer {
    if let data = try AtomicFile.read(path: path, limit: 64 << 10) {
      do {
        return try RS256Signer(
          key: _RSA.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self)))
      } catch {
        throw FileError(
          message: "\(path) holds no RSA private key this server can read; restore it from a "
            + "backup, or move it aside to make a new one (every session then ends)",
          isDamage: true)
      }
    }
    let signer = try generate()
    try AtomicFile.write(Data(signer.key.pemRepresentation.utf8), to: path)
    return signer
  }

  /// The public key as the server publishes it.
  package var keySet: JSONWebKeySet {
    // The primitives of a key we made always exist.
    let primitives = try? key.publicKey.getKeyPrimitives()
    return JSONWebKeySet(keys: [
      JSONWebKey(
        kid: keyID, n: Base64URL.encode(primitives?.modulus ?? Data()),
        e: Base64URL.encode(primitives?.publicExponent ?? Data()))
    ])
  }

  /// `header.payload.signature`.
  package func sign(_ claims: IDTokenClaims) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let header = try encoder.encode(RS256Header(alg: "RS256", typ: "JWT", kid: keyID))
    let payload = try encoder.encode(claims)
    let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
    let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
    return input + "." + Base64URL.encode(signature.rawRepresentation)
  }
}

/// Checks RS256 JWTs against a key set (the server's own, or the JWKS the app kept).
package struct RS256Verifier: Sendable {
  let keys: [String: _RSA.Signing.PublicKey]

  package init(keySet: JSONWebKeySet) {
    var keys: [String: _RSA.Signing.PublicKey] = [:]
    for key in keySet.keys where key.kty == "RSA" {
      guard let n = Base64URL.decode(Substring(key.n)), let e = Base64URL.decode(Substring(key.e)),
        let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e)
      else { continue }
      keys[key.kid] = publicKey
    }
    self.keys = keys
  }

  /// The claims of a genuine, current token from `issuer` (any issuer when nil). Refused from
  /// its `exp` on; its `iat` may be up to `leeway` ahead of `now`.
  package func verify(
    _ token: String, now: Date, issuer: String?, leeway: Duration = TokenSigner.leeway
  ) throws(TokenError) -> IDTokenClaims {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
      let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
      let header = try? JSONDecoder().decode(RS256Header.self, from: Data(headerBytes))
    else { throw .malformed }
    guard header.alg == "RS256" else { throw .unsupportedAlgorithm }
    let key = header.kid.flatMap { keys[$0] } ?? (keys.count == 1 ? keys.values.first : nil)
    guard let key else { throw .badSignature }
    let input = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard
      key.isValidSignature(
        _RSA.Signing.RSASignature(rawRepresentation: signature), for: input,
        padding: .insecurePKCS1v1_5)
    else { throw .badSignature }
    guard let claims = try? JSONDecoder().decode(IDTokenClaims.self, from: Data(payloadBytes)),
      !claims.sub.isEmpty, issuer == nil || claims.iss == issuer
    else { throw .invalidClaims }
    let current = now.timeIntervalSince1970
    guard current < Double(claims.exp) else { throw .expired }
    guard Double(claims.iat) <= current + Double(leeway.components.seconds) else {
      throw .issuedInFuture
    }
    return claims
  }
}

extension RS256Verifier {
  /// The moment a token stops being accepted (its `exp`), read without checking the signature:
  /// for scheduling, on tokens verified when they were loaded or received.
  package static func acceptedUntil(_ token: String) -> Date? {
    struct Expiry: Decodable { var exp: Int64 }
    guard let claims = UnverifiedToken.payload(of: token, as: Expiry.self) else { return nil }
    return Date(timeIntervalSince1970: Double(claims.exp))
  }
}
