import MyworkoutCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the signed-in session in `session.json` (mode 0600, replaced atomically) so the next
/// launch can open on Profile without a service call.
package struct SessionStore: Sendable {
  let directory: DataDirectory
  let keys: SigningKeyFile

  package init(directory: DataDirectory, keys: SigningKeyFile) {
    self.directory = directory
    self.keys = keys
  }

  /// A store checking tokens with a key held in memory (tests).
  package init(directory: DataDirectory, signer: TokenSigner) {
    self.init(directory: directory, keys: SigningKeyFile(key: signer.signingKey))
  }

  /// The saved session: `.none` without a file, `.valid` for a genuine current token (profile
  /// from its claims), `.invalid` otherwise. A stale token's file is removed; a file that cannot
  /// be read or parsed is moved aside, and the notice says so.
  package func load(now: Date) -> SessionLoad {
    switch JSONFile.read(SessionFile.self, path: directory.sessionPath) {
    case .missing: return SessionLoad(restored: .none)
    case .failed(let error): return SessionLoad(restored: .invalid, notice: error.message)
    case .damaged: return SessionLoad(restored: .invalid, notice: moveAsideIfDamaged(now: now))
    case .found(let file):
      guard let claims = try? keys.verifier()?.claims(of: file.token, now: now) else {
        // Best effort: if it cannot be removed, the next launch finds it stale again.
        try? delete()
        return SessionLoad(restored: .invalid)
      }
      let profile = claims.profile
      // A token from before accounts had ids names the email: the registry's id replaces it
      // when the load is reconciled with the registry.
      let session = Session(
        token: file.token, accountID: claims.sub, profile: profile,
        gravatarHash: Gravatar.hash(email: profile.email))
      return SessionLoad(restored: .valid(session))
    }
  }

  /// Keeps `session` for the next launch.
  package func save(_ session: Session) throws {
    try AtomicFile.write(JSONFile.encode(SessionFile(session: session)), to: directory.sessionPath)
  }

  /// Keeps a renewed `session` (a number edited) for the next launch while the file still
  /// holds this account's session; otherwise leaves it: another copy of the app on this data
  /// directory logged someone else in (the next launch opens the device's last log-in) or
  /// logged this person out.
  package func renew(_ session: Session) throws {
    let path = directory.sessionPath
    try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> Void in
      guard case .found(let file) = JSONFile.read(SessionFile.self, path: path),
        Self.isSameAccount(file, as: session)
      else { return }
      try save(session)
    }
  }

  /// Whether `session` is still the device's (`SessionPersisting.isSessionKept`): not after a
  /// log-out in another copy of the app (the file removed), nor after another account's log-in
  /// there. A file that cannot be read is for `load` to move aside.
  package func isSessionKept(_ session: Session) -> Bool {
    switch JSONFile.read(SessionFile.self, path: directory.sessionPath) {
    case .missing: false
    case .found(let file): Self.isSameAccount(file, as: session)
    case .damaged, .failed: true
    }
  }

  /// Forgets `session` (a log-out, an expiry) while the file holds this account's session;
  /// otherwise leaves it: another copy of the app on this data directory logged someone else
  /// in since (a walk-through's log-out in one copy removed the other's new log-in).
  /// A file that cannot be read for now (descriptors, I/O) is an error: the log-out says it
  /// failed (the file may still open this account next launch). A damaged one is left for
  /// `load` to move aside and say.
  package func end(_ session: Session) throws {
    try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> Void in
      switch JSONFile.read(SessionFile.self, path: directory.sessionPath) {
      case .found(let file) where Self.isSameAccount(file, as: session): try delete()
      case .failed(let error): throw error
      case .found, .missing, .damaged: return
      }
    }
  }

  /// Whether a kept file is `session`'s account's (by email: it never changes, and a token from
  /// before accounts had ids names no id).
  private static func isSameAccount(_ file: SessionFile, as session: Session) -> Bool {
    Email.normalized(file.profile.email) == Email.normalized(session.profile.email)
  }

  /// Forgets whatever session is kept (a stale one, `--reset`); no error when there is none.
  package func delete() throws {
    let path = directory.sessionPath
    guard unlink(path) == 0 else {
      let code = errno
      if code == ENOENT { return }
      throw FileError.posix("Cannot remove", path, code: code)
    }
  }

  /// Under the lock, checks the file is still damaged (another copy of the app may have dealt
  /// with it already) and moves it aside; returns the notice.
  private func moveAsideIfDamaged(now: Date) -> String? {
    let path = directory.sessionPath
    do {
      let name = try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> String? in
        guard case .damaged = JSONFile.read(SessionFile.self, path: path) else { return nil }
        return try Quarantine.moveAside(path: path, now: now)
      }
      guard let name else { return nil }
      return "session.json could not be read; moved it aside to \(name); please log in again"
    } catch {
      return "session.json could not be read or moved aside: \(error)"
    }
  }
}
