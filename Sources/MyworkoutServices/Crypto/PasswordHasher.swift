import Crypto
import CryptoExtras

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// PBKDF2-HMAC-SHA512 password hashing. Slow on purpose (CPU-heavy): call it off the main actor.
package struct PasswordHasher: Sendable {
  package static let algorithm = "pbkdf2-sha512"
  /// OWASP's 2023 figure for PBKDF2-HMAC-SHA512.
  package static let defaultIterations = 210_000
  /// Stored hashes asking for more than this are refused rather than computed for minutes.
  static let maximumIterations = 10_000_000
  static let saltByteCount = 16
  static let keyByteCount = 32

  /// The work factor used for new hashes. Tests lower it to stay fast; verification always uses
  /// the figure stored with the hash.
  package let iterations: Int

  package init(iterations: Int = PasswordHasher.defaultIterations) {
    self.iterations = iterations
  }

  /// A new salted hash of `password`.
  package func hash(_ password: String) throws -> PasswordHash {
    let salt = SecureRandom.bytes(Self.saltByteCount)
    let key = try Self.derive(password, salt: salt, iterations: iterations)
    return PasswordHash(
      algorithm: Self.algorithm, iterations: iterations,
      salt: Data(salt).base64EncodedString(), hash: Data(key).base64EncodedString())
  }

  /// Whether `password` is the one `stored` was made from (constant-time comparison).
  package func verify(_ password: String, against stored: PasswordHash) -> Bool {
    guard stored.algorithm == Self.algorithm,
      (1...Self.maximumIterations).contains(stored.iterations),
      let salt = Data(base64Encoded: stored.salt), let expected = Data(base64Encoded: stored.hash),
      expected.count == Self.keyByteCount,
      let key = try? Self.derive(password, salt: [UInt8](salt), iterations: stored.iterations)
    else { return false }
    return ConstantTime.equal(key, [UInt8](expected))
  }

  /// The same work as checking a password, for an account that does not exist, so that the
  /// answer takes as long either way.
  package func simulateVerification(_ password: String) {
    _ = try? Self.derive(password, salt: [UInt8](repeating: 0, count: 16), iterations: iterations)
  }

  private static func derive(_ password: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
    let key = try KDF.Insecure.PBKDF2.deriveKey(
      from: Array(password.utf8), salt: salt, using: .sha512, outputByteCount: keyByteCount,
      unsafeUncheckedRounds: iterations)
    return key.withUnsafeBytes { Array($0) }
  }
}
