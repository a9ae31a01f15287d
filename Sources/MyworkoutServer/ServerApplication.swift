import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Builds the HTTP application over a backend: every route, JSON errors, the body limit, and
/// the OpenAPI document of them all at `GET /openapi.json`.
package enum ServerApplication {
  package static func router(_ backend: Backend) -> Router<ServerContext> {
    // HEAD answers every GET route (issue 30).
    let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: HTTPCachingMiddleware())
    backend.addAuthRoutes(to: router)
    backend.addDataRoutes(to: router)
    backend.addImageRoutes(to: router)
    backend.addVideoRoutes(to: router)
    router.get("openapi.json") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
    }
    // Last: it wraps no route, only the answer to a request none took (a path a route has,
    // asked with another method, is 405).
    router.add(middleware: MethodNotAllowedMiddleware(allowed: AllowedMethods(router)))
    return router
  }

  /// HTTP/1.1 with the idle timeout of `options`, and its limits on a client that stops
  /// reading an answer or sends a body too slowly (`SlowClientHandler`, one per connection).
  package static func server(_ options: ServerOptions) -> HTTPServerBuilder {
    let stalledWrite = timeAmount(options.stalledWriteTimeout)
    let requestRead = timeAmount(options.requestReadTimeout)
    return .http1(
      configuration: .init(
        additionalChannelHandlers: [
          SlowClientHandler(stalledWrite: stalledWrite, requestRead: requestRead),
          RequestHeadInstaller(),
        ],
        idleTimeout: timeAmount(options.idleTimeout)))
  }

  /// `duration` as NIO counts time (nanoseconds).
  static func timeAmount(_ duration: Duration) -> TimeAmount {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  /// The application on `host:port` (0: a free port). `onListening` receives the base URL
  /// once the socket is bound.
  package static func make(
    _ backend: Backend, logger: Logger,
    onListening: @escaping @Sendable (String) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let options = backend.options
    return Application(
      router: router(backend), server: server(options),
      configuration: .init(address: .hostname(options.host, port: options.port)),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? options.port
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        let url = "http://\(host):\(port)"
        backend.listening(at: url)
        await onListening(url)
      },
      logger: logger)
  }
}
