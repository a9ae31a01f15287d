import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The project's `Assets/` (the shipped classes, lessons and images).
let assetsPath: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(4)  // Tests/MyworkoutServerTests/Support/Fixture.swift
  return parts.joined(separator: "/") + "/Assets"
}()

/// A fresh directory under /tmp, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
  var template = Array("/tmp/myworkout-server-tests-XXXXXX".utf8CString)
  let path: String? = template.withUnsafeMutableBufferPointer { buffer in
    mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
  }
  guard let path else { throw FileError(message: "mkdtemp failed") }
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

/// Server options for tests: a cheap password hash, the shipped assets, a fixed issuer.
func testOptions(_ directory: String) -> ServerOptions {
  var options = ServerOptions(dataDirectory: directory + "/server")
  options.port = 0
  options.assets = assetsPath
  options.hasherIterations = 1_000
  options.loginLimit = 1_000
  options.issuer = "http://myworkout.test/"
  return options
}

/// A manual monotonic clock for the rate limits.
final class ManualSeconds: Sendable {
  private let value = Mutex<Double>(0)
  func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
  var now: @Sendable () -> Double { { self.value.withLock { $0 } } }
}

/// Where a test server keeps its data: SQLite files in its data directory (the default), or a
/// fresh database of the shared throw-away PostgreSQL cluster (`TestPostgres`).
enum Store: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgres
  var testDescription: String { rawValue }
}

/// Opens a backend over `store`; `body` runs with it, then the store is closed.
func withBackend<T: Sendable>(
  _ store: Store, options: ServerOptions, _ body: (Backend) async throws -> T
) async throws -> T? {
  switch store {
  case .sqlite:
    return try await body(Backend(options: options))
  case .postgres:
    guard TestPostgres.isAvailable else {
      print("skipped (PostgreSQL): \(TestPostgres.unavailableReason)")
      return nil
    }
    let url = try DatabaseURL(try TestPostgres.sharedCluster().makeDatabase())
    var logger = Logger(label: "test-postgres")
    logger.logLevel = .critical
    // The first minute of a full test run keeps both cores busy (a CI run saw a login's call
    // take over the server's 5 s and answer 503): these tests check answers, not timing.
    var options = options
    options.databaseCallTimeout = .seconds(60)
    let opened = try await ServerStores.postgres(url: url, options: options, logger: logger)
    defer { opened.database.close() }
    return try await body(Backend(options: options, stores: opened.stores))
  }
}

/// Runs `body` against the routes in-process (no socket), over a fresh data directory (and a
/// fresh PostgreSQL database for `.postgres`).
func withRouter(
  _ store: Store = .sqlite,
  _ configure: (inout ServerOptions) -> Void = { _ in },
  _ body: @Sendable (any TestClientProtocol, Backend) async throws -> Void
) async throws {
  _ = try await withRouterReturning(store, configure, body)
}

func withRouterReturning<T: Sendable>(
  _ store: Store = .sqlite,
  _ configure: (inout ServerOptions) -> Void = { _ in },
  _ body: @Sendable (any TestClientProtocol, Backend) async throws -> T
) async throws -> T? {
  try await withTemporaryDirectory { directory in
    var options = testOptions(directory)
    configure(&options)
    return try await withBackend(store, options: options) { backend in
      let app = Application(router: ServerApplication.router(backend))
      return try await app.test(.router) { client in try await body(client, backend) }
    }
  }
}

/// Runs `body` with a real server listening on a free loopback port; its base URL.
func withLiveServer(
  _ configure: (inout ServerOptions) -> Void = { _ in },
  _ body: @Sendable (String, Backend) async throws -> Void
) async throws {
  try await withLiveServerReturning(configure, body)
}

func withLiveServerReturning<T: Sendable>(
  _ configure: (inout ServerOptions) -> Void = { _ in },
  _ body: @Sendable (String, Backend) async throws -> T
) async throws -> T {
  try await withTemporaryDirectory { directory in
    var options = testOptions(directory)
    options.issuer = nil
    configure(&options)
    return try await serveLive(Backend(options: options), body)
  }
}

/// `backend` listening on a free loopback port while `body` runs with its base URL.
func serveLive<T: Sendable>(
  _ backend: Backend, _ body: @Sendable (String, Backend) async throws -> T
) async throws -> T {
  var logger = Logger(label: "test-server")
  logger.logLevel = .critical
  let app = Application(
    router: ServerApplication.router(backend), server: ServerApplication.server(backend.options),
    configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
  return try await app.test(.live) { client in
    let url = "http://127.0.0.1:\(client.port ?? 0)"
    backend.listening(at: url)
    return try await body(url, backend)
  }
}

extension ByteBuffer {
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(readableBytesView))) as? [String: Any] ?? [:]
  }
  var text: String { String(buffer: self) }
}

func jsonBody(_ value: [String: Any]) -> ByteBuffer {
  ByteBuffer(bytes: (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
}

let jsonHeaders: HTTPFields = [.contentType: "application/json"]

/// Logs the seeded account in at `url` through remote mode's account service, into
/// `credentials` (a new set unless given); the credentials.
@discardableResult
func signedIn(_ credentials: RemoteCredentials = RemoteCredentials(), at url: String)
  async throws -> RemoteCredentials
{
  _ = try await RemoteAccountService(server: RemoteServer(baseURL: url), credentials: credentials)
    .logIn(email: "registered@email.com", password: "password")
  return credentials
}
