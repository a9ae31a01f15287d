import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The account part on a real Auth0 tenant (SPEC §15, `--auth0-domain`): `/oauth/token` with the
/// password-realm grant and `/dbconnections/signup`, the same request shapes tested against
/// myworkout-server. Auth0 cannot say whether an email is registered, so `isRegistered` answers
/// yes without a call (Get started goes to Login, which offers `Create a new account`), and an
/// unknown email reads `Wrong email or password`. The number cannot be edited here.
package struct Auth0AccountService: AccountService {
  let server: RemoteServer
  let clientID: String
  let connection: String
  let credentials: RemoteCredentials
  let now: @Sendable () -> Date

  package init(
    server: RemoteServer, clientID: String, connection: String, credentials: RemoteCredentials,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.server = server
    self.clientID = clientID
    self.connection = connection
    self.credentials = credentials
    self.now = now
  }

  package static let editNumberUnavailable = Message.editNumberNeedsServer

  package func isRegistered(email: String) async throws -> Bool { true }

  package func logIn(email: String, password: String) async throws -> Session {
    let answer = try await server.send(
      .POST, "/oauth/token",
      json: TokenRequest(
        grantType: TokenRequest.passwordRealmGrant, username: email, password: password,
        clientID: clientID, scope: RemoteAccountService.scope, realm: connection))
    switch answer.status {
    case 200: return try await session(from: answer.decode(TokenResponse.self))
    case 401, 403: throw ServiceError.wrongCredentials
    default: throw RemoteServer.failure(answer)
    }
  }

  package func signUp(_ registration: Registration) async throws -> Session {
    let profile = registration.profile
    let answer = try await server.send(
      .POST, "/dbconnections/signup",
      json: SignupRequest(
        clientID: clientID, email: registration.email, password: registration.password,
        connection: connection, givenName: profile.firstName, familyName: profile.lastName,
        userMetadata: UserMetadata(gender: profile.gender.rawValue, mobile: profile.mobile)))
    switch answer.status {
    case 200:
      return try await logIn(email: registration.email, password: registration.password)
    case 400 where answer.errorCode == "user_exists" || answer.errorCode == "invalid_signup":
      // Auth0 answers `invalid_signup` for an existing email on some tenants.
      throw ServiceError.emailExists
    default:
      throw RemoteServer.failure(answer)
    }
  }

  package func updateMobile(token: String, mobile: String) async throws -> Session {
    throw ServiceError.storage(Self.editNumberUnavailable)
  }

  /// Checks the id_token against the tenant's JWKS (issuer `https://DOMAIN/`, audience the
  /// client id); the profile from its claims (gender and number when the tenant returns them).
  func session(from tokens: TokenResponse) async throws -> Session {
    let issuer = server.baseURL + "/"
    var claims = credentials.keySet.flatMap {
      try? RS256Verifier(keySet: $0).verify(tokens.idToken, now: now(), issuer: issuer)
    }
    var keys = credentials.keySet
    if claims == nil {
      let answer = try await server.send(.GET, "/.well-known/jwks.json")
      guard answer.status == 200 else { throw RemoteServer.failure(answer) }
      let fetched = try answer.decode(JSONWebKeySet.self)
      keys = fetched
      claims = try? RS256Verifier(keySet: fetched).verify(
        tokens.idToken, now: now(), issuer: issuer)
    }
    guard let claims, claims.aud == clientID, let profile = claims.profile, let keys else {
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
