import MyworkoutCore

/// The JOSE header of our tokens.
struct TokenHeader: Codable, Equatable {
  var alg: String
  var typ: String?

  static let hs256 = TokenHeader(alg: "HS256", typ: "JWT")
}

/// The claims of a session token: who, when, and the profile the Profile screen shows.
struct TokenClaims: Codable, Equatable {
  /// The account's id (tokens made before accounts had ids carry the normalised email).
  var sub: String
  var email: String
  /// Seconds since 1970.
  var iat: Int64
  var exp: Int64
  var gender: Gender
  var mobile: String
  var givenName: String
  var familyName: String

  enum CodingKeys: String, CodingKey {
    case sub, email, iat, exp, gender, mobile
    case givenName = "given_name"
    case familyName = "family_name"
  }

  init(profile: Profile, accountID: String, issuedAt: Int64, expiresAt: Int64) {
    sub = accountID
    email = profile.email
    iat = issuedAt
    exp = expiresAt
    gender = profile.gender
    mobile = profile.mobile
    givenName = profile.firstName
    familyName = profile.lastName
  }

  var profile: Profile {
    Profile(
      email: email, gender: gender, mobile: mobile, firstName: givenName, lastName: familyName)
  }
}
