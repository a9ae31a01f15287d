import MyworkoutCore

extension MockAccountService {
  /// A freshly signed session for `profile`, valid for the session lifetime (the first one
  /// makes the data directory's signing key).
  func session(for profile: Profile) async throws -> Session {
    let (keys, now, lifetime) = (keys, now, sessionLifetime)
    let token = try await Self.offMain {
      try keys.signer().sign(profile, issuedAt: now(), lifetime: lifetime)
    }
    return Session(
      token: token, profile: profile, gravatarHash: Gravatar.hash(email: profile.email))
  }

  /// A freshly signed session for `profile` that ends at `expiresAt` (seconds since 1970).
  func session(for profile: Profile, expiresAt: Int64) async throws -> Session {
    let (keys, now) = (keys, now)
    let token = try await Self.offMain {
      try keys.signer().sign(profile, issuedAt: now(), expiresAt: expiresAt)
    }
    return Session(
      token: token, profile: profile, gravatarHash: Gravatar.hash(email: profile.email))
  }

  /// The profile to store for a registration: email normalised, mobile in E.164, names trimmed.
  static func newProfile(_ registration: Registration) throws -> Profile {
    guard let mobile = MobileNumber.normalized(registration.profile.mobile) else {
      throw ServiceError.invalidMobile
    }
    var profile = registration.profile
    profile.email = Email.normalized(registration.email)
    profile.mobile = mobile
    profile.firstName = profile.firstName.trimmingWhitespace()
    profile.lastName = profile.lastName.trimmingWhitespace()
    return profile
  }

  /// Runs blocking work (file I/O, locks, hashing) on the global concurrent executor, never on
  /// the caller's actor. Anything but a `ServiceError` becomes `.storage` with a one-line message.
  @concurrent
  static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    do {
      return try work()
    } catch let error as ServiceError {
      throw error
    } catch {
      throw ServiceError.storage(String(describing: error))
    }
  }
}
