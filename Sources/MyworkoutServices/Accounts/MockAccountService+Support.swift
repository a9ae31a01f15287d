import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension MockAccountService {
  /// A freshly signed session for `profile`, valid for the session lifetime (the first one
  /// makes the data directory's signing key).
  func session(for profile: Profile, accountID: String) async throws -> Session {
    let lifetime = sessionLifetime
    return try await session(for: profile, accountID: accountID) { signer, issuedAt in
      signer.sign(profile, accountID: accountID, issuedAt: issuedAt, lifetime: lifetime)
    }
  }

  /// A freshly signed session for `profile` that ends at `expiresAt` (seconds since 1970).
  func session(for profile: Profile, accountID: String, expiresAt: Int64) async throws -> Session {
    try await session(for: profile, accountID: accountID) { signer, issuedAt in
      signer.sign(profile, accountID: accountID, issuedAt: issuedAt, expiresAt: expiresAt)
    }
  }

  /// A session whose token `sign` makes, off the main actor, with the directory's key (read or
  /// made on first use) at the current time.
  private func session(
    for profile: Profile, accountID: String,
    sign: @escaping @Sendable (TokenSigner, Date) -> String
  ) async throws -> Session {
    let (keys, now) = (keys, now)
    let token = try await Self.offMain { sign(try keys.signer(), now()) }
    return Session(
      token: token, accountID: accountID, profile: profile,
      gravatarHash: Gravatar.hash(email: profile.email))
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
  /// the caller's actor. Anything but a `ServiceError` or a cancellation becomes `.storage` with a
  /// one-line message.
  @concurrent
  static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    do {
      return try work()
    } catch let error as ServiceError {
      throw error
    } catch let error as CancellationError {
      throw error
    } catch {
      throw ServiceError.storage(String(describing: error))
    }
  }
}
