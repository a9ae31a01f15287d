import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The mock registry in `accounts.json` (mode 0600). Reads need no lock (files are replaced
/// atomically); every change re-reads, modifies and writes under the directory's lock, so two
/// processes never lose each other's updates. A damaged file is moved aside, reported through
/// `onNotice`, and replaced by a fresh registry holding the seeded account.
package struct AccountsStore: Sendable {
  let directory: DataDirectory
  let hasher: PasswordHasher
  let now: @Sendable () -> Date
  let onNotice: @Sendable (String) -> Void

  /// - Parameter onNotice: called (from any thread, off the main actor) with a one-line notice
  ///   for the user when a damaged `accounts.json` was moved aside.
  package init(
    directory: DataDirectory, now: @escaping @Sendable () -> Date = { Date() },
    onNotice: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.init(directory: directory, hasher: PasswordHasher(), now: now, onNotice: onNotice)
  }

  package init(
    directory: DataDirectory, hasher: PasswordHasher, now: @escaping @Sendable () -> Date,
    onNotice: @escaping @Sendable (String) -> Void
  ) {
    self.directory = directory
    self.hasher = hasher
    self.now = now
    self.onNotice = onNotice
  }

  /// The registry as it is (made first if missing or damaged). Blocks on file I/O and possibly
  /// the lock: call it off the main actor.
  package func load() throws -> Registry {
    if case .found(let registry) = JSONFile.read(Registry.self, path: directory.accountsPath),
      !registry.needsUpgrade
    {
      return registry
    }
    var notices: [String] = []
    defer { notices.forEach(onNotice) }
    return try FileLock.withExclusiveLock(path: directory.lockPath) {
      try loadLocked(notices: &notices)
    }
  }

  /// Applies `change` to the freshest registry and writes the result, all under the lock. Nothing
  /// is written when `change` throws.
  package func update<T>(_ change: (inout Registry) throws -> T) throws -> T {
    var notices: [String] = []
    defer { notices.forEach(onNotice) }
    return try FileLock.withExclusiveLock(path: directory.lockPath) {
      var registry = try loadLocked(notices: &notices)
      let result = try change(&registry)
      try write(registry)
      return result
    }
  }

  /// Restores the registry to its single seeded account (`--reset`). A damaged `accounts.json`
  /// is moved aside first, never overwritten; returns the name it was moved to, if it was.
  @discardableResult
  package func reset() throws -> String? {
    let fresh = try seeded()
    return try FileLock.withExclusiveLock(path: directory.lockPath) {
      var movedTo: String?
      switch JSONFile.read(Registry.self, path: directory.accountsPath) {
      case .found, .missing: break
      case .failed(let error): throw error
      case .damaged: movedTo = try Quarantine.moveAside(path: directory.accountsPath, now: now())
      }
      try write(fresh)
      return movedTo
    }
  }

  /// What the registry holds for `email`, read without the lock and without writing anything.
  package func lookUp(email: String) -> RegistryLookup {
    switch JSONFile.read(Registry.self, path: directory.accountsPath) {
    case .found(let registry):
      // A version 1 file's ids are not kept until it is written back: none is given out.
      return registry.account(for: email).map {
        .found($0.profile, id: registry.needsUpgrade ? nil : $0.id)
      } ?? .absent
    // A missing registry is made with the seeded account alone at its first use.
    case .missing:
      return Email.normalized(email) == SeedAccount.profile.email
        ? .found(SeedAccount.profile, id: AccountID.seed) : .absent
    case .damaged, .failed: return .unknown
    }
  }

  /// Under the lock: the registry on disk, or a fresh seeded one written in place of a missing or
  /// damaged file. Notices are collected and reported once the lock is released.
  private func loadLocked(notices: inout [String]) throws -> Registry {
    let path = directory.accountsPath
    switch JSONFile.read(Registry.self, path: path) {
    case .found(let registry) where registry.needsUpgrade:
      // Version 1: the ids just assigned are kept from here on.
      try write(registry)
      return Registry(accounts: registry.accounts)
    case .found(let registry): return registry
    case .failed(let error): throw error
    case .missing: break
    case .damaged:
      let name = try Quarantine.moveAside(path: path, now: now())
      notices.append(
        "accounts.json could not be read; moved it aside to \(name) and started a fresh registry")
    }
    let fresh = try seeded()
    try write(fresh)
    return fresh
  }

  private func seeded() throws -> Registry {
    let password = try hasher.hash(SeedAccount.password)
    return Registry(accounts: [
      StoredAccount(id: AccountID.seed, profile: SeedAccount.profile, password: password)
    ])
  }

  /// Writes `registry`, giving any account without an id one first: on disk every account has
  /// an id.
  private func write(_ registry: Registry) throws {
    var registry = registry
    for index in registry.accounts.indices where registry.accounts[index].id?.isEmpty ?? true {
      registry.accounts[index].id = AccountID.assigned(to: registry.accounts[index].profile)
    }
    let data = try JSONFile.encode(registry)
    guard data.count <= AtomicFile.defaultLimit else {
      throw FileError(message: "The account registry is full")
    }
    try AtomicFile.write(data, to: directory.accountsPath)
  }
}

/// What `AccountsStore.lookUp(email:)` found.
package enum RegistryLookup: Equatable, Sendable {
  /// The account's profile and id (nil while the registry still waits to be given ids).
  case found(Profile, id: String?)
  /// The registry has no account for the email.
  case absent
  /// The registry cannot be read now (damaged or unreadable); the next request deals with it.
  case unknown
}
