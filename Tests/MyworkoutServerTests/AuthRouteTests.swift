import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MyworkoutCore
import MyworkoutServer
import MyworkoutServices
import MyworkoutWire
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Auth0's Authentication API shapes and `/authenticate` (SPEC §15), in-process.
@Suite struct AuthRouteTests {
  static var seed: [String: Any] { ["email": "registered@email.com", "password": "password"] }

  @Test(arguments: Store.allCases) func signupAnswersAuth0sShapeAndRefusesAnExistingEmail(
    store: Store
  ) async throws {
    try await withRouter(store) { client, _ in
      let body: [String: Any] = [
        "client_id": "abc", "email": "New@Example.com", "password": "Secret-123",
        "connection": "Username-Password-Authentication", "given_name": "Nu",
        "family_name": "Person", "user_metadata": ["gender": "male", "mobile": "0123456780"],
      ]
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(body)
      ) { response in
        #expect(response.status == .ok)
        #expect(response.body.json["email"] as? String == "new@example.com")
        #expect(response.body.json["email_verified"] as? Bool == false)
      }
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(body)
      ) { response in
        #expect(response.status == .badRequest)
        #expect(
          response.body.text == #"{"code":"user_exists","description":"The user already exists."}"#)
      }
      var weak = body
      weak["email"] = "other@example.com"
      weak["password"] = "short"
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(weak)
      ) { response in
        #expect(response.status == .badRequest)
        #expect(response.body.json["code"] as? String == "invalid_password")
      }
    }
  }

  @Test(arguments: Store.allCases)
  func passwordGrantByFormAndRealmGrantByJSONSignRS256TokensForTheClient(store: Store) async throws
  {
    try await withRouter(store) { client, backend in
      let form =
        "grant_type=password&username=registered%40email.com&password=password"
        + "&client_id=client-1&scope=openid%20profile%20email"
      var idToken = ""
      try await client.execute(
        uri: "/oauth/token", method: .post,
        headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: form)
      ) { response in
        #expect(response.status == .ok)
        let json = response.body.json
        #expect(json["token_type"] as? String == "Bearer")
        #expect(json["expires_in"] as? Int == 86_400)
        #expect(json["access_token"] is String)
        idToken = json["id_token"] as? String ?? ""
      }
      let claims = try RS256Verifier(keySet: backend.signer.keySet).verify(
        idToken, now: Date(), issuer: "http://myworkout.test/")
      #expect(claims.aud == "client-1")
      #expect(claims.sub == AccountID.seed)
      #expect(claims.phoneNumber == "+60123456789")
      #expect(claims.givenName == "Registered")
      #expect(claims.gender == "female")
      #expect(claims.name == "Registered User")

      let realm: [String: Any] = [
        "grant_type": "http://auth0.com/oauth/grant-type/password-realm",
        "realm": "Username-Password-Authentication", "username": "registered@email.com",
        "password": "password", "client_id": "client-2",
      ]
      try await client.execute(
        uri: "/oauth/token", method: .post, headers: jsonHeaders, body: jsonBody(realm)
      ) { response in
        #expect(response.status == .ok)
      }
    }
  }

  /// A grant this server does not give (those an Auth0 SDK sends: client credentials, a
  /// refresh token, a code) is `unsupported_grant_type`, as RFC 6749 §5.2 says; it was refused
  /// for the `username` such a grant has no reason to carry. A password grant without one
  /// still names it.
  @Test func anUnsupportedGrantIsSaidSo() async throws {
    try await withRouter { client, _ in
      for grant in ["client_credentials", "refresh_token", "authorization_code"] {
        try await client.execute(
          uri: "/oauth/token", method: .post,
          headers: [.contentType: "application/x-www-form-urlencoded"],
          body: ByteBuffer(string: "grant_type=\(grant)&client_id=c&client_secret=s")
        ) { response in
          #expect(response.status == .badRequest)
          #expect(
            response.body.json["error"] as? String == "unsupported_grant_type",
            "\(grant): \(response.body.json)")
        }
      }
      try await client.execute(
        uri: "/oauth/token", method: .post, headers: jsonHeaders,
        body: jsonBody(["grant_type": "password", "password": "p", "client_id": "c"])
      ) { response in
        #expect(response.status == .badRequest)
        let description = response.body.json["error_description"] as? String ?? ""
        #expect(description.contains("'username'"), "\(description)")
      }
    }
  }

  /// Every answer that carries tokens says `Cache-Control: no-store` and `Pragma: no-cache`
  /// (RFC 6749 §5.1: MUST; Auth0 sends both): none did.
  @Test func answersWithTokensAreNeverStored() async throws {
    try await withRouter { client, _ in
      let grant: [String: Any] = [
        "grant_type": "password", "username": "registered@email.com", "password": "password",
        "client_id": "c",
      ]
      let login: [String: Any] = ["email": "registered@email.com", "password": "password"]
      var token = ""
      for (uri, body) in [("/oauth/token", grant), ("/authenticate", login)] {
        try await client.execute(
          uri: uri, method: .post, headers: jsonHeaders, body: jsonBody(body)
        ) { response in
          #expect(response.status == .ok, "\(uri)")
          #expect(response.headers[.cacheControl] == "no-store", "\(uri)")
          #expect(response.headers[HTTPField.Name("Pragma")!] == "no-cache", "\(uri)")
          token = response.body.json["access_token"] as? String ?? token
        }
      }
      try await client.execute(
        uri: "/api/me/mobile", method: .post,
        headers: [.contentType: "application/json", .authorization: "Bearer " + token],
        body: jsonBody(["mobile": "0123456789"])
      ) { response in
        #expect(response.status == .ok, "\(response.body.json)")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.headers[HTTPField.Name("Pragma")!] == "no-cache")
      }
    }
  }

  /// A name longer than Auth0's 150 characters, or with a control character (an escape
  /// sequence, a bidirectional override), is refused at sign-up, nothing made.
  @Test func namesAreBoundedAndPlainText() async throws {
    try await withRouter { client, _ in
      for (index, name) in [
        String(repeating: "n", count: 151), "Eve\u{1B}[31m", "\u{202E}evil", "Tab\there",
        "a" + String(repeating: "\u{301}", count: 5_000),
      ].enumerated() {
        let signup: [String: Any] = [
          "client_id": "c", "email": "named\(index)@example.com", "password": "Secret-123",
          "connection": "Username-Password-Authentication", "given_name": name,
        ]
        try await client.execute(
          uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(signup)
        ) { response in
          #expect(response.status == .badRequest, "\(name.debugDescription)")
          #expect(response.body.json["code"] as? String == "invalid_signup")
        }
      }
      let fine: [String: Any] = [
        "client_id": "c", "email": "fine@example.com", "password": "Secret-123",
        "connection": "Username-Password-Authentication",
        "given_name": String(repeating: "é", count: 150), "family_name": "O'Brien-Zoë 李",
      ]
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(fine)
      ) { #expect($0.status == .ok) }
    }
  }

  /// An account without a first or last name (both are optional) is named by its email in
  /// the id_token and `/userinfo`, as Auth0 names a database user who gave none: before, the
  /// `name` claim SPEC §15 lists was missing.
  @Test func anAccountWithoutNamesIsNamedByItsEmail() async throws {
    try await withRouter { client, backend in
      let signup: [String: Any] = [
        "client_id": "c", "email": "plain@example.com", "password": "Secret-123",
        "connection": "Username-Password-Authentication",
      ]
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders, body: jsonBody(signup)
      ) { #expect($0.status == .ok) }
      let grant: [String: Any] = [
        "grant_type": "password", "username": "plain@example.com", "password": "Secret-123",
        "client_id": "c", "scope": "openid profile email",
      ]
      let tokens = try await client.execute(
        uri: "/oauth/token", method: .post, headers: jsonHeaders, body: jsonBody(grant)
      ) { $0.body.json }
      let claims = try RS256Verifier(keySet: backend.signer.keySet).verify(
        tokens["id_token"] as? String ?? "", now: Date(), issuer: "http://myworkout.test/")
      #expect(claims.name == "plain@example.com")
      let info = try await client.execute(
        uri: "/userinfo", method: .get,
        headers: [.authorization: "Bearer " + (tokens["access_token"] as? String ?? "")]
      ) { $0.body.json }
      #expect(info["name"] as? String == "plain@example.com", "\(info)")
    }
  }

  @Test(arguments: Store.allCases) func wrongPasswordIs403InvalidGrantAndAuthenticateIs401(
    store: Store
  ) async throws {
    try await withRouter(store) { client, _ in
      let grant: [String: Any] = [
        "grant_type": "password", "username": "registered@email.com", "password": "nope",
        "client_id": "c",
      ]
      try await client.execute(
        uri: "/oauth/token", method: .post, headers: jsonHeaders, body: jsonBody(grant)
      ) { response in
        #expect(response.status == .forbidden)
        #expect(
          response.body.text
            == #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#)
      }
      try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders,
        body: jsonBody(["email": "nobody@example.com", "password": "password"])
      ) { response in
        #expect(response.status == .unauthorized)
        #expect(
          response.body.text
            == #"{"error":"invalid_credentials","error_description":"Wrong email or password."}"#)
      }
      try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders, body: jsonBody(Self.seed)
      ) { response in
        #expect(response.status == .ok)
        #expect(response.body.json["id_token"] is String)
      }
    }
  }

  @Test(arguments: Store.allCases) func malformedBodiesGet400JSONAndNothingChanges(store: Store)
    async throws
  {
    try await withRouter(store) { client, _ in
      for (uri, body) in [
        ("/authenticate", "{not json"), ("/authenticate", #"{"email":"a@b.co"}"#),
        ("/dbconnections/signup", "[]"), ("/oauth/token", ""), ("/api/accounts/lookup", "42"),
      ] {
        try await client.execute(
          uri: uri, method: .post, headers: jsonHeaders, body: ByteBuffer(string: body)
        ) { response in
          #expect(response.status == .badRequest, "\(uri) \(body)")
          #expect(response.headers[.contentType] == "application/json")
          #expect(response.body.json["error"] as? String == "invalid_request")
        }
      }
      try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders,
        body: ByteBuffer(string: #"{"email":"registered@email.com","password":"password"}"#)
      ) { response in
        #expect(response.status == .ok)
      }
      try await client.execute(uri: "/no/such/thing", method: .get) { response in
        #expect(response.status == .notFound)
        #expect(response.body.json["error"] as? String == "not_found")
      }
    }
  }

  @Test(arguments: Store.allCases) func aBodyOverOneMebibyteIs413JSON(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let big = ByteBuffer(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1)
      for uri in ["/authenticate", "/api/accounts/lookup", "/oauth/token"] {
        try await client.execute(uri: uri, method: .post, headers: jsonHeaders, body: big) {
          response in
          #expect(response.status == .contentTooLarge, "\(uri)")
          #expect(response.body.json["error"] as? String == "request_too_large")
        }
      }
    }
  }

  /// The account routes anyone may call take small bodies (`ServerLimits.accountBodyBytes`): a
  /// walk-through's 1,000 connections that each sent 1 MB of a login and stopped held 1.3 GB
  /// of the server for as long as they stayed. Past the bound: 413, before the body is read
  /// when its length says so.
  @Test(arguments: Store.allCases)
  func anAccountRoutesBodyOverItsBoundIs413(store: Store) async throws {
    try await withRouter(store) { client, _ in
      let over = ByteBuffer(
        repeating: UInt8(ascii: "a"), count: ServerLimits.accountBodyBytes + 1)
      for uri in [
        "/authenticate", "/api/accounts/lookup", "/oauth/token", "/dbconnections/signup",
      ] {
        try await client.execute(uri: uri, method: .post, headers: jsonHeaders, body: over) {
          response in
          #expect(response.status == .contentTooLarge, "\(uri)")
          #expect(response.body.json["error"] as? String == "request_too_large")
          #expect(
            (response.body.json["error_description"] as? String)?.contains("16 KiB") == true)
        }
      }
    }
  }

  @Test func loginsAreLimitedPerEmailAndPerAddressForAMinute() async throws {
    let clock = ManualSeconds()
    try await withRouter(
      .sqlite,
      {
        $0.loginLimit = 3
        $0.monotonic = clock.now
      }
    ) { client, _ in
      func attempt(_ email: String) async throws -> HTTPResponse.Status {
        try await client.execute(
          uri: "/authenticate", method: .post, headers: jsonHeaders,
          body: jsonBody(["email": email, "password": "wrong"])
        ) { $0.status }
      }
      for _ in 0..<3 { #expect(try await attempt("registered@email.com") == .unauthorized) }
      #expect(try await attempt("registered@email.com") == .tooManyRequests)
      // The address is spent too (one address in the router tests).
      #expect(try await attempt("other@example.com") == .tooManyRequests)
      try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders, body: jsonBody(Self.seed)
      ) { response in
        #expect(response.status == .tooManyRequests)
        #expect(response.body.json["error"] as? String == "too_many_attempts")
      }
      clock.advance(60)
      try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders, body: jsonBody(Self.seed)
      ) { response in
        #expect(response.status == .ok)
      }
    }
  }

  /// Sign-up tells whether an address is registered (`user_exists`) as the lookup does, and
  /// each one costs a password hash: it is limited per address as the lookup is. A
  /// walk-through made 480 accounts in 9 s from one address, with `user_exists` answered while
  /// the lookup said 429, and a person's login took 10.8 s meanwhile.
  @Test func signUpsAreLimitedPerAddressAsLookupsAre() async throws {
    let clock = ManualSeconds()
    try await withRouter(
      .sqlite,
      {
        $0.loginLimit = 1
        $0.monotonic = clock.now
      }
    ) { client, _ in
      func signUp(_ email: String) async throws -> HTTPResponse.Status {
        try await client.execute(
          uri: "/dbconnections/signup", method: .post, headers: jsonHeaders,
          body: jsonBody([
            "client_id": "c", "email": email, "password": "pass-word-1", "connection": "x",
          ])
        ) { $0.status }
      }
      #expect(try await signUp("registered@email.com") == .badRequest)  // user_exists
      #expect(try await signUp("one@example.com") == .ok)
      #expect(try await signUp("two@example.com") == .ok)
      try await client.execute(
        uri: "/dbconnections/signup", method: .post, headers: jsonHeaders,
        body: jsonBody([
          "client_id": "c", "email": "registered@email.com", "password": "pass-word-1",
          "connection": "x",
        ])
      ) { response in
        #expect(response.status == .tooManyRequests, "no more answers on who is registered")
        #expect(response.body.json["error"] as? String == "too_many_attempts")
      }
      clock.advance(60)
      #expect(try await signUp("three@example.com") == .ok)
    }
  }

  @Test func chaosWithASeedIsDeterministicAndAboutAThirdEach() async throws {
    func statuses(seed: UInt64) async throws -> [UInt] {
      try await withRouterReturning(.sqlite, { $0.chaosSeed = seed }) { client, _ in
        var result: [UInt] = []
        for _ in 0..<30 {
          let status = try await client.execute(
            uri: "/authenticate", method: .post, headers: jsonHeaders, body: jsonBody(Self.seed)
          ) { response in
            if response.status == .internalServerError {
              #expect(response.body.text == #"{"error":"server_error"}"#)
            }
            return response.status.code
          }
          result.append(UInt(status))
        }
        return result
      } ?? []
    }
    let first = try await statuses(seed: 42)
    #expect(try await statuses(seed: 42) == first)
    #expect(try await statuses(seed: 7) != first)
    for status: UInt in [200, 401, 500] {
      #expect((4...16).contains(first.filter { $0 == status }.count), "\(status): \(first)")
    }
  }

  @Test(arguments: Store.allCases) func userinfoNeedsABearerTokenAndTheMobileUpdateKeepsTheExpiry(
    store: Store
  ) async throws {
    try await withRouter(store) { client, backend in
      let tokens = try await client.execute(
        uri: "/authenticate", method: .post, headers: jsonHeaders,
        body: jsonBody([
          "email": "registered@email.com", "password": "password", "client_id": "app",
        ])
      ) { try JSONDecoder().decode(TokenResponse.self, from: Data($0.body.readableBytesView)) }
      // RFC 6750 §3: a 401 says how to authenticate; with a token that is not valid, why not.
      try await client.execute(uri: "/userinfo", method: .get) { response in
        #expect(response.status == .unauthorized)
        #expect(response.body.json["error"] as? String == "invalid_token")
        #expect(response.headers[.wwwAuthenticate] == "Bearer")
      }
      try await client.execute(
        uri: "/userinfo", method: .get, headers: [.authorization: "Bearer not.a.token"]
      ) { response in
        #expect(response.status == .unauthorized)
        #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
      }
      try await client.execute(
        uri: "/userinfo", method: .get, headers: [.authorization: "Bearer " + tokens.accessToken]
      ) { response in
        #expect(response.status == .ok)
        #expect(response.body.json["email"] as? String == "registered@email.com")
        #expect(response.body.json["phone_number"] as? String == "+60123456789")
      }
      // The id_token says who signed in to the app; it is not a key to the API (OpenID
      // Connect Core §2, RFC 6750): a walk-through's id_token, which any app it was shown to
      // holds, was taken as a Bearer token everywhere.
      for uri in ["/userinfo", "/api/progress/1"] {
        try await client.execute(
          uri: uri, method: .get, headers: [.authorization: "Bearer " + tokens.idToken]
        ) { response in
          #expect(response.status == .unauthorized, "\(uri)")
          #expect(response.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
        }
      }
      let verifier = RS256Verifier(keySet: backend.signer.keySet)
      let before = try verifier.verify(tokens.idToken, now: Date(), issuer: nil)
      try await client.execute(
        uri: "/api/me/mobile", method: .post,
        headers: [
          .authorization: "Bearer " + tokens.accessToken, .contentType: "application/json",
        ],
        body: jsonBody(["mobile": "012-999 8888"])
      ) { response in
        #expect(response.status == .ok)
        let renewed = try JSONDecoder().decode(
          TokenResponse.self, from: Data(response.body.readableBytesView))
        let after = try verifier.verify(renewed.idToken, now: Date(), issuer: nil)
        #expect(after.phoneNumber == "+60129998888")
        #expect(after.exp == before.exp)
        #expect(after.aud == "app")
      }
      try await client.execute(
        uri: "/api/me/mobile", method: .post,
        headers: [
          .authorization: "Bearer " + tokens.accessToken, .contentType: "application/json",
        ],
        body: jsonBody(["mobile": "12"])
      ) { response in
        #expect(response.status == .badRequest)
        #expect(response.body.json["error"] as? String == "invalid_mobile")
      }
      try await client.execute(
        uri: "/api/me/mobile", method: .post,
        headers: [
          .authorization: "Bearer " + tokens.accessToken + "x", .contentType: "application/json",
        ],
        body: jsonBody(["mobile": "0123456789"])
      ) { response in
        #expect(response.status == .unauthorized)
      }
    }
  }

  @Test(arguments: Store.allCases) func wellKnownDocumentsNameTheIssuerAndTheSigningKey(
    store: Store
  ) async throws {
    try await withRouter(store) { client, backend in
      try await client.execute(uri: "/.well-known/openid-configuration", method: .get) {
        response in
        let json = response.body.json
        #expect(json["issuer"] as? String == "http://myworkout.test/")
        #expect(json["jwks_uri"] as? String == "http://myworkout.test/.well-known/jwks.json")
        #expect(json["token_endpoint"] as? String == "http://myworkout.test/oauth/token")
        #expect(json["userinfo_endpoint"] as? String == "http://myworkout.test/userinfo")
      }
      try await client.execute(uri: "/.well-known/jwks.json", method: .get) { response in
        let keys = try JSONDecoder().decode(
          JSONWebKeySet.self, from: Data(response.body.readableBytesView))
        #expect(keys == backend.signer.keySet)
        #expect(keys.keys.first?.alg == "RS256")
        #expect(keys.keys.first?.kty == "RSA")
      }
      try await client.execute(
        uri: "/api/accounts/lookup", method: .post, headers: jsonHeaders,
        body: jsonBody(["email": " Registered@Email.com "])
      ) { response in
        #expect(response.body.text == #"{"registered":true}"#)
      }
    }
  }
}
