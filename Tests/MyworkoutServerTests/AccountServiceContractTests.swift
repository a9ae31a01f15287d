import MyworkoutCore
import MyworkoutServices
import Testing

/// One contract for `AccountService`, run against the embedded mock and the HTTP client.
@Suite struct AccountServiceContractTests {
  static let newcomer = Registration(
    password: "Secret-123",
    profile: Profile(
      email: "New.Person@Example.com", gender: .nonBinary, mobile: "012-345 6780",
      firstName: " New ", lastName: "Person"))

  @Test(arguments: Implementation.allCases)
  func knowsWhichEmailsAreRegistered(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let registered = try await services.accounts.isRegistered(email: " REGISTERED@email.com ")
      #expect(registered)
      #expect(try await services.accounts.isRegistered(email: "nobody@example.com") == false)
    }
  }

  @Test(arguments: Implementation.allCases)
  func logsInAndTellsAWrongPasswordFromAnUnknownEmail(_ implementation: Implementation)
    async throws
  {
    try await withServices(implementation) { services in
      let session = try await services.accounts.logIn(
        email: "registered@email.com", password: "password")
      #expect(session.profile == SeedAccount.profile)
      #expect(session.gravatarHash == Gravatar.hash(email: "registered@email.com"))
      await #expect(throws: ServiceError.wrongCredentials) {
        try await services.accounts.logIn(email: "registered@email.com", password: "wrong")
      }
      await #expect(throws: ServiceError.noAccount) {
        try await services.accounts.logIn(email: "nobody@example.com", password: "password")
      }
    }
  }

  @Test(arguments: Implementation.allCases)
  func signsUpOnceThenRefusesTheSameEmail(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let session = try await services.accounts.signUp(Self.newcomer)
      #expect(session.profile.email == "new.person@example.com")
      #expect(session.profile.mobile == "+60123456780")
      #expect(session.profile.firstName == "New")
      #expect(session.profile.gender == .nonBinary)
      #expect(try await services.accounts.isRegistered(email: "new.person@example.com"))
      let again = try await services.accounts.logIn(
        email: "new.person@example.com", password: "Secret-123")
      #expect(again.profile == session.profile)
      await #expect(throws: ServiceError.emailExists) {
        try await services.accounts.signUp(Self.newcomer)
      }
    }
  }

  /// One address in Unicode's two spellings (`e` + U+0301 and the composed U+00E9) is one
  /// account: which one a keyboard sends must not split a person's data (a walk-through made
  /// two accounts of them). Emails are put in NFC when normalised.
  @Test(arguments: Implementation.allCases)
  func anEmailInEitherUnicodeSpellingIsOneAccount(_ implementation: Implementation) async throws {
    let decomposed = "Cafe\u{301}@Example.com"
    let composed = "caf\u{E9}@example.com"
    try await withServices(implementation) { services in
      func registration(_ email: String) -> Registration {
        var profile = Self.newcomer.profile
        profile.email = email
        return Registration(password: "Secret-123", profile: profile)
      }
      let first = registration(decomposed)
      let session = try await services.accounts.signUp(first)
      #expect(session.profile.email.unicodeScalars.elementsEqual(composed.unicodeScalars))
      await #expect(throws: ServiceError.emailExists) {
        try await services.accounts.signUp(registration(composed))
      }
      for spelling in [decomposed, composed] {
        #expect(try await services.accounts.isRegistered(email: spelling), "\(spelling)")
        let again = try await services.accounts.logIn(email: spelling, password: "Secret-123")
        #expect(again.profile == session.profile)
      }
    }
  }

  @Test(arguments: Implementation.allCases)
  func updatesTheMobileNumberOfTheTokensAccount(_ implementation: Implementation) async throws {
    try await withServices(implementation) { services in
      let session = try await services.accounts.logIn(
        email: "registered@email.com", password: "password")
      let updated = try await services.accounts.updateMobile(
        token: session.token, mobile: "011-2345 6789")
      #expect(updated.profile.mobile == "+601123456789")
      #expect(updated.profile.email == session.profile.email)
      let relogged = try await services.accounts.logIn(
        email: "registered@email.com", password: "password")
      #expect(relogged.profile.mobile == "+601123456789")
      await #expect(throws: ServiceError.invalidMobile) {
        try await services.accounts.updateMobile(token: updated.token, mobile: "123")
      }
    }
  }
}
