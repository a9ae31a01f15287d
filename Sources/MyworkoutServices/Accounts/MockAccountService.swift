import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The embedded account service: accounts in `accounts.json`, a deliberate latency on an
/// injected clock. Every call takes at least `latency` on every path, success or failure: its
/// work (file reads, password hashing) runs off the main actor while the clock sleeps, and any
/// write is made only once the sleep has ended, so a cancelled call changes nothing.
package struct MockAccountService: AccountService {
  let store: AccountsStore
  let keys: SigningKeyFile
  let clock: any Clock<Duration>
  let now: @Sendable () -> Date
  let sessionLifetime: Duration
  let latency: Duration
  let folder: DataFolderWatch

  /// - Parameters:
  ///   - now: wall-clock time for the tokens' `iat` and `exp`.
  ///   - sessionLifetime: how long a session token stays valid.
  ///   - keys: the data directory's signing key, made when the first session is signed.
  package init(
    store: AccountsStore, keys: SigningKeyFile, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date = { Date() }, sessionLifetime: Duration,
    latency: Duration = .seconds(1)
  ) {
    self.store = store
    self.keys = keys
    self.clock = clock
    self.now = now
    self.sessionLifetime = sessionLifetime
    self.latency = latency
    folder = DataFolderWatch(directory: store.directory, keys: keys)
  }

  /// A service signing with a key held in memory (tests).
  package init(
    store: AccountsStore, signer: TokenSigner, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date = { Date() }, sessionLifetime: Duration,
    latency: Duration = .seconds(1)
  ) {
    self.init(
      store: store, keys: SigningKeyFile(key: signer.signingKey), clock: clock, now: now,
      sessionLifetime: sessionLifetime, latency: latency)
  }

  package func isRegistered(email: String) async throws -> Bool {
    let (store, folder) = (store, folder)
    async let found = Self.offMain {
      try folder.ensurePresent()
      return try store.load().index(of: email) != nil
    }
    try await clock.sleep(for: latency)
    return try await found
  }

  package func logIn(email: String, password: String) async throws -> Session {
    let (store, folder) = (store, folder)
    async let checked = Self.offMain {
      try folder.ensurePresent()
      guard let account = try store.load().account(for: email) else {
        store.hasher.simulateVerification(password)
        throw ServiceError.noAccount
      }
      guard store.hasher.verify(password, against: account.password) else {
        throw ServiceError.wrongCredentials
      }
      return try account.registered()
    }
    try await clock.sleep(for: latency)
    let (profile, id) = try await checked
    return try await session(for: profile, accountID: id)
  }

  package func signUp(_ registration: Registration) async throws -> Session {
    let (store, folder) = (store, folder)
    async let prepared = Self.offMain {
      try folder.ensurePresent()
      let profile = try Self.newProfile(registration)
      guard try store.load().index(of: profile.email) == nil else {
        throw ServiceError.emailExists
      }
      return StoredAccount(
        id: AccountID.random(), profile: profile,
        password: try store.hasher.hash(registration.password))
    }
    try await clock.sleep(for: latency)
    let account = try await prepared
    try Task.checkCancellation()
    try await Self.offMain { [keys] in
      // The key first: an account is never kept without a way to sign its session.
      _ = try keys.signer()
      try store.update { registry in
        // Checked again under the lock: another process may have taken the address meanwhile.
        guard registry.index(of: account.profile.email) == nil else {
          throw ServiceError.emailExists
        }
        // The wait for the lock (another process holding it) may have outlasted the call: a
        // cancelled call writes nothing, and a cancel from here on is too late (`CommitGate`).
        try CommitGate.commit()
        registry.accounts.append(account)
      }
    }
    return try await session(for: account.profile, accountID: try account.registered().id)
  }

  /// The new session keeps the old one's expiry: editing never extends a login, and a token
  /// that expires while the call waits changes nothing.
  package func updateMobile(token: String, mobile: String) async throws -> Session {
    let (store, keys, now, folder) = (store, keys, now, folder)
    async let checked = Self.offMain {
      try folder.ensurePresent()
      guard let claims = try? keys.verifier()?.claims(of: token, now: now()) else {
        throw ServiceError.sessionExpired
      }
      guard let number = MobileNumber.normalized(mobile) else { throw ServiceError.invalidMobile }
      return (email: claims.email, mobile: number, expiresAt: claims.exp)
    }
    try await clock.sleep(for: latency)
    let change = try await checked
    try Task.checkCancellation()
    let profile = try await Self.offMain {
      try store.update { registry in
        // Checked again at the moment of the change, after the wait.
        guard (try? keys.verifier()?.claims(of: token, now: now())) != nil,
          let index = registry.index(of: change.email)
        else { throw ServiceError.sessionExpired }
        try CommitGate.commit()  // as in `signUp`: after the wait for the lock
        registry.accounts[index].profile.mobile = change.mobile
        return try registry.accounts[index].registered()
      }
    }
    return try await session(
      for: profile.profile, accountID: profile.id, expiresAt: change.expiresAt)
  }
}
