import AsyncHTTPClient
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The implementations every contract suite runs against: the embedded one, and the HTTP
/// client talking to a real server on a free loopback port, over SQLite (`remote`) or over a
/// throw-away PostgreSQL (`remotePostgres`; skipped, saying why, without PostgreSQL binaries).
enum Implementation: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case embedded, remote, remotePostgres
  var testDescription: String { rawValue }
}

/// What a contract test gets: the services of one implementation, over fresh data.
struct ServiceSet: Sendable {
  var accounts: any AccountService
  var catalog: any CatalogService
  var progress: any ProgressService
  var lessons: any LessonService
  /// Lesson completion events (the app's `LessonProgressStoring`).
  var completions: any CompletionStoring
  /// The account id progress is filed under once `signIn` has run.
  var signIn: @Sendable () async throws -> String
}

/// Runs `body` with `implementation`'s services over a fresh data directory.
func withServices(
  _ implementation: Implementation, _ body: @Sendable (ServiceSet) async throws -> Void
) async throws {
  try await withServicesReturning(implementation, body)
}

func withServicesReturning<T: Sendable>(
  _ implementation: Implementation, _ body: @Sendable (ServiceSet) async throws -> T
) async throws -> T {
  switch implementation {
  case .embedded:
    return try await withTemporaryDirectory { root in
      let directory = try DataDirectory.prepare(path: root + "/app")
      let clock = ContinuousClock()
      let accounts = MockAccountService(
        store: AccountsStore(
          directory: directory, hasher: PasswordHasher(iterations: 1_000), now: { Date() },
          onNotice: { _ in }),
        signer: TokenSigner(key: .random()), clock: clock,
        sessionLifetime: .seconds(3600), latency: .zero)
      let progress = ProgressStore(directory: directory)
      let set = ServiceSet(
        accounts: accounts,
        catalog: EmbeddedCatalogService(
          store: CatalogStore(
            directory: directory,
            source: CatalogSource(file: nil, shipped: assetsPath + "/classes.csv")),
          clock: clock, latency: .zero),
        progress: progress,
        lessons: EmbeddedLessonService(
          file: assetsPath + "/lessons.json", clock: clock, latency: .zero),
        completions: progress,
        signIn: { "registered@email.com" })
      return try await body(set)
    }
  case .remote, .remotePostgres:
    let store: Store = implementation == .remote ? .sqlite : .postgres
    let result: T? = try await withTemporaryDirectory { directory in
      var options = testOptions(directory)
      options.issuer = nil
      return try await withBackend(store, options: options) { backend in
        try await serveLive(backend) { url, _ in try await remoteServices(url, body) }
      }
    }
    guard let result else {
      // No PostgreSQL here: `withBackend` printed why; the SQLite server stands in.
      return try await withServicesReturning(.remote, body)
    }
    return result
  }
}

/// The HTTP clients of remote mode over the server at `url`.
private func remoteServices<T: Sendable>(
  _ url: String, _ body: @Sendable (ServiceSet) async throws -> T
) async throws -> T {
  let server = RemoteServer(baseURL: url)
  let credentials = RemoteCredentials()
  let accounts = RemoteAccountService(server: server, credentials: credentials)
  let progress = RemoteProgressService(server: server, credentials: credentials)
  let set = ServiceSet(
    accounts: accounts,
    catalog: RemoteCatalogService(server: server),
    progress: progress,
    lessons: RemoteLessonService(server: server),
    completions: progress,
    signIn: {
      _ = try await accounts.logIn(email: "registered@email.com", password: "password")
      return "registered@email.com"
    })
  return try await body(set)
}

/// The app's `LessonProgressStoring` (declared in the app target), for the contract suite.
protocol CompletionStoring: Sendable {
  func completions(account: String) async throws -> [LessonCompletion]
  func recordCompletion(account: String, lessonID: String, started: Date, completed: Date)
    async throws -> LessonCompletion?
  func startNewRound(account: String) async throws -> Int
}

extension ProgressStore: CompletionStoring {}
extension RemoteProgressService: CompletionStoring {}
