import MyworkoutCore
import MyworkoutServices

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Remote mode's `session.json` counterpart, `remote-session.json` (mode 0600): the server's
/// tokens and the JWKS that verified them, so a relaunch opens Profile with no call, verifying
/// the id_token offline (RS256, swift-crypto). A session for another server is not used.
package struct RemoteSessionStore: Sendable {
  let path: String
  let directory: DataDirectory
  let server: String
  let credentials: RemoteCredentials

  struct File: Codable {
    var version = 1
    var server: String
    var idToken: String
    var accessToken: String?
    var jwks: JSONWebKeySet
  }

  package init(directory: DataDirectory, server: String, credentials: RemoteCredentials) {
    path = directory.path + "/remote-session.json"
    self.directory = directory
    self.server = server
    self.credentials = credentials
  }

  /// The kept session when its id_token is genuine (by the kept keys) and current.
  package func load(now: Date) -> SessionLoad {
    let data: Data?
    do {
      data = try AtomicFile.read(path: path, limit: 1 << 20)
    } catch {
      return SessionLoad(restored: .invalid, notice: error.message)
    }
    guard let data else { return SessionLoad(restored: .none) }
    // A file that cannot be read (cut short, not JSON, a version this build does not know) is
    // moved aside and said, never deleted (SPEC §7, as `session.json` in embedded mode).
    guard let file = Self.readable(data) else {
      return SessionLoad(restored: .invalid, notice: moveAsideIfUnreadable(now: now))
    }
    // Another server's session (or this one's under another spelling) is merely not for this
    // launch: kept, not deleted (issue 28).
    if file.server != server {
      return SessionLoad(restored: .none)
    }
    // A token "issued in the future" says only that this device's clock is behind the
    // server's: the server judges it, so its `iat` is not held against it here.
    guard
      let claims = try? RS256Verifier(keySet: file.jwks).verify(
        file.idToken, now: now, issuer: nil, leeway: .seconds(Self.clockBehindLeeway)),
      let profile = claims.profile
    else {
      try? delete()
      return SessionLoad(restored: .invalid)
    }
    credentials.signedIn(
      RemoteCredentials.Tokens(
        idToken: file.idToken, accessToken: file.accessToken,
        owner: .init(accountID: claims.sub, email: profile.email)),
      keys: file.jwks)
    return SessionLoad(
      restored: .valid(
        Session(
          token: file.idToken, accountID: claims.sub, profile: profile,
          gravatarHash: Gravatar.hash(email: profile.email))))
  }

  /// The file `data` holds, when this build can read it.
  private static func readable(_ data: Data) -> File? {
    guard let file = try? JSONDecoder().decode(File.self, from: data), file.version == 1 else {
      return nil
    }
    return file
  }

  /// Under the data directory's lock, checks the file still cannot be read (another copy of
  /// the app may have dealt with it) and moves it aside; returns the notice.
  private func moveAsideIfUnreadable(now: Date) -> String? {
    do {
      let name = try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> String? in
        guard let data = try AtomicFile.read(path: path, limit: 1 << 20),
          Self.readable(data) == nil
        else { return nil }
        return try Quarantine.moveAside(path: path, now: now)
      }
      guard let name else { return nil }
      return "remote-session.json could not be read; moved it aside to \(name); please log in again"
    } catch {
      return "remote-session.json could not be read or moved aside: \(error)"
    }
  }

  /// Whether `session` is still the device's: not after a log-out in another copy of the app
  /// (the file removed), nor after a log-in there as another account or to another server. A
  /// file that cannot be read is for `load` to move aside.
  package func isSessionKept(_ session: Session) -> Bool {
    let data: Data?
    do {
      data = try AtomicFile.read(path: path, limit: 1 << 20)
    } catch {
      return true
    }
    guard let data else { return false }
    return Self.readable(data).map { holds(session, in: $0) } ?? true
  }

  /// Whether a kept file is `session`'s: this server's, and the same account.
  private func holds(_ session: Session, in file: File) -> Bool {
    file.server == server && Self.subject(of: file.idToken) == session.accountID
  }

  /// How far behind the server's clock this device's may be (a year).
  static let clockBehindLeeway: Int64 = 366 * 86_400

  /// Keeps the session's tokens and the key set for the next launch.
  package func save(_ session: Session) throws {
    guard let keys = credentials.keySet else {
      throw FileError(message: "No server keys to keep the session with", isDamage: false)
    }
    var tokens = credentials.tokens
    if tokens?.idToken != session.token {
      tokens = RemoteCredentials.Tokens(
        idToken: session.token, accessToken: nil,
        owner: .init(accountID: session.accountID, email: session.profile.email))
    }
    let file = File(
      server: server, idToken: session.token, accessToken: tokens?.accessToken, jwks: keys)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try AtomicFile.write(try encoder.encode(file), to: path)
  }

  /// Keeps a renewed `session` (a number edited) for the next launch while the file still
  /// holds this account's session on this server; otherwise leaves it: another copy of the app
  /// on this data directory logged someone else in (the next launch opens the device's last
  /// log-in; a walk-through's edit in one copy put back the account the other had logged out)
  /// or logged this person out.
  package func renew(_ session: Session) throws {
    try whileHeld(session) { try save(session) }
  }

  /// Forgets `session` (a log-out, an expiry): this process signs out, and the file goes while
  /// it holds this session; another copy's later log-in (another account, another server)
  /// stays (a walk-through's log-out in one copy removed the other's).
  package func end(_ session: Session) throws {
    credentials.signedOut()
    try whileHeld(session) { try delete() }
  }

  /// Under the data directory's lock, does `change` while the file holds `session`.
  private func whileHeld(_ session: Session, _ change: () throws -> Void) throws {
    try FileLock.withExclusiveLock(path: directory.lockPath) { () throws -> Void in
      guard let data = try AtomicFile.read(path: path, limit: 1 << 20),
        let file = Self.readable(data), holds(session, in: file)
      else { return }
      try change()
    }
  }

  /// The `sub` of a token, read without checking it (only to tell whose session a file holds).
  package static func subject(of token: String) -> String? {
    struct Subject: Decodable { var sub: String }
    return UnverifiedToken.payload(of: token, as: Subject.self)?.sub
  }

  /// Forgets whatever session is kept (a stale one, `--reset`); no error when there is none.
  package func delete() throws {
    credentials.signedOut()
    guard unlink(path) == 0 else {
      let code = errno
      if code == ENOENT { return }
      throw FileError.posix("Cannot remove", path, code: code)
    }
  }
}
