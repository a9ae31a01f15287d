import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct PasswordHasherTests {
  @Test func verifiesOnlyTheRightPassword() throws {
    let hash = try fastHasher.hash("s3cret!pass")
    #expect(hash.algorithm == "pbkdf2-sha512")
    #expect(hash.iterations == 1_000)
    #expect(Data(base64Encoded: hash.salt)?.count == 16)
    #expect(Data(base64Encoded: hash.hash)?.count == 32)
    #expect(fastHasher.verify("s3cret!pass", against: hash))
    #expect(!fastHasher.verify("s3cret!pasS", against: hash))
    #expect(!fastHasher.verify("", against: hash))
  }

  @Test func saltsDiffer() throws {
    let first = try fastHasher.hash("same")
    let second = try fastHasher.hash("same")
    #expect(first.salt != second.salt)
    #expect(first.hash != second.hash)
  }

  @Test func verifiesWithTheStoredWorkFactor() throws {
    let old = try PasswordHasher(iterations: 2_000).hash("pw")
    #expect(fastHasher.verify("pw", against: old))
  }

  @Test func refusesAlteredHashes() throws {
    let hash = try fastHasher.hash("pw")
    var other = hash
    other.algorithm = "md5"
    #expect(!fastHasher.verify("pw", against: other))
    other = hash
    other.iterations = 999
    #expect(!fastHasher.verify("pw", against: other))
    other = hash
    other.iterations = 0
    #expect(!fastHasher.verify("pw", against: other))
    other = hash
    other.hash = "not base64!"
    #expect(!fastHasher.verify("pw", against: other))
  }

  /// Prints the cost of one hash at the real work factor (a figure for the record, not a test).
  @Test func measuresTheRealWorkFactor() throws {
    let hasher = PasswordHasher()
    #expect(hasher.iterations == 210_000)
    var hash: PasswordHash?
    let elapsed = try ContinuousClock().measure { hash = try hasher.hash("password") }
    print("PBKDF2-HMAC-SHA512, 210,000 iterations: \(elapsed)")
    #expect(hasher.verify("password", against: try #require(hash)))
  }
}
