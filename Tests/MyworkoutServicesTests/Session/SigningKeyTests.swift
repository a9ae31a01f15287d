import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct SigningKeyTests {
  @Test func isMadeOnceAndKept() async throws {
    try await withDataDirectory { directory throws in
      let (first, notice) = try SigningKey.load(in: directory, now: fixedNow)
      #expect(notice == nil)
      #expect(permissions(directory.signingKeyPath) == 0o600)
      let text = String(decoding: contents(directory.signingKeyPath) ?? Data(), as: UTF8.self)
      #expect(Data(base64Encoded: String(text.dropLast()))?.count == 32)
      let (second, _) = try SigningKey.load(in: directory, now: fixedNow)
      let token = TokenSigner(key: first).sign(
        SeedAccount.profile, issuedAt: fixedNow, lifetime: .seconds(60))
      #expect(try TokenSigner(key: second).verify(token, now: fixedNow) == SeedAccount.profile)
    }
  }

  @Test func aDamagedKeyIsMovedAsideAndReplaced() async throws {
    try await withDataDirectory { directory throws in
      put(Array("not a key\n".utf8), at: directory.signingKeyPath)
      let (key, notice) = try SigningKey.load(in: directory, now: fixedNow)
      let name = "signing.key.corrupt-20261121T141500Z"
      #expect(
        notice == "signing.key could not be read; moved it aside to \(name) and made a new key")
      #expect(contents(directory.path + "/" + name) == Data("not a key\n".utf8))
      let (again, _) = try SigningKey.load(in: directory, now: fixedNow)
      let token = TokenSigner(key: key).sign(
        SeedAccount.profile, issuedAt: fixedNow, lifetime: .seconds(60))
      #expect(throws: Never.self) { try TokenSigner(key: again).verify(token, now: fixedNow) }
    }
  }

  @Test func concurrentFirstLoadsAgreeOnOneKey() async throws {
    try await withDataDirectory { directory throws in
      let tokens = try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<8 {
          group.addTask {
            let (key, _) = try SigningKey.load(in: directory, now: fixedNow)
            return TokenSigner(key: key).sign(
              SeedAccount.profile, issuedAt: fixedNow, lifetime: .seconds(60))
          }
        }
        return try await group.reduce(into: Set<String>()) { $0.insert($1) }
      }
      #expect(tokens.count == 1)
    }
  }
}
