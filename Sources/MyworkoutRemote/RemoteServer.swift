import AsyncHTTPClient
import MyworkoutCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One myworkout-server as remote mode talks to it: the base URL, AsyncHTTPClient (created only
/// in remote mode) and the answer deadline. Failures of the exchange itself are `ServiceError`s:
/// no connection → `.network`, no answer in time → `.timedOut`.
package struct RemoteServer: Sendable {
  /// `http(s)://host[:port]`, no trailing slash.
  package let baseURL: String
  let http: HTTPClient
  /// No answer in this long → `.timedOut` (SPEC §15: 10 s).
  let timeout: Duration
  /// The deadline of a read while the server is known not to answer (issue 28: a search and
  /// the watched % that follows it must not wait 10 s each, one after another).
  let shortTimeout: Duration
  /// Shared by every copy (every service of one server): when a request last went unanswered.
  let health = Health()

  package init(
    baseURL: String, http: HTTPClient = RemoteServer.client, timeout: Duration = .seconds(10),
    shortTimeout: Duration = .seconds(2)
  ) {
    self.baseURL = Self.canonical(baseURL)
    self.http = http
    self.timeout = timeout
    self.shortTimeout = min(shortTimeout, timeout)
  }

  /// `url` in one spelling, as the outbox files it: the scheme and host in lower case, no
  /// default port (80 for http, 443 for https), no trailing slash. (A walk-through's changes
  /// kept for `http://127.0.0.1:38411` were never sent from `http://LOCALHOST:38411/`.)
  package static func canonical(_ url: String) -> String {
    var text = Substring(url)
    while text.hasSuffix("/") { text = text.dropLast() }
    guard let schemeEnd = text.firstRange(of: "://") else { return String(text) }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    let rest = text[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
    var authority = rest[..<authorityEnd].lowercased()
    // Credentials before the host keep their case (none are used, but they are not ours).
    if let at = rest[..<authorityEnd].lastIndex(of: "@") {
      authority =
        String(rest[..<at]) + "@" + rest[rest.index(after: at)..<authorityEnd].lowercased()
    }
    for (name, port) in [("http", ":80"), ("https", ":443")]
    where scheme == name && authority.hasSuffix(port) {
      authority = String(authority.dropLast(port.count))
    }
    return scheme + "://" + authority + rest[authorityEnd...]
  }

  /// Whether the server lately left a request unanswered: for a minute after a time-out,
  /// until any request gets an answer.
  package final class Health: Sendable {
    private let lastTimeout = Mutex<ContinuousClock.Instant?>(nil)

    func timedOut() { lastTimeout.withLock { $0 = .now } }
    func answered() { lastTimeout.withLock { $0 = nil } }

    package var isUnanswering: Bool {
      lastTimeout.withLock { last in last.map { ContinuousClock.now - $0 < .seconds(60) } ?? false }
    }
  }

  /// The deadline of a request: the full one for a change (it must get its chance to be
  /// applied), a short one for a read while the server is not answering (each read still
  /// tries, so the first answer brings the full deadline back).
  package func deadline(forChange change: Bool) -> Duration {
    change || !health.isUnanswering ? timeout : shortTimeout
  }

  /// Remote mode's one client, made on first use (so never in the embedded default) and kept
  /// for the life of the process. A refused connection fails at once (`.network`) rather than
  /// being retried until the deadline; TLS certificates are verified (the default).
  ///
  /// It runs on one event-loop thread of its own, not on NIO's shared group (a thread per
  /// core): there, a request's bookkeeping and its connection could sit on different loops, and
  /// every step of a progress save (write, flush, head, end) woke the other thread. One app's
  /// few requests at a time need no second core.
  package static let client: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.timeout.connect = .seconds(10)
    return HTTPClient(
      eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1),
      configuration: configuration)
  }()

  /// An answer: its status and body.
  package struct Answer: Sendable {
    package var status: Int
    package var body: Data
    /// The answer's `ETag`, if it had one.
    package var tag: String? = nil

    /// The body as `T`; a body that is not is the server's fault (`.server(status)`).
    package func decode<T: Decodable>(_ type: T.Type) throws(ServiceError) -> T {
      do {
        return try JSONDecoder().decode(T.self, from: body)
      } catch {
        throw ServiceError.server(status: status)
      }
    }

    /// The OAuth-style `error` code of an error body, if it has one.
    package var errorCode: String? {
      struct Body: Decodable {
        var error: String?
        var code: String?
      }
      let body = try? JSONDecoder().decode(Body.self, from: body)
      return body?.error ?? body?.code
    }
  }

  /// Sends one request. A JSON `body` is encoded; `bearer` goes in `Authorization`, `key` in
  /// `Idempotency-Key` (the server applies a change carrying a key it has seen only once).
  package func send(
    _ method: HTTPMethod, _ path: String, json body: (some Encodable)? = String?.none,
    bearer: String? = nil, key: UUID? = nil, url: String? = nil, limit: Int = 1 << 20,
    ifNoneMatch: String? = nil
  ) async throws -> Answer {
    var headers = HTTPHeaders()
    headers.add(name: "Accept", value: "application/json")
    headers.add(name: "User-Agent", value: "myworkout/1.0")
    if let bearer { headers.add(name: "Authorization", value: "Bearer " + bearer) }
    if let key { headers.add(name: "Idempotency-Key", value: key.uuidString.lowercased()) }
    if let ifNoneMatch { headers.add(name: "If-None-Match", value: ifNoneMatch) }
    var payload: HTTPClient.Body?
    if let body {
      let data: Data
      do {
        data = try JSONEncoder().encode(body)
      } catch {
        throw ServiceError.storage("The request could not be written: \(error)")
      }
      headers.add(name: "Content-Type", value: "application/json")
      payload = .byteBuffer(ByteBuffer(bytes: data))
    }
    let wait = deadline(forChange: key != nil)
    do {
      let request = try HTTPClient.Request(
        url: url ?? baseURL + path, method: method, headers: headers, body: payload)
      let seconds = wait.components.seconds
      let nanoseconds = seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
      let deadline = NIODeadline.now() + .nanoseconds(nanoseconds)
      // The client's future-based call: its async one starts a task on Swift's global pool for
      // every request (to register its cancellation), and that pool's first job starts
      // libdispatch's once-a-second monitor for the life of the app (SPEC §16, §19: 0 wake-ups
      // while paused). The future's answer resumes this task where it runs (the app's threads).
      let call = http.execute(
        request: request, delegate: ResponseAccumulator(request: request, maxBodySize: limit),
        deadline: deadline)
      let response = try await withTaskCancellationHandler {
        try await call.get()
      } onCancel: {
        call.cancel()
      }
      health.answered()
      Self.markSent()
      return Answer(
        status: Int(response.status.code),
        body: response.body.map { Data($0.readableBytesView) } ?? Data(),
        tag: response.headers.first(name: "ETag"))
    } catch is CancellationError {
      throw CancellationError()
    } catch is ResponseAccumulator.ResponseTooBigError {
      // The server answered, with more than any answer here can be: its fault, not the
      // network's (a refused read shows what it says, not "Can't reach the server").
      if Task.isCancelled { throw CancellationError() }
      health.answered()
      Self.markSent()
      throw ServiceError.server(status: 200)
    } catch let error as HTTPClientError {
      if Task.isCancelled { throw CancellationError() }
      if error != .connectTimeout { Self.markSent() }
      switch error {
      case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
        // Only a full deadline's silence says the server is not answering (a short one that
        // runs out does not extend the minute: a slow server gets a full deadline again).
        if wait == timeout { health.timedOut() }
        throw ServiceError.timedOut
      default:
        throw ServiceError.network
      }
    } catch {
      if Task.isCancelled { throw CancellationError() }
      if !Self.isConnectFailure(error) { Self.markSent() }
      throw ServiceError.network
    }
  }

  /// Records, for a caller that asks (`$sendRecord`), whether any request it made may have
  /// reached the server: a change whose answer was lost may have been applied, one that never
  /// got a connection (refused, no such host, no answer to the connect) was not.
  package final class SendRecord: Sendable {
    private let sent = Mutex(false)
    package init() {}
    package var mayHaveSent: Bool { sent.withLock { $0 } }
    func mark() { sent.withLock { $0 = true } }
  }

  @TaskLocal package static var sendRecord: SendRecord?

  static func markSent() { sendRecord?.mark() }

  /// A failure before any byte of the request could leave: the connection was never made.
  static func isConnectFailure(_ error: any Error) -> Bool {
    if error is NIOConnectionError { return true }
    if case ChannelError.connectTimeout = error { return true }
    if let error = error as? IOError {
      return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
    }
    return error is SocketAddressError
  }

  /// Turns the statuses every call treats alike into errors: 429 → `.rateLimited`, 5xx and
  /// anything unexpected → `.server(status)`.
  package static func failure(_ answer: Answer) -> ServiceError {
    switch answer.status {
    case 429: .rateLimited
    case 401: .unauthorized
    default: .server(status: answer.status)
    }
  }
}

extension RemoteServer {
  /// `GET path`, revalidated against what `cache` keeps for it (issue 30): sent with the kept
  /// answer's `ETag` in `If-None-Match`; a `304` answers with the kept body (nothing is sent
  /// again), a `200` is kept with its new tag when `keep` says so (after the caller checked it).
  package func get(
    _ path: String, revalidating cache: RemoteCache?
  ) async throws -> Answer {
    let tag = await cache?.tag(for: path)
    let answer = try await send(.GET, path, ifNoneMatch: tag)
    guard answer.status == 304 else { return answer }
    if let body = await cache?.body(for: path) {
      return Answer(status: 200, body: body, tag: tag)
    }
    return try await send(.GET, path)  // the kept body is gone: ask for it whole
  }

  /// Whether `video` (a class's video URL) is on `server` itself, under `/videos/`: the only
  /// URLs the session's token goes with (SPEC §19). Scheme and host compare without case, a
  /// default port as none.
  package static func isOwnVideo(_ video: String, server: String) -> Bool {
    guard let own = Origin(server), let other = Origin(video) else { return false }
    return own.scheme == other.scheme && own.authority == other.authority
      && other.path.hasPrefix("/videos/")
  }

  private struct Origin {
    var scheme: String
    var authority: String
    var path: String

    init?(_ url: String) {
      let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2 else { return nil }
      scheme = parts[0].lowercased()
      let rest = parts[1]
      let slash = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
      var authority = rest[..<slash].lowercased()
      guard !authority.isEmpty, !authority.contains("@") else { return nil }
      for (name, port) in [("http", ":80"), ("https", ":443")]
      where scheme == name && authority.hasSuffix(port) {
        authority.removeLast(port.count)
      }
      self.authority = authority
      path = String(rest[slash...])
    }
  }
}
