import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MyworkoutServer
import NIOCore
import Synchronization

/// What stands between remote mode and the server in a test: the network as it is at the
/// moment, switched by the test (issue 28's model test and walk-through).
final class Network: Sendable {
  enum Mode: Sendable, Equatable, CaseIterable {
    /// Every request reaches the server.
    case up
    /// The server is away: every request is a 503 from the front.
    case away
    /// The server answers 500 to every change without applying it.
    case failing
    /// A proxy in front answers its own 404 page (nginx mid-reload).
    case proxyPage
    /// The server applies every change, and its answer is lost (a 502 comes back).
    case answerLost
  }

  private let state = Mutex(Mode.up)
  var mode: Mode {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }
}

/// The server's routes behind `network`.
struct FrontResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == ServerContext {
  let inner: Inner
  let network: Network

  func respond(to request: Request, context: ServerContext) async throws -> Response {
    let isChange =
      request.method == .post
      && (request.uri.path.hasPrefix("/api/progress/")
        && request.uri.path != "/api/progress/percents"
        || request.uri.path == "/api/lessons/completions")
    switch network.mode {
    case .up:
      return try await inner.respond(to: request, context: context)
    case .away:
      return Response(status: .serviceUnavailable)
    case .failing where isChange:
      return Response(
        status: .internalServerError, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: #"{"error":"server_error"}"#)))
    case .proxyPage:
      return Response(
        status: .notFound, headers: [.contentType: "text/html"],
        body: .init(byteBuffer: ByteBuffer(string: "<html><body>404 Not Found</body></html>")))
    case .answerLost where isChange:
      _ = try await inner.respond(to: request, context: context)
      return Response(status: .badGateway)
    case .failing, .answerLost:
      return try await inner.respond(to: request, context: context)
    }
  }
}

/// `backend` behind `network`, listening on a free loopback port while `body` runs.
func serveLive<T: Sendable>(
  _ backend: Backend, behind network: Network, _ body: @Sendable (String) async throws -> T
) async throws -> T {
  var logger = Logger(label: "test-front")
  logger.logLevel = .critical
  let app = Application(
    responder: FrontResponder(
      inner: ServerApplication.router(backend).buildResponder(), network: network),
    configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
  return try await app.test(.live) { client in
    let url = "http://127.0.0.1:\(client.port ?? 0)"
    backend.listening(at: url)
    return try await body(url)
  }
}

/// A fresh server (SQLite in a temporary folder, no fixed issuer) behind `network`, listening
/// while `body` runs with its URL, its backend and the folder (for the app's own data).
func withLiveServer(
  behind network: Network, _ body: @Sendable (String, Backend, String) async throws -> Void
) async throws {
  try await withTemporaryDirectory { root in
    var options = testOptions(root)
    options.issuer = nil
    let backend = try Backend(options: options)
    try await serveLive(backend, behind: network) { url in try await body(url, backend, root) }
  }
}
