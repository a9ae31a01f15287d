// The JSON bodies of myworkout-server's Auth0-shaped endpoints (SPEC §15), shared by the server
// and remote mode. Field names are Auth0's (snake_case).

/// `POST /oauth/token` and `POST /authenticate` on success (Auth0's token response).
package struct TokenResponse: Codable, Equatable, Sendable {
  package var accessToken: String
  package var idToken: String
  package var tokenType: String
  /// Seconds from now until the tokens expire.
  package var expiresIn: Int
  package var scope: String?

  package init(
    accessToken: String, idToken: String, tokenType: String = "Bearer", expiresIn: Int,
    scope: String?
  ) {
    self.accessToken = accessToken
    self.idToken = idToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
    self.scope = scope
  }

  enum CodingKeys: String, CodingKey {
    case accessToken = "access_token"
    case idToken = "id_token"
    case tokenType = "token_type"
    case expiresIn = "expires_in"
    case scope
  }
}

/// `POST /oauth/token` (form or JSON): Auth0's password and password-realm grants.
package struct TokenRequest: Codable, Equatable, Sendable {
  package var grantType: String
  /// A password grant's (the server asks for them once it knows the grant is one: another
  /// grant is `unsupported_grant_type`, not a missing `username`).
  package var username: String?
  package var password: String?
  package var clientID: String
  package var scope: String?
  package var realm: String?
  package var audience: String?

  package init(
    grantType: String, username: String, password: String, clientID: String,
    scope: String? = nil, realm: String? = nil, audience: String? = nil
  ) {
    self.grantType = grantType
    self.username = username
    self.password = password
    self.clientID = clientID
    self.scope = scope
    self.realm = realm
    self.audience = audience
  }

  enum CodingKeys: String, CodingKey {
    case grantType = "grant_type"
    case username, password, scope, realm, audience
    case clientID = "client_id"
  }

  package static let passwordGrant = "password"
  package static let passwordRealmGrant = "http://auth0.com/oauth/grant-type/password-realm"
}

/// `POST /authenticate` (brief 004).
package struct AuthenticateRequest: Codable, Equatable, Sendable {
  package var email: String
  package var password: String
  /// The audience of the id_token (Auth0's `client_id`); the app sends its own.
  package var clientID: String?
  package var scope: String?

  package init(email: String, password: String, clientID: String? = nil, scope: String? = nil) {
    self.email = email
    self.password = password
    self.clientID = clientID
    self.scope = scope
  }

  enum CodingKeys: String, CodingKey {
    case email, password, scope
    case clientID = "client_id"
  }
}

/// `POST /dbconnections/signup` (Auth0's database signup).
package struct SignupRequest: Codable, Equatable, Sendable {
  package var clientID: String
  package var email: String
  package var password: String
  package var connection: String
  package var givenName: String?
  package var familyName: String?
  package var userMetadata: UserMetadata?

  package init(
    clientID: String, email: String, password: String, connection: String,
    givenName: String? = nil, familyName: String? = nil, userMetadata: UserMetadata? = nil
  ) {
    self.clientID = clientID
    self.email = email
    self.password = password
    self.connection = connection
    self.givenName = givenName
    self.familyName = familyName
    self.userMetadata = userMetadata
  }

  enum CodingKeys: String, CodingKey {
    case clientID = "client_id"
    case email, password, connection
    case givenName = "given_name"
    case familyName = "family_name"
    case userMetadata = "user_metadata"
  }
}

/// What Auth0 keeps in `user_metadata` for us: gender and mobile.
package struct UserMetadata: Codable, Equatable, Sendable {
  package var gender: String?
  package var mobile: String?

  package init(gender: String?, mobile: String?) {
    self.gender = gender
    self.mobile = mobile
  }
}

/// Auth0's answer to a signup.
package struct SignupResponse: Codable, Equatable, Sendable {
  package var id: String
  package var email: String
  package var emailVerified: Bool
  package var givenName: String?
  package var familyName: String?
  package var userMetadata: UserMetadata?

  package init(
    id: String, email: String, emailVerified: Bool = false, givenName: String?,
    familyName: String?, userMetadata: UserMetadata?
  ) {
    self.id = id
    self.email = email
    self.emailVerified = emailVerified
    self.givenName = givenName
    self.familyName = familyName
    self.userMetadata = userMetadata
  }

  enum CodingKeys: String, CodingKey {
    case id = "_id"
    case email
    case emailVerified = "email_verified"
    case givenName = "given_name"
    case familyName = "family_name"
    case userMetadata = "user_metadata"
  }
}

/// `GET /userinfo`: OpenID Connect standard claims.
package struct UserInfo: Codable, Equatable, Sendable {
  package var sub: String
  package var email: String
  package var name: String?
  package var givenName: String
  package var familyName: String
  package var gender: String
  package var phoneNumber: String

  package init(
    sub: String, email: String, name: String?, givenName: String, familyName: String,
    gender: String, phoneNumber: String
  ) {
    self.sub = sub
    self.email = email
    self.name = name
    self.givenName = givenName
    self.familyName = familyName
    self.gender = gender
    self.phoneNumber = phoneNumber
  }

  enum CodingKeys: String, CodingKey {
    case sub, email, name, gender
    case givenName = "given_name"
    case familyName = "family_name"
    case phoneNumber = "phone_number"
  }
}

/// OAuth-style error body (`/oauth/token`, `/authenticate`, our own endpoints).
package struct OAuthErrorBody: Codable, Equatable, Sendable {
  package var error: String
  package var errorDescription: String?

  package init(error: String, errorDescription: String? = nil) {
    self.error = error
    self.errorDescription = errorDescription
  }

  enum CodingKeys: String, CodingKey {
    case error
    case errorDescription = "error_description"
  }
}

/// Auth0's signup error body: `{"code":"user_exists","description":"The user already exists."}`.
package struct CodeErrorBody: Codable, Equatable, Sendable {
  package var code: String
  package var description: String

  package init(code: String, description: String) {
    self.code = code
    self.description = description
  }
}

/// `GET /.well-known/openid-configuration` (the fields clients need).
package struct OpenIDConfiguration: Codable, Equatable, Sendable {
  package var issuer: String
  package var jwksURI: String
  package var tokenEndpoint: String
  package var userinfoEndpoint: String
  package var idTokenSigningAlgValuesSupported: [String]
  package var grantTypesSupported: [String]

  package init(issuer: String, jwksURI: String, tokenEndpoint: String, userinfoEndpoint: String) {
    self.issuer = issuer
    self.jwksURI = jwksURI
    self.tokenEndpoint = tokenEndpoint
    self.userinfoEndpoint = userinfoEndpoint
    idTokenSigningAlgValuesSupported = ["RS256"]
    grantTypesSupported = [TokenRequest.passwordGrant, TokenRequest.passwordRealmGrant]
  }

  enum CodingKeys: String, CodingKey {
    case issuer
    case jwksURI = "jwks_uri"
    case tokenEndpoint = "token_endpoint"
    case userinfoEndpoint = "userinfo_endpoint"
    case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
    case grantTypesSupported = "grant_types_supported"
  }
}
