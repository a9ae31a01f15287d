import Clocks
import MyworkoutCore
import Testing

@testable import MyworkoutServices

#if canImport(Glibc)
  import Glibc
#endif

/// Every call takes exactly the latency on the injected clock, whatever its outcome.
@Suite struct MockAccountServiceTimingTests {
  let signer = TokenSigner(key: .random())

  func token(for profile: Profile = SeedAccount.profile) -> String {
    signer.sign(profile, accountID: "auth0|test", issuedAt: fixedNow, lifetime: .seconds(3600))
  }

  @Test(arguments: [("registered@email.com", true), ("nobody@example.com", false)])
  func isRegistered(email: String, expected: Bool) async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      let result = await expectOneSecond(on: clock) {
        try await service.isRegistered(email: email)
      }
      let value = try result.get()
      #expect(value == expected)
    }
  }

  @Test func isRegisteredStorageFailure() async throws {
    try await withDataDirectory { directory throws in
      #expect(mkdir(directory.lockPath, 0o700) == 0)
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      let result = await expectOneSecond(on: clock) {
        try await service.isRegistered(email: "registered@email.com")
      }
      let message = "Cannot open the lock file \(directory.lockPath): Is a directory"
      #expect(result.failure as? ServiceError == .storage(message))
    }
  }

  @Test(arguments: [
    ("registered@email.com", "password", nil),
    ("nobody@example.com", "password", ServiceError.noAccount),
    ("registered@email.com", "Password", ServiceError.wrongCredentials),
  ])
  func logIn(email: String, password: String, expected: ServiceError?) async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      let result = await expectOneSecond(on: clock) {
        try await service.logIn(email: email, password: password)
      }
      if let expected {
        #expect(result.failure as? ServiceError == expected)
      } else {
        let session = try result.get()
        #expect(session.profile == SeedAccount.profile)
      }
    }
  }

  @Test(arguments: [
    ("new@example.com", "012-345 6789", nil),
    ("Registered@Email.com", "012-345 6789", ServiceError.emailExists),
    ("new@example.com", "12345", ServiceError.invalidMobile),
  ])
  func signUp(email: String, mobile: String, expected: ServiceError?) async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      let result = await expectOneSecond(on: clock) {
        try await service.signUp(registration(email: email, mobile: mobile))
      }
      if let expected {
        #expect(result.failure as? ServiceError == expected)
      } else {
        let session = try result.get()
        #expect(session.profile.email == email)
      }
    }
  }

  @Test(arguments: [
    ("valid", "011-1234 5678", nil),
    ("valid", "not a number", ServiceError.invalidMobile),
    ("garbage", "011-1234 5678", ServiceError.sessionExpired),
  ])
  func updateMobile(tokenKind: String, mobile: String, expected: ServiceError?) async throws {
    try await withDataDirectory { directory throws in
      let clock = TestClock()
      let service = makeService(directory, clock: clock, signer: signer)
      let token = tokenKind == "valid" ? token() : "garbage"
      let result = await expectOneSecond(on: clock) {
        try await service.updateMobile(token: token, mobile: mobile)
      }
      if let expected {
        #expect(result.failure as? ServiceError == expected)
      } else {
        let session = try result.get()
        #expect(session.profile.mobile == "+601112345678")
      }
    }
  }
}
