import Clocks
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
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
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
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
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
              SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow,
              lifetime: .seconds(60))
          }
        }
        return try await group.reduce(into: Set<String>()) { $0.insert($1) }
      }
      #expect(tokens.count == 1)
    }
  }
}

/// The app's key: read at launch, made when the first session is signed.
@Suite struct SigningKeyFileTests {
  @Test func openingAnEmptyDirectoryWritesNothingUntilTheFirstSignature() async throws {
    try await withDataDirectory { directory throws in
      let keys = try SigningKeyFile.open(in: directory, now: fixedNow)
      #expect(keys.notice == nil)
      #expect(keys.verifier() == nil)
      #expect(listing(directory.path) == [])
      let token = try keys.signer().sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      #expect(listing(directory.path) == ["accounts.lock", "signing.key"])
      #expect(permissions(directory.signingKeyPath) == 0o600)
      // The next launch reads the same key.
      let relaunched = try SigningKeyFile.open(in: directory, now: fixedNow)
      let verifier = try #require(relaunched.verifier())
      #expect(try verifier.verify(token, now: fixedNow) == SeedAccount.profile)
    }
  }

  @Test func twoLaunchesOnOneEmptyDirectorySignWithOneKey() async throws {
    try await withDataDirectory { directory throws in
      let first = try SigningKeyFile.open(in: directory, now: fixedNow)
      let second = try SigningKeyFile.open(in: directory, now: fixedNow)
      let token = try first.signer().sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      // The second finds the key the first made, for checking and for signing.
      #expect(try second.verifier()?.verify(token, now: fixedNow) == SeedAccount.profile)
      #expect(
        try second.signer().sign(
          SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60)
        )
          == token)
    }
  }

  @Test func aDamagedKeyIsReplacedAtLaunchWithTheNotice() async throws {
    try await withDataDirectory { directory throws in
      put(Array("not a key\n".utf8), at: directory.signingKeyPath)
      let keys = try SigningKeyFile.open(in: directory, now: fixedNow)
      let name = "signing.key.corrupt-20261121T141500Z"
      #expect(
        keys.notice == "signing.key could not be read; moved it aside to \(name) and made a new key"
      )
      #expect(keys.verifier() != nil)
      #expect(contents(directory.signingKeyPath) != Data("not a key\n".utf8))
    }
  }

  @Test func theFirstSessionOfAServiceMakesTheKeyAndSurvivesARelaunch() async throws {
    try await withDataDirectory { directory in
      let keys = try SigningKeyFile.open(in: directory, now: fixedNow)
      let service = MockAccountService(
        store: makeStore(directory), keys: keys, clock: ImmediateClock(), now: { fixedNow },
        sessionLifetime: .seconds(3600))
      #expect(keys.verifier() == nil)
      let session = try await service.logIn(
        email: SeedAccount.profile.email, password: SeedAccount.password)
      let sessions = SessionStore(directory: directory, keys: keys)
      try sessions.save(session)
      let relaunched = SessionStore(
        directory: directory, keys: try SigningKeyFile.open(in: directory, now: fixedNow))
      #expect(relaunched.load(now: fixedNow).restored == .valid(session))
    }
  }
}
