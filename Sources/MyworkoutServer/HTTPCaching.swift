import Crypto
import HTTPTypes
import Hummingbird
import MyworkoutServices
import NIOCore

/// HTTP caching as the web does it (issue 30): every successful GET (and HEAD, which answers
/// every GET route) carries an `ETag` (a hash of the exact bytes, unless the route gave its own)
/// and a `Cache-Control` saying who may keep it and for how long; a request whose
/// `If-None-Match` names the current `ETag` gets `304 Not Modified` with no body, one whose
/// `If-Match` names no current tag `412` (a walk-through found If-Match ignored on reads). What
/// is personal is `private, no-cache`: no shared cache (nginx's, a CDN's) ever keeps it, and a
/// browser-like client must ask again each time.
struct HTTPCachingMiddleware<Context: RequestContext>: RouterMiddleware {
  /// Who may keep an answer, and for how long.
  enum Policy: Equatable {
    /// The same for everyone, changing only with an import: shared caches may keep it a minute.
    case publicShort
    /// Bytes that never change under their URL (an image by id): a day.
    case publicLong
    /// The account's own: only the client, and only after asking again.
    case personal

    var cacheControl: String {
      switch self {
      case .publicShort: "public, max-age=60"
      case .publicLong: "public, max-age=86400"
      case .personal: "private, no-cache"
      }
    }
  }

  static func policy(path: String, hasCredentials: Bool) -> Policy {
    if hasCredentials || path.hasPrefix("/api/progress") || path == "/api/lessons/completions"
      || path == "/userinfo"
    {
      return .personal
    }
    if path.hasPrefix("/id/") { return .publicLong }
    return .publicShort
  }

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    // The path as the router reads it: empty parts (`//videos/x`) are not there.
    let path = "/" + request.uri.path.split(separator: "/").joined(separator: "/")
    // Videos carry their own validators and are streamed, never gathered here.
    guard request.method == .get || request.method == .head, !path.hasPrefix("/videos/") else {
      return try await next(request, context)
    }
    let response = try await next(request, context)
    guard response.status == .ok else { return response }
    let policy = Self.policy(
      path: path, hasCredentials: request.headers[.authorization] != nil)
    var headers = response.headers
    let tag: String
    let body: ResponseBody
    if let known = headers[.eTag] {
      // A route that knows its tag (the catalog's kept answers): nothing gathered or hashed.
      tag = known
      body = response.body
    } else {
      let sink = Sink()
      try await response.body.write(Collector(sink: sink))
      tag = Self.entityTag(sink.buffer.readableBytesView)
      body = .init(byteBuffer: sink.buffer)
      headers[.eTag] = tag
    }
    headers[.cacheControl] = policy.cacheControl
    // If-Match first (RFC 9110 §13.2.2): a tag that is not the answer's is 412, not the bytes.
    // These answers have no date of change, so If-Unmodified-Since is ignored (§13.1.4).
    try Preconditions.requireMatch(request, tag: tag)
    if let asked = request.headers[.ifNoneMatch], Self.matches(asked, tag) {
      headers[.contentLength] = nil
      headers[.contentType] = nil
      return Response(status: .notModified, headers: headers, body: .init())
    }
    return Response(status: .ok, headers: headers, body: body)
  }

  /// A strong entity tag: the first 16 bytes of the SHA-256 of the body, quoted.
  static func entityTag(_ bytes: some Collection<UInt8>) -> String {
    "\"" + SHA256.hash(data: Array(bytes)).prefix(16).hexString + "\""
  }

  /// `If-None-Match`: `*`, or a list of tags (weak ones compared weakly, as RFC 9110 says).
  /// `weakly: false` (`If-Match`): a weak tag in the header does not match.
  static func matches(_ header: String, _ tag: String, weakly: Bool = true) -> Bool {
    header.split(separator: ",").contains { part in
      let value = part.trimmingCharacters(in: .whitespaces)
      return value == "*" || value == tag || (weakly && value == "W/" + tag)
    }
  }

  /// Where the body is gathered (one request's task writes it, then reads it).
  final class Sink: @unchecked Sendable {
    var buffer = ByteBuffer()
  }

  struct Collector: ResponseBodyWriter {
    let sink: Sink

    mutating func write(_ buffer: ByteBuffer) async throws {
      var buffer = buffer
      sink.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
  }
}

/// Preconditions on a change (RFC 9110 §13.1.1, §13.1.2, §13.2): a change that carries
/// `If-Match` is made only while one of its tags names, strongly compared, what a GET of the same
/// URI answers now (`*`: while there is such an answer); one that carries `If-None-Match`, only
/// while none of its tags does, weakly compared (`*`: while there is none). Otherwise `412
/// precondition_failed` and nothing is changed (a walk-through found both ignored: a client
/// guarding its change against a lost update had its stale change made).
///
/// A route checks after its own checks of the request, its body's included (a missing token
/// is still a 401, a body that is not the JSON expected a 400), and just before it changes
/// anything, holding `Backend.changes` for the class's progress or the account's lesson events
/// from the check to the change, so that no other change of them comes between (32 changes
/// sent at one instant under one tag made up to 15). That holds within one instance: instances
/// of a cluster sharing a database check and change in two steps (no change is lost either
/// way: saves merge, completions are events of their own).
enum Preconditions {
  static var failed: APIError {
    APIError(
      .preconditionFailed, error: "precondition_failed",
      description: "The resource is not in the state the request's If-Match or If-None-Match names."
    )
  }

  /// Throws `failed` unless the conditions of `request` hold for `current`: the tag of what a
  /// GET of the request's URI answers now, nil when there is nothing (asked only when the
  /// request has a condition).
  static func check(_ request: Request, current: () async throws -> String?) async throws {
    let ifMatch = request.headers[.ifMatch]
    let ifNoneMatch = request.headers[.ifNoneMatch]
    guard ifMatch != nil || ifNoneMatch != nil else { return }
    let tag = try await current()
    try requireMatch(request, tag: tag)
    if let ifNoneMatch, let tag, HTTPCachingMiddleware<ServerContext>.matches(ifNoneMatch, tag) {
      throw failed
    }
  }

  /// `If-Match` (RFC 9110 §13.1.1), for a change and for a read alike: throws `failed` unless
  /// one of its tags names `tag` strongly (`*`: any), or the request has none. Nil: there is
  /// nothing at the URI, which no tag names.
  static func requireMatch(_ request: Request, tag: String?) throws {
    guard let ifMatch = request.headers[.ifMatch] else { return }
    guard let tag, HTTPCachingMiddleware<ServerContext>.matches(ifMatch, tag, weakly: false)
    else { throw failed }
  }

  /// The tag a GET answering `body` carries.
  static func tag(of body: ByteBuffer) -> String {
    HTTPCachingMiddleware<ServerContext>.entityTag(body.readableBytesView)
  }
}
