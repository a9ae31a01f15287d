import MyworkoutCore

extension MockAccountService {
  /// A freshly signed session for `profile`, valid for the session lifetime.
  func session(for profile: Profile) -> Session {
    Session(
      token: signer.sign(profile, issuedAt: now(), lifetime: sessionLifetime),
      profile: profile, gravatarHash: Gravatar.hash(email: profile.email))
  }

  /// A freshly signed session for `profile` that ends at `expiresAt` (seconds since 1970).
  func session(for profile: Profile, expiresAt: Int64) -> Session {
    Session(
      token: signer.sign(profile, issuedAt: now(), expiresAt: expiresAt),
      profile: profile, gravatarHash: Gravatar.hash(email: profile.email))
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
