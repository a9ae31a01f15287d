import MyworkoutCore
import MyworkoutServices
import NIOCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

// The protocols every store of the server meets. The SQLite stores live in MyworkoutServices
// (`ProgressStore`, `CatalogStore`, the accounts file), because the embedded app uses the very
// same ones; the PostgreSQL stores live here, in `Postgres/`, one file per store, since only
// the server has a database server.

/// Watch progress and lesson completion events, per account id (the Bearer token's `sub`).
/// `ProgressStore` (SQLite, shared with the embedded app) and `PostgresProgressStore`.
package protocol ProgressStoring: Sendable {
  func progress(account: String, classID: String) async throws -> ClassProgress
  /// Merges `update` (position replaced, intervals united, time added); the result.
  func record(_ update: ProgressUpdate) async throws -> ClassProgress
  /// As `record`, once per `key` (in the transaction of the change): a key the account applied
  /// before changes nothing and answers the progress as stored.
  func record(_ update: ProgressUpdate, key: IdempotencyKey) async throws -> Applied<ClassProgress>
  /// The request `key` was applied to for `account`, if it was (and is still remembered).
  func appliedRequest(account: String, key: String) async throws -> String?
  func watchedPercents(account: String, classes: [DanceClass]) async throws -> [String: Int]
  func completions(account: String) async throws -> [LessonCompletion]
  /// The account's current round (1 before any Start over) and its events, read together: a
  /// Start over between two readings would pair one round's events with the next round.
  func currentCompletions(account: String) async throws -> RoundCompletions
  /// Files the event in `round` (the one its device made it in; nil, or a round not reached
  /// yet: the current one).
  func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round: Int?
  ) async throws -> LessonCompletion?
  /// As `recordCompletion`, once per `key` (in the transaction of the change): a key the
  /// account applied before changes nothing and answers the round's event of that lesson.
  func recordCompletion(
    account: String, lessonID: String, started: Date, completed: Date, round: Int?,
    key: IdempotencyKey
  ) async throws -> Applied<LessonCompletion?>
  /// Begins the round after `from` when `from` is the current round (nil: after the current
  /// one); its number, or nil when another round is current (nothing started).
  func startNewRound(account: String, from: Int?) async throws -> Int?
}

/// The catalog and its search (SPEC §11). `CatalogStore` (SQLite) and `PostgresCatalogStore`.
package protocol CatalogStoring: Sendable {
  func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage
  func danceClass(id: String) async throws -> DanceClass?
  /// Changes whenever an import changes the classes, and only then (seen by every instance).
  func version() async throws -> String
}

/// Attempts counted per key in one-minute windows: false (nothing counted) once any key has had
/// its limit. `RateLimiter` (in memory, one instance) and `PostgresRateLimiter` (shared).
package protocol AttemptLimiting: Sendable {
  func allow(_ keys: [String]) async throws -> Bool
}

extension ProgressStore: ProgressStoring {}
extension CatalogStore: CatalogStoring {}
extension RateLimiter: AttemptLimiting {}

/// Everything the routes keep: where accounts, progress, the catalog, the signing key and the
/// login counters live. SQLite in the data directory by default, PostgreSQL with `--database`.
package struct ServerStores: Sendable {
  package var accounts: any AccountStoring
  package var progress: any ProgressStoring
  package var catalog: any CatalogStoring
  package var signer: RS256Signer
  package var loginLimiter: any AttemptLimiting
  package var lookupLimiter: any AttemptLimiting
  /// One change of an account's progress or lesson events at a time, per key: on this
  /// instance, or across a deployment's instances.
  package var changes: any ChangeLocking

  package init(
    accounts: any AccountStoring, progress: any ProgressStoring, catalog: any CatalogStoring,
    signer: RS256Signer, loginLimiter: any AttemptLimiting, lookupLimiter: any AttemptLimiting,
    changes: any ChangeLocking = KeyedLock()
  ) {
    self.changes = changes
    self.accounts = accounts
    self.progress = progress
    self.catalog = catalog
    self.signer = signer
    self.loginLimiter = loginLimiter
    self.lookupLimiter = lookupLimiter
  }

  /// The stores of a single server: SQLite files and the key file in `directory`, counters in
  /// memory (exactly what the server had before `--database`).
  package static func local(options: ServerOptions, directory: DataDirectory) throws -> ServerStores
  {
    let hasher = PasswordHasher(iterations: options.hasherIterations)
    let notices: @Sendable (String) -> Void = { sayNotice($0) }
    let accountsPath = directory.path + "/accounts.sqlite"
    // Before the accounts file is opened (which may create, seed or upgrade it), so that a
    // refused start has changed nothing.
    do {
      try ProgressStore.refuseNewerFile(in: directory)
    } catch let error as NewerSchemaError {
      throw StoreError(
        failed: "\(error.description); refusing to start. Run a newer myworkout-server.")
    } catch {
      // Damage: the store moves the file aside at its first use and says so.
    }
    let accounts: SQLiteAccountStore
    do {
      accounts = try SQLiteAccountStore(path: accountsPath, hasher: hasher)
    } catch let error as SQLiteError where error.isDamage {
      // Never moved aside: every account is in it. (A file that is sound but cannot be used
      // for now, locked, read-only or on a full disk, keeps its own message.)
      throw StoreError(
        failed: "\(accountsPath): \(error); refusing to start. Restore it from a backup, or move "
          + "it aside to start with only the seeded account.")
    }
    return ServerStores(
      accounts: accounts,
      // A progress file from before ids has its rows moved from each email to that account's id.
      progress: ProgressStore(
        directory: directory, onNotice: notices,
        accountIDs: { try SQLiteAccountStore.idsByEmail(path: accountsPath) },
        classLimit: options.progressClassLimit, lessonEventLimit: options.lessonEventLimit,
        appliedKeyLimit: options.appliedKeyLimit),
      catalog: ParallelCatalog(
        store: CatalogStore(
          directory: directory,
          source: CatalogSource(file: options.catalog, shipped: options.assets + "/classes.csv"),
          onNotice: notices),
        readers: CatalogReaders(directory: directory, keep: 2 * System.coreCount)),
      signer: try RS256Signer.load(path: directory.path + "/id-token-key.pem"),
      loginLimiter: RateLimiter(limit: options.loginLimit, now: options.monotonic),
      lookupLimiter: RateLimiter(limit: options.lookupLimit, now: options.monotonic))
  }
}

/// The server's SQLite catalog (issue 30): pages and classes read on connections of their own,
/// side by side (`CatalogReaders`); imports and repairs in `CatalogStore`, which also answers
/// whatever a read connection could not.
struct ParallelCatalog: CatalogStoring {
  let store: CatalogStore
  let readers: CatalogReaders

  func page(query: String, offset: Int, limit: Int) async throws -> CatalogPage {
    if let page = await readers.page(query: query, offset: offset, limit: limit) { return page }
    return try await store.page(query: query, offset: offset, limit: limit)
  }

  func danceClass(id: String) async throws -> DanceClass? {
    if let found = await readers.danceClass(id: id) { return found }
    return try await store.danceClass(id: id)
  }

  func version() async throws -> String {
    try await store.version()
  }
}

/// A store that could not do its work, as the client sees it: 503 while the database is away
/// (it may come back), 500 otherwise. `message` never holds a password.
package struct StoreError: Error, Sendable, CustomStringConvertible {
  package var isUnavailable: Bool
  package var message: String

  package init(unavailable message: String) {
    isUnavailable = true
    self.message = message
  }

  package init(failed message: String) {
    isUnavailable = false
    self.message = message
  }

  package var description: String { message }

  /// What the client is told: what could not be done, never the database's own words (they
  /// are logged).
  var apiError: APIError {
    isUnavailable
      ? APIError(.serviceUnavailable, error: "temporarily_unavailable", description: message)
      : APIError(.internalServerError, error: "server_error", description: clientMessage)
  }

  /// `Could not save progress.` from `Could not save progress: <the database's reason>.`
  var clientMessage: String {
    guard let colon = message.firstIndex(of: ":") else { return message }
    return String(message[..<colon]) + "."
  }
}

/// A `notice: …` line on standard output, written at once: through the C library's buffer, in
/// a pipe or a log file, a walk-through's notice (a `--catalog` that cannot be read, the
/// shipped classes served instead) was seen only when the server ended. Written straight to the
/// descriptor, one `write` per line, not by flushing every stream (`fflush(NULL)` waits for
/// any stream another thread holds, e.g. one blocked reading a pipe).
package func sayNotice(_ text: String) {
  let line = Array("notice: \(text)\n".utf8)
  var done = 0
  while done < line.count {
    let count = line[done...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    if count < 0, errno == EINTR { continue }
    guard count > 0 else { return }  // nowhere to say it: the server goes on
    done += count
  }
}
