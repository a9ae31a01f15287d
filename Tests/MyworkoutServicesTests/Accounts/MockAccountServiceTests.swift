import Clocks
import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

@Suite struct MockAccountServiceTests {
  let signer = TokenSigner(key: .random())

  @Test func theSeededAccountLogsInWhateverTheCaseAndSpaces() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      #expect(try await service.isRegistered(email: "  REGISTERED@email.com\t"))
      let session = try await service.logIn(email: " Registered@Email.COM ", password: "password")
      #expect(session.profile == SeedAccount.profile)
      #expect(session.gravatarHash == GravatarTests.registered)
      #expect(try signer.verify(session.token, now: fixedNow) == SeedAccount.profile)
    }
  }

  @Test func signUpStoresANormalisedProfileAndOnlyAHash() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      var request = registration(email: "  New.Person@Example.COM ", mobile: "+60 12 345 6789")
      request.profile.firstName = "  Siti "
      let session = try await service.signUp(request)
      let expected = Profile(
        email: "new.person@example.com", gender: .male, mobile: "+60123456789",
        firstName: "Siti", lastName: "Rahman")
      #expect(session.profile == expected)
      #expect(try signer.verify(session.token, now: fixedNow) == expected)
      #expect(session.gravatarHash == Gravatar.hash(email: "new.person@example.com"))
      let login = try await service.logIn(email: "NEW.person@example.com", password: "s3cret!pass")
      #expect(login.profile == expected)
      await #expect(throws: ServiceError.emailExists) {
        try await service.signUp(registration(email: "new.PERSON@example.com"))
      }
      let text = String(decoding: contents(directory.accountsPath) ?? Data(), as: UTF8.self)
      #expect(!text.contains("s3cret!pass"))
      #expect(permissions(directory.path) == 0o700)
      #expect(permissions(directory.accountsPath) == 0o600)
    }
  }

  @Test func updateMobileChangesTheRegistryAndTheClaims() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let session = try await service.logIn(email: "registered@email.com", password: "password")
      let updated = try await service.updateMobile(token: session.token, mobile: "015-1234 5678")
      #expect(updated.profile.mobile == "+601512345678")
      #expect(try signer.verify(updated.token, now: fixedNow).mobile == "+601512345678")
      let stored = try makeStore(directory).load().account(for: "registered@email.com")
      #expect(stored?.profile.mobile == "+601512345678")
    }
  }

  @Test func updateMobileRefusesStaleSessions() async throws {
    try await withDataDirectory { directory throws in
      let service = makeService(directory, clock: ImmediateClock(), signer: signer)
      let old = signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow - 7200,
        lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: old, mobile: "012-345 6789")
      }
      let foreign = TokenSigner(key: .random()).sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: foreign, mobile: "012-345 6789")
      }
      let gone = signer.sign(
        registration(email: "gone@example.com").profile, accountID: "auth0|test",
        issuedAt: fixedNow,
        lifetime: .seconds(60))
      await #expect(throws: ServiceError.sessionExpired) {
        try await service.updateMobile(token: gone, mobile: "012-345 6789")
      }
    }
  }

  @Test func aCancelledSignUpSavesNothing() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      _ = try makeStore(directory).load()
      let before = contents(directory.accountsPath)
      let task = Task { try await service.signUp(registration(email: "new@example.com")) }
      await waitForSleeper(clock)
      await clock.advance(by: .milliseconds(500))
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      await clock.advance(by: .seconds(1))
      #expect(contents(directory.accountsPath) == before)
    }
  }

  @Test func aCancelledUpdateMobileChangesNothing() async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      _ = try makeStore(directory).load()
      let before = contents(directory.accountsPath)
      let token = signer.sign(
        SeedAccount.profile, accountID: AccountID.seed, issuedAt: fixedNow, lifetime: .seconds(60))
      let task = Task { try await service.updateMobile(token: token, mobile: "011-1234 5678") }
      await waitForSleeper(clock)
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      await clock.advance(by: .seconds(2))
      #expect(contents(directory.accountsPath) == before)
    }
  }

  @Test func concurrentSignUpsFromSeparateStoresAllLand() async throws {
    try await withDataDirectory { directory throws in
      let emails = (0..<24).map { "user\($0)@example.com" }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for email in emails {
          let service = makeService(directory, clock: ImmediateClock(), signer: signer)
          group.addTask { _ = try await service.signUp(registration(email: email)) }
        }
        try await group.waitForAll()
      }
      let registry = try makeStore(directory).load()
      #expect(Set(registry.accounts.map(\.profile.email)) == Set(emails + ["registered@email.com"]))
      #expect(registry.accounts.count == emails.count + 1)
    }
  }
}
