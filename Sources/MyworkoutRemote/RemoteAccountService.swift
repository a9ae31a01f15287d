import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The account service as a client of myworkout-server (SPEC §15): login through
/// `POST /authenticate`, signup through Auth0's `/dbconnections/signup`, the email lookup and the
/// mobile update of the server's own API. Tokens are RS256, checked against the server's JWKS.
package struct RemoteAccountService: AccountService {
  let server: RemoteServer
  let credentials: RemoteCredentials
  let now: @Sendable () -> Date

  package static let clientID = "myworkout-terminal"
  package static let scope = "openid profile email"
  package static let connection = "Username-Password-Authentication"

  package init(
    server: RemoteServer, credentials: RemoteCredentials,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.server = server
    self.credentials = credentials
    self.now = now
  }

  package func isRegistered(email: String) async throws -> Bool {
    let answer = try await server.send(
      .POST, "/api/accounts/lookup", json: EmailLookupRequest(email: email))
    guard answer.status == 200 else { throw RemoteServer.failure(answer) }
    return try answer.decode(EmailLookupResponse.self).registered
  }

  package func logIn(email: String, password: String) async throws -> Session {
    let answer = try await server.send(
      .POST, "/authenticate",
      json: AuthenticateRequest(
        email: email, password: password, clientID: Self.clientID, scope: Self.scope))
    switch answer.status {
    case 200:
      return try await session(from: answer.decode(TokenResponse.self))
    case 401, 403:
      // The server says only "wrong email or password"; the lookup tells which (SPEC §15).
      throw try await isRegistered(email: email) ? ServiceError.wrongCredentials : .noAccount
    default:
      throw RemoteServer.failure(answer)
    }
  }

  package func signUp(_ registration: Registration) async throws -> Session {
    let profile = registration.profile
    let answer = try await server.send(
      .POST, "/dbconnections/signup",
      json: SignupRequest(
        clientID: Self.clientID, email: registration.email, password: registration.password,
        connection: Self.connection, givenName: profile.firstName, familyName: profile.lastName,
        userMetadata: UserMetadata(gender: profile.gender.rawValue, mobile: profile.mobile)))
    switch answer.status {
    case 200:
      return try await logIn(email: registration.email, password: registration.password)
    case 400:
      let body = try? JSONDecoder().decode(CodeErrorBody.self, from: answer.body)
      if body?.code == "user_exists" { throw ServiceError.emailExists }
      if body?.description == "Invalid mobile number" { throw ServiceError.invalidMobile }
      throw ServiceError.server(status: 400)
    default:
      throw RemoteServer.failure(answer)
    }
  }

  package func updateMobile(token: String, mobile: String) async throws -> Session {
    let answer = try await server.send(
      .POST, "/api/me/mobile", json: MobileUpdateRequest(mobile: mobile),
      bearer: credentials.bearer ?? token)
    switch answer.status {
    case 200: return try await session(from: answer.decode(TokenResponse.self))
    case 401: throw ServiceError.sessionExpired
    case 400 where answer.errorCode == "invalid_mobile": throw ServiceError.invalidMobile
    default: throw RemoteServer.failure(answer)
    }
  }

  /// Checks the id_token against the server's key set (fetched once, then kept) and returns the
  /// session its claims describe.
  func session(from tokens: TokenResponse) async throws -> Session {
    var keys = credentials.keySet
    var claims = keys.flatMap {
      try? RS256Verifier(keySet: $0).verify(tokens.idToken, now: now(), issuer: nil)
    }
    if claims == nil {
      // First sign-in, or the server has a new key.
      let answer = try await server.send(.GET, "/.well-known/jwks.json")
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      let fetched = try answer.decode(JSONWebKeySet.self)
      keys = fetched
      claims = try? RS256Verifier(keySet: fetched).verify(tokens.idToken, now: now(), issuer: nil)
    }
    guard let claims, let profile = claims.profile, let keys else {
      // A token the server's own keys do not verify: not a server to trust.
      throw ServiceError.server(status: 200)
    }
    credentials.signedIn(
      RemoteCredentials.Tokens(
        idToken: tokens.idToken, accessToken: tokens.accessToken,
        owner: .init(accountID: claims.sub, email: profile.email)),
      keys: keys)
    return Session(
      token: tokens.idToken, accountID: claims.sub, profile: profile,
      gravatarHash: Gravatar.hash(email: profile.email))
  }
}
