import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// How the server reads HTTP/1 framing it is sent as raw bytes (RFC 9112): when a connection
/// ends, what a body it cannot read gets, and what `Host` must be. A walk-through found each
/// case below answered otherwise.
@Suite struct HTTPFramingTests {
  typealias Sockets = StalledClientTests

  /// Sends `request` on a new connection; what came back before the server closed it, or nil
  /// when it was still open after `milliseconds`. The socket is waited on by a thread of its
  /// own: a wait on one of Swift's few shared threads kept the server's routes (which run
  /// there) from answering when several of these tests ran at once.
  static func answer(_ port: UInt16, _ request: String, within milliseconds: Int = 5_000)
    async throws -> String?
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result { try blockingAnswer(port, request, within: milliseconds) })
      }.start()
    }
  }

  static func blockingAnswer(_ port: UInt16, _ request: String, within milliseconds: Int) throws
    -> String?
  {
    let socket = try Sockets.connect(port: port)
    defer { close(socket) }
    Sockets.sendText(socket, request)
    return Sockets.readUntilClosed(socket, within: milliseconds).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  static func port(_ url: String) -> UInt16 {
    UInt16(url.split(separator: ":").last.flatMap { Int($0) } ?? 0)
  }

  /// `Connection` is a list of case-insensitive options (RFC 9110 §7.6.1), and `close` among
  /// them ends the connection after the answer (RFC 9112 §9.6), whatever else it says. Only a
  /// bare lower-case `close` did; the rest stayed open for the idle timeout.
  @Test(arguments: ["Close", "CLOSE", "keep-alive, close", "TE, close"])
  func closeInAnySpellingEndsTheConnection(option: String) async throws {
    try await withLiveServer({ $0.idleTimeout = .seconds(60) }) { url, _ in
      for version in ["1.0", "1.1"] {
        let answer = try await Self.answer(
          Self.port(url),
          "GET /.well-known/jwks.json HTTP/\(version)\r\nHost: x\r\nConnection: \(option)\r\n\r\n")
        #expect(answer?.hasPrefix("HTTP/1.1 200") == true, "HTTP/\(version), \(option)")
      }
    }
  }

  /// An HTTP/1.0 message with `Transfer-Encoding` has faulty framing: the connection is closed
  /// after it, even when it asks to be kept (RFC 9112 §6.1).
  @Test func anHTTP10BodyInChunksEndsTheConnection() async throws {
    try await withLiveServer({ $0.idleTimeout = .seconds(60) }) { url, _ in
      let body = #"{"email":"registered@email.com","password":"password"}"#
      let chunk = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
      let answer = try await Self.answer(
        Self.port(url),
        "POST /authenticate HTTP/1.0\r\nConnection: keep-alive\r\nContent-Type: application/json"
          + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk)
      #expect(answer != nil, "closed after the answer")
    }
  }

  /// A CONNECT (no tunnel is offered) is answered and its connection ended: its answer has no
  /// length (an answer to CONNECT is a tunnel's start), so a client waited for the idle
  /// timeout (75 s) to know it had all of it.
  @Test func aConnectIsAnsweredAndItsConnectionEnded() async throws {
    try await withLiveServer({ $0.idleTimeout = .seconds(60) }) { url, _ in
      let answer = try await Self.answer(
        Self.port(url), "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
      #expect(answer?.hasPrefix("HTTP/1.1 4") == true, "\(answer ?? "still open")")
    }
  }

  /// A body whose framing cannot be read is the client's fault: 400, not 500 (RFC 9112 §6.1:
  /// a transfer coding other than chunked last gets 400).
  @Test(arguments: [
    "Transfer-Encoding: gzip\r\n\r\n{}",
    "Transfer-Encoding: xchunked\r\n\r\n{}",
    "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff1\r\n{}\r\n0\r\n\r\n",
  ])
  func aBodyThatCannotBeReadIsABadRequest(framing: String) async throws {
    try await withLiveServer { url, _ in
      let answer = try await Self.answer(
        Self.port(url),
        "POST /authenticate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing)
      let status = answer.map { String($0.prefix(12)) }
      #expect(status == "HTTP/1.1 400", "\(answer ?? "no answer, still open")")
    }
  }

  /// An HTTP/1.1 request needs exactly one valid `Host` (RFC 9112 §3.2): without one, with two,
  /// or with one that is no host, 400 (the server built its classes' video URLs from whatever
  /// it was sent: `http://a b/videos/…`). HTTP/1.0 may leave it out: the video URLs then name
  /// the server's own address, port included (they named port 80).
  @Test func hostIsRequiredAndChecked() async throws {
    try await withLiveServer { url, _ in
      let port = Self.port(url)
      for (headers, what) in [
        ("", "no Host"), ("Host: a\r\nHost: b\r\n", "two"), ("Host: a b\r\n", "a space"),
        ("Host: evil.example/path?\r\n", "a path"), ("Host: user@evil.example\r\n", "user info"),
      ] {
        let answer = try await Self.answer(
          port, "GET /api/classes?limit=1 HTTP/1.1\r\n" + headers + "Connection: close\r\n\r\n")
        #expect(answer?.hasPrefix("HTTP/1.1 400") == true, "\(what): \(answer ?? "nil")")
      }
      let fine = try await Self.answer(
        port, "GET /api/classes?limit=1 HTTP/1.1\r\nHost: [::1]:80\r\nConnection: close\r\n\r\n")
      #expect(fine?.hasPrefix("HTTP/1.1 200") == true)
      let old = try #require(
        try await Self.answer(port, "GET /api/classes?limit=1 HTTP/1.0\r\n\r\n"))
      #expect(old.hasPrefix("HTTP/1.1 200"))
      #expect(old.contains("\"video_url\":\"\(url)/videos/"), "\(old.suffix(400))")
    }
  }

  /// A request whose target is in absolute form (`GET http://host/path`) names its host there,
  /// and the server must take it from there, not from `Host` (RFC 9112 §3.2.2): the video URLs
  /// named the `Host` sent beside it. A target whose authority is no host is a 400.
  @Test func anAbsoluteTargetsAuthorityIsTheHost() async throws {
    try await withLiveServer { url, _ in
      let port = Self.port(url)
      let answer = try #require(
        try await Self.answer(
          port,
          "GET http://Example.org:81/api/classes?limit=1 HTTP/1.1\r\nHost: other.example\r\n"
            + "Connection: close\r\n\r\n"))
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
      #expect(
        answer.contains("\"video_url\":\"http://Example.org:81/videos/"), "\(answer.suffix(400))")
      for target in ["http://user@evil.example/api/classes", "http://a b/api/classes"] {
        let refused = try await Self.answer(
          port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(refused?.hasPrefix("HTTP/1.1 400") == true, "\(target): \(refused ?? "nil")")
      }
    }
  }
}

/// What a request that is not HTTP/1.1 gets: the API's JSON error like every other answer
/// (they came back as a 400 with an empty body), after the answers to the requests sent before
/// it on the same connection, and the connection closed.
@Suite struct UnreadableRequestTests {
  typealias Framing = HTTPFramingTests

  @Test(arguments: [
    ("GE T / HTTP/1.1\r\nHost: x\r\n\r\n", "a method with a space", "501"),
    ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n", "a space in a field name", "400"),
    (
      "POST /authenticate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "two lengths", "400"
    ),
    (
      "POST /authenticate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "a length and chunks", "400"
    ),
    (
      "GET / HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 90_000))\r\n\r\n",
      "a field too long", "431"
    ),
    ("GET / HTTP/7.1\r\nHost: x\r\n\r\n", "HTTP/7", "505"),
    ("BREW /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n", "an unknown method", "501"),
  ])
  func isAnsweredInJSON(request: String, what: String, status: String) async throws {
    try await withLiveServer { url, _ in
      let answer = try await Framing.answer(Framing.port(url), request)
      let text = try #require(answer, "\(what): still open")
      #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(what): \(text)")
      #expect(text.lowercased().contains("content-type: application/json"), "\(what): \(text)")
      #expect(text.contains("\"error\":\"invalid_request\""), "\(what): \(text)")
      #expect(text.lowercased().contains("connection: close"), "\(what): \(text)")
    }
  }

  /// Two requests in one write, the second unreadable: the first is answered first, then the
  /// error, then the connection ends.
  @Test func afterTheAnswersToTheRequestsBeforeIt() async throws {
    try await withLiveServer { url, _ in
      let answer = try await Framing.answer(
        Framing.port(url),
        "GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n"
          + "GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n")
      let text = try #require(answer, "still open")
      let ok = try #require(text.range(of: "HTTP/1.1 200"), "\(text)")
      let refused = try #require(text.range(of: "HTTP/1.1 400"), "\(text)")
      #expect(ok.lowerBound < refused.lowerBound, "\(text)")
      #expect(text.hasSuffix("}"), "\(text.suffix(200))")
    }
  }
}

/// `Expect: 100-continue` (RFC 9110 §10.1.1): a client that asks waits for `100 Continue`
/// before it sends the body, and the server never sent one, so such a client waited for its own
/// timeout (curl 1 s) before every write. It comes at once, after the answers to the requests
/// before it on the connection, and never to an HTTP/1.0 request, which must ignore it.
@Suite struct ExpectContinueTests {
  typealias Sockets = StalledClientTests

  static let lookup =
    "POST /api/accounts/lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    + "Content-Length: 17\r\nExpect: 100-continue\r\n\r\n"
  static let body = #"{"email":"a@b.c"}"#

  /// What was read once `text` was among it, or what was read when `milliseconds` passed
  /// first, marked so.
  static func read(_ fd: Int32, until text: String, within milliseconds: Int) -> String {
    let deadline = ContinuousClock.now + .milliseconds(milliseconds)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while ContinuousClock.now < deadline {
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, 50) > 0 else { continue }
      let count = Glibc.read(fd, &buffer, buffer.count)
      if count <= 0 { break }
      received += buffer[0..<count]
      let answer = String(decoding: received, as: UTF8.self)
      if answer.contains(text) { return answer }
    }
    return "(not in \(milliseconds) ms) " + String(decoding: received, as: UTF8.self)
  }

  /// Runs `work` with a new connection to the server at `url`, on a thread of its own (a wait
  /// on one of Swift's few shared threads keeps the server's routes from running: see
  /// `HTTPFramingTests.answer`).
  static func connected<T: Sendable>(
    _ url: String, _ work: @escaping @Sendable (Int32) -> T
  ) async throws -> T {
    let fd = try Sockets.connect(port: HTTPFramingTests.port(url))
    defer { close(fd) }
    return await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work(fd)) }.start()
    }
  }

  @Test func theBodyIsAskedForAtOnce() async throws {
    try await withLiveServer { url, _ in
      let (asked, answer) = try await Self.connected(url) { fd in
        Sockets.sendText(fd, Self.lookup)
        let asked = Self.read(fd, until: "\r\n\r\n", within: 3_000)
        Sockets.sendText(fd, Self.body)
        return (asked, Self.read(fd, until: "}", within: 5_000))
      }
      #expect(asked == "HTTP/1.1 100 Continue\r\n\r\n", "\(asked)")
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
      #expect(answer.contains(#""registered":false"#), "\(answer)")
    }
  }

  @Test func itComesAfterTheAnswersBeforeIt() async throws {
    try await withLiveServer { url, _ in
      let asked = try await Self.connected(url) { fd in
        Sockets.sendText(
          fd, "GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n" + Self.lookup)
        // A deadline, not a wait: 3 s ran out once in a loaded run of the server's tests.
        return Self.read(fd, until: "100 Continue\r\n\r\n", within: 15_000)
      }
      let first = try #require(asked.range(of: "HTTP/1.1 200"), "\(asked)")
      let next = try #require(asked.range(of: "HTTP/1.1 100 Continue"), "\(asked)")
      #expect(first.upperBound < next.lowerBound)
      #expect(asked.hasSuffix("}HTTP/1.1 100 Continue\r\n\r\n"), "\(asked.suffix(80))")
    }
  }

  /// A refusal the head already decides comes without asking for the body: over the limit
  /// (413), no valid `Host` (400).
  @Test(arguments: [
    ("Content-Length: 2000000000\r\n", "Host: x\r\n", "HTTP/1.1 413"),
    ("Content-Length: 17\r\n", "Host: a b\r\n", "HTTP/1.1 400"),
  ])
  func aRefusalTheHeadDecidesComesWithoutOne(length: String, host: String, status: String)
    async throws
  {
    try await withLiveServer { url, _ in
      let answer = try await Self.connected(url) { fd in
        Sockets.sendText(
          fd,
          "POST /api/accounts/lookup HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
            + length + "Expect: 100-continue\r\n\r\n")
        return Self.read(fd, until: "}", within: 5_000)
      }
      #expect(answer.hasPrefix(status), "\(answer)")
      #expect(!answer.contains("100 Continue"), "\(answer)")
    }
  }

  @Test func anHTTP10RequestGetsNone() async throws {
    try await withLiveServer { url, _ in
      let answer = try await Self.connected(url) { fd in
        Sockets.sendText(
          fd, Self.lookup.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0") + Self.body)
        return Self.read(fd, until: "}", within: 5_000)
      }
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
      #expect(!answer.contains("100 Continue"), "\(answer)")
    }
  }
}
