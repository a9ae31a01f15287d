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
