import HTTPTypes
import Hummingbird

/// The methods each route takes, for the requests no route answers: a path that a route has,
/// asked with another method, is `405 Method Not Allowed` with an `Allow` field naming the
/// route's methods (RFC 9110 §15.5.6); any other path stays `404`.
struct AllowedMethods: Sendable {
  private struct Route: Sendable {
    var path: RouterPath
    var methods: Set<HTTPRequest.Method>
  }

  private var routes: [Route] = []

  /// The routes of `router` as they stand (HEAD beside each GET, which the router answers).
  init(_ router: Router<ServerContext>) {
    // A recursive wildcard (`**`) spans any number of segments, which the match below does
    // not; our routes have none, and such a route would stay a plain 404.
    for route in router.routes where !route.path.contains(where: { $0.description == "**" }) {
      var methods: Set = [route.method]
      if route.method == .get { methods.insert(.head) }
      if let index = routes.firstIndex(where: { $0.path == route.path }) {
        routes[index].methods.formUnion(methods)
      } else {
        routes.append(Route(path: route.path, methods: methods))
      }
    }
  }

  /// The methods the route of `path` takes, in alphabetical order (nil: no route has it).
  func methods(for path: String) -> [HTTPRequest.Method]? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    var found: Set<HTTPRequest.Method> = []
    for route in routes where route.path.count == parts.count {
      if zip(route.path, parts).allSatisfy({ $0 ~= $1 }) { found.formUnion(route.methods) }
    }
    return found.isEmpty ? nil : found.sorted { $0.rawValue < $1.rawValue }
  }
}

/// Answers the requests no route took (it is added after every route, so it wraps only the
/// router's not-found answer): `405` with `Allow` where the path is a route's.
struct MethodNotAllowedMiddleware: RouterMiddleware {
  typealias Context = ServerContext

  let allowed: AllowedMethods

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.status == .notFound {
      guard let methods = allowed.methods(for: request.uri.path) else { throw error }
      var refusal = APIError(
        .methodNotAllowed, error: "method_not_allowed",
        description: "This resource takes \(methods.map(\.rawValue).joined(separator: ", ")).")
      refusal.headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
      throw refusal
    }
  }
}
