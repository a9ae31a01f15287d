import HTTPTypes
import Hummingbird
import MyworkoutCore
import MyworkoutServices
import MyworkoutWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Auth0's Authentication API (SPEC §15) and brief 004's `POST /authenticate`.
extension Backend {
  func addAuthRoutes(to router: Router<ServerContext>) {
    router.post("dbconnections/signup") { request, context in
      try await self.signup(request, context: context)
    }
    router.post("oauth/token") { request, context in
      try await self.token(request, context: context)
    }
    router.post("authenticate") { request, context in
      try await self.authenticate(request, context: context)
    }
    router.get("userinfo") { request, _ in
      let claims = try self.bearer(
        request.headers[.authorization], issuer: self.issuer(host: request.head.authority))
      let account = try await self.account(of: claims)
      let profile = account.profile
      return JSONResponse.make(
        UserInfo(
          sub: try Self.id(of: account), email: profile.email,
          name: profile.fullName ?? profile.email,
          givenName: profile.firstName, familyName: profile.lastName,
          gender: profile.gender.rawValue, phoneNumber: profile.mobile))
    }
    router.get(".well-known/jwks.json") { _, _ in JSONResponse.make(self.signer.keySet) }
    router.get(".well-known/openid-configuration") { request, _ in
      let issuer = self.issuer(host: request.head.authority)
      return JSONResponse.make(
        OpenIDConfiguration(
          issuer: issuer, jwksURI: issuer + ".well-known/jwks.json",
          tokenEndpoint: issuer + "oauth/token", userinfoEndpoint: issuer + "userinfo"))
    }
    router.post("api/accounts/lookup") { request, context in
      guard try await self.lookupLimiter.allow([Self.addressKey(self.address(request, context))])
      else {
        throw APIError.tooManyAttempts
      }
      let lookup = try await RequestBody.decode(
        EmailLookupRequest.self, from: request, context: context,
        limit: ServerLimits.accountBodyBytes)
      let found = try await self.accounts.account(email: lookup.email) != nil
      return JSONResponse.make(EmailLookupResponse(registered: found))
    }
    router.post("api/me/mobile") { request, context in
      try await self.updateMobile(request, context: context)
    }
  }

  private func signup(_ request: Request, context: ServerContext) async throws -> Response {
    // It says whether an address is registered (`user_exists`), as the lookup does, and costs
    // a password hash: limited per client address as the lookups are.
    guard signupLimiter.allow([Self.addressKey(address(request, context))]) else {
      throw APIError.tooManyAttempts
    }
    let signup = try await RequestBody.decode(
      SignupRequest.self, from: request, context: context, limit: ServerLimits.accountBodyBytes)
    guard Email.isValid(signup.email) else {
      throw APIError(.badRequest, code: "invalid_signup", description: "Invalid sign up")
    }
    guard Password.isStrong(signup.password) else {
      throw APIError(
        .badRequest, code: "invalid_password",
        description: "PasswordStrengthError: Password is too weak")
    }
    var mobile = ""
    if let given = signup.userMetadata?.mobile, !given.isEmpty {
      guard let number = MobileNumber.normalized(given) else {
        throw APIError(.badRequest, code: "invalid_signup", description: "Invalid mobile number")
      }
      mobile = number
    }
    for name in [signup.givenName, signup.familyName] {
      guard let name, !Self.isAcceptedName(name) else { continue }
      throw APIError(.badRequest, code: "invalid_signup", description: "Invalid name")
    }
    let gender = signup.userMetadata?.gender.flatMap(Gender.init(rawValue:)) ?? .preferNotToSay
    let profile = Profile(
      email: Email.normalized(signup.email), gender: gender, mobile: mobile,
      firstName: (signup.givenName ?? "").trimmingWhitespace(),
      lastName: (signup.familyName ?? "").trimmingWhitespace())
    // The address as typed: a row stored before NFC is found under its spelling too.
    if try await accounts.account(email: signup.email) != nil { throw Self.userExists }
    let hasher = hasher
    let password = signup.password
    let hash = try await Self.offLoop { Result { try hasher.hash(password) } }.get()
    let id = AccountID.random()
    guard try await accounts.insert(StoredAccount(id: id, profile: profile, password: hash)) else {
      throw Self.userExists
    }
    return JSONResponse.make(
      SignupResponse(
        // Auth0 answers the user's id without the connection's `auth0|` prefix.
        id: String(id.dropFirst(AccountID.prefix.count)), email: profile.email,
        givenName: signup.givenName, familyName: signup.familyName,
        userMetadata: UserMetadata(gender: gender.rawValue, mobile: mobile.isEmpty ? nil : mobile)))
  }

  /// Auth0's bound on `given_name` and `family_name`: 150 characters (and at most 600 bytes,
  /// four a character). No control characters
  /// either (an escape sequence, a bidirectional override): a name is shown on other people's
  /// screens and carried in every id_token (a walk-through's 100,000-character name made a
  /// 267 KB token).
  static func isAcceptedName(_ name: String) -> Bool {
    // Characters, and bytes too: one letter with 100,000 combining marks is one character.
    name.count <= 150 && name.utf8.count <= 600
      && !name.unicodeScalars.contains {
        $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
          || (0x2066...0x2069).contains($0.value)
      }
  }

  static let userExists = APIError(
    .badRequest, code: "user_exists", description: "The user already exists.")
  static let wrongCredentials = "Wrong email or password."

  private func token(_ request: Request, context: ServerContext) async throws -> Response {
    let grant = try await RequestBody.decode(
      TokenRequest.self, from: request, context: context, form: true,
      limit: ServerLimits.accountBodyBytes)
    guard
      grant.grantType == TokenRequest.passwordGrant
        || grant.grantType == TokenRequest.passwordRealmGrant
    else {
      throw APIError(
        .badRequest, error: "unsupported_grant_type",
        description: "Unsupported grant type: \(grant.grantType)")
    }
    // What a password grant must hold, asked once the grant is known to be one.
    guard let username = grant.username, let password = grant.password else {
      throw RequestBody.missing(grant.username == nil ? "username" : "password", in: request)
    }
    try await limitLogin(email: username, address: address(request, context))
    guard let account = try await check(email: username, password: password) else {
      throw APIError(.forbidden, error: "invalid_grant", description: Self.wrongCredentials)
    }
    return JSONResponse.tokens(
      try tokens(
        for: account.profile, accountID: try Self.id(of: account), audience: grant.clientID,
        scope: grant.scope,
        issuer: issuer(host: request.head.authority)))
  }

  private func authenticate(_ request: Request, context: ServerContext) async throws -> Response {
    let login = try await RequestBody.decode(
      AuthenticateRequest.self, from: request, context: context,
      limit: ServerLimits.accountBodyBytes)
    try await limitLogin(email: login.email, address: address(request, context))
    switch chaos?.next() ?? .truthful {
    case .unauthorized: throw Self.invalidCredentials
    case .serverError: throw APIError.serverError
    case .truthful: break
    }
    guard let account = try await check(email: login.email, password: login.password) else {
      throw Self.invalidCredentials
    }
    return JSONResponse.tokens(
      try tokens(
        for: account.profile, accountID: try Self.id(of: account),
        audience: login.clientID ?? "myworkout", scope: login.scope,
        issuer: issuer(host: request.head.authority)))
  }

  static let invalidCredentials = APIError(
    .unauthorized, error: "invalid_credentials", description: wrongCredentials)

  private func limitLogin(email: String, address: String) async throws {
    guard try await loginLimiter.allow(Self.loginKeys(email: email, address: address)) else {
      throw APIError.tooManyAttempts
    }
  }

  /// The limiter's keys for a login attempt, each a few hundred bytes at most: the address
  /// when it is a well-formed one (at most 254 bytes; no other can be an account's), one key
  /// for every other text, and the client's address. (The whole text was the key: a
  /// walk-through's 200 attempts with a 1-MB "email" kept 200 MB that no window gave back.)
  package static func loginKeys(email: String, address: String) -> [String] {
    let emailKey = Email.isValid(email) ? Email.normalized(email) : "(not an address)"
    return ["email:" + emailKey, addressKey(address)]
  }

  /// The limiter's key for a client's address (an `X-Real-IP` is the balancer's to set, but
  /// it is cut all the same).
  package static func addressKey(_ address: String) -> String {
    "address:" + String(decoding: address.utf8.prefix(128), as: UTF8.self)
  }

  /// The client's address for the per-address limits: the peer, or with `--behind-proxy` the
  /// `X-Real-IP` the load balancer sets (the peer is then always the balancer).
  func address(_ request: Request, _ context: ServerContext) -> String {
    if options.behindProxy, let name = HTTPField.Name("X-Real-IP"),
      let real = request.headers[name], !real.isEmpty
    {
      return real
    }
    return context.remoteAddress
  }

  /// A new number; new tokens that keep the original expiry and audience.
  private func updateMobile(_ request: Request, context: ServerContext) async throws -> Response {
    let issuer = issuer(host: request.head.authority)
    let claims = try bearer(request.headers[.authorization], issuer: issuer)
    let change = try await RequestBody.decode(
      MobileUpdateRequest.self, from: request, context: context)
    guard let mobile = MobileNumber.normalized(change.mobile) else {
      throw APIError(.badRequest, error: "invalid_mobile", description: Message.mobileNotValid)
    }
    // Nothing is answered to a GET here: an If-Match cannot hold.
    try await Preconditions.check(request) { nil }
    let id = try await accountID(of: claims)
    guard let profile = try await accounts.updateMobile(id: id, mobile: mobile) else {
      throw APIError.invalidToken
    }
    return JSONResponse.tokens(
      try tokens(
        for: profile, accountID: id, audience: claims.aud, scope: claims.scope, issuer: issuer,
        expiresAt: claims.exp))
  }
}
