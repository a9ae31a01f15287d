import MyworkoutCore
import MyworkoutServices
import MyworkoutWire
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything the routes share: the stores (SQLite in the data directory, or PostgreSQL with
/// `--database`), the token signer, the limits and the chaos generator. Stateless apart from the
/// stores: tokens are checked by signature.
package final class Backend: Sendable {
  package let options: ServerOptions
  let accounts: any AccountStoring
  let catalog: any CatalogStoring
  /// The catalog's answers, kept in memory per catalog version (issue 30).
  let catalogMemory: CatalogMemory
  package let progress: any ProgressStoring
  let hasher: PasswordHasher
  package let signer: RS256Signer
  let verifier: RS256Verifier
  let loginLimiter: any AttemptLimiting
  let lookupLimiter: any AttemptLimiting
  /// Sign-ups per address, counted on this instance (in memory: a database round trip more
  /// for each sign-up cost the shared PostgreSQL more than the count is worth).
  let signupLimiter: RateLimiter
  let chaos: Chaos?
  /// One change of an account's progress or lesson events at a time (on this instance, and
  /// across the instances sharing PostgreSQL): a change's preconditions still hold when it is
  /// made.
  let changes: any ChangeLocking
  /// The URL the server listens on, once it does (the default issuer, URLs without a Host).
  let baseURL = Mutex<String?>(nil)

  /// A single server's backend: SQLite files in the data directory.
  package convenience init(options: ServerOptions) throws {
    let directory = try DataDirectory.prepare(path: options.dataDirectory)
    try self.init(options: options, stores: .local(options: options, directory: directory))
  }

  /// A backend over `stores` (the PostgreSQL ones when several instances share a database).
  package init(options: ServerOptions, stores: ServerStores) throws {
    self.options = options
    hasher = PasswordHasher(iterations: options.hasherIterations)
    accounts = stores.accounts
    catalog = stores.catalog
    catalogMemory = CatalogMemory(store: stores.catalog, now: options.monotonic)
    progress = stores.progress
    signer = stores.signer
    verifier = RS256Verifier(keySet: signer.keySet)
    loginLimiter = stores.loginLimiter
    lookupLimiter = stores.lookupLimiter
    signupLimiter = RateLimiter(limit: options.lookupLimit, now: options.monotonic)
    changes = stores.changes
    chaos = options.chaosSeed.map(Chaos.init(seed:))
  }

  /// Called once the server listens.
  package func listening(at url: String) {
    baseURL.withLock { $0 = url }
  }

  /// `iss` of our tokens: `--issuer`, else the base URL with a trailing slash (the request's
  /// Host when the listening address is not known, as in the in-process tests).
  func issuer(host: String?) -> String {
    if let issuer = options.issuer { return issuer }
    let base = baseURL.withLock { $0 } ?? "http://" + (host ?? "127.0.0.1")
    return base.hasSuffix("/") ? base : base + "/"
  }

  var lessonsFile: String { options.lessons ?? options.assets + "/lessons.json" }

  /// What the operator should know when the server starts (printed after its URL as
  /// `notice: …` lines): a lesson file or an image folder it cannot serve, a video folder that
  /// is not there. Each is read again on every request, so mending it needs no restart.
  package func startNotices() -> [String] {
    var notices: [String] = []
    do {
      _ = try LessonFile.read(path: lessonsFile)
    } catch {
      notices.append("\(error.message); GET /api/lessons answers 500 until it can be read")
    }
    if let notice = imagesNotice() { notices.append(notice) }
    if let notice = videosNotice() { notices.append(notice) }
    return notices
  }

  var imagesDirectory: String { options.imagesDirectory ?? options.assets + "/images" }

  // MARK: Tokens

  /// The id_token and access token for `profile` of account `accountID` (their `sub`), for
  /// `audience`, ending at `expiresAt`.
  func tokens(
    for profile: Profile, accountID: String, audience: String, scope: String?, issuer: String,
    expiresAt: Int64? = nil
  ) throws -> TokenResponse {
    let now = Int64(options.now().timeIntervalSince1970.rounded(.down))
    let exp = expiresAt ?? now + options.tokenLifetime.components.seconds
    let id = try signer.sign(
      IDTokenClaims(
        profile: profile, sub: accountID, iss: issuer, aud: audience, iat: now, exp: exp))
    let access = try signer.sign(
      IDTokenClaims(
        sub: accountID, iss: issuer, aud: audience, iat: now, exp: exp,
        scope: scope ?? "openid profile email"))
    return TokenResponse(
      accessToken: access, idToken: id, expiresIn: Int(max(0, exp - now)), scope: scope)
  }

  /// The claims of the request's Bearer token (an access token of ours, current), or
  /// `APIError.unauthorized`.
  ///
  /// An id_token is refused (`invalid_token`): it tells an app who signed in to it, and any app
  /// it was shown to holds it (OpenID Connect Core §2; a walk-through called the API with one).
  /// Both are signed alike for the same audience; an access token always carries `scope` (every
  /// one this server has made did), an id_token never does.
  func bearer(_ authorization: String?, issuer: String) throws(APIError) -> IDTokenClaims {
    guard let authorization, authorization.lowercased().hasPrefix("bearer ") else {
      throw APIError.unauthorized
    }
    let token = authorization.dropFirst(7).trimmingWhitespace()
    guard let claims = try? verifier.verify(token, now: options.now(), issuer: issuer),
      claims.scope != nil
    else {
      throw APIError.invalidToken
    }
    return claims
  }

  /// The account a current token of ours names: its `sub`, the account's id. A token made
  /// before accounts had ids names the email there; it still names that account (until it
  /// expires), so nobody is logged out by the upgrade. `APIError.invalidToken` when the account
  /// is gone.
  func account(of claims: IDTokenClaims) async throws -> StoredAccount {
    let found =
      claims.sub.contains("@")
      ? try await accounts.account(email: claims.sub)
      : try await accounts.account(id: claims.sub)
    guard let found else { throw APIError.invalidToken }
    return found
  }

  /// The id of the account a token names (see `account(of:)`): a token with an id as its `sub`
  /// needs no query.
  func accountID(of claims: IDTokenClaims) async throws -> String {
    guard claims.sub.contains("@") else { return claims.sub }
    return try Self.id(of: await account(of: claims))
  }

  /// A stored account's id (every store gives each account one).
  static func id(of account: StoredAccount) throws -> String {
    guard let id = account.id, !id.isEmpty else {
      throw StoreError(failed: "an account has no id")
    }
    return id
  }

  /// Checks a password; the account, or nil for an unknown email or a wrong password (each
  /// costing one hash, so the answer takes as long either way).
  func check(email: String, password: String) async throws -> StoredAccount? {
    let account = try await accounts.account(email: email)
    let hasher = hasher
    return await Self.offLoop {
      guard let account else {
        hasher.simulateVerification(password)
        return nil
      }
      return hasher.verify(password, against: account.password) ? account : nil
    }
  }

  /// Slow work (password hashing) on the global executor, off the server's event loops.
  @concurrent
  static func offLoop<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    work()
  }
}
