import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A client that connects and then sends nothing more (a bare connection, half a request's
/// head, half its body, an idle keep-alive connection) is closed once it has been silent for
/// the idle timeout: before, each held its descriptor (and the body collected so far) for as
/// long as it liked, so enough of them locked every other client out.
@Suite struct StalledClientTests {
  enum Stall: String, CaseIterable {
    case nothing, halfAHead, halfABody, idleAfterAnAnswer
  }

  @Test(.serialized, arguments: Stall.allCases)
  func aSilentConnectionIsClosedAfterTheIdleTimeout(stall: Stall) async throws {
    try await withLiveServer({ $0.idleTimeout = .milliseconds(500) }) { url, _ in
      let port = UInt16(url.split(separator: ":").last.flatMap { Int($0) } ?? 0)
      let socket = try Self.connect(port: port)
      defer { close(socket) }
      let sent: String
      switch stall {
      case .nothing: sent = ""
      case .halfAHead: sent = "GET /api/classes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow"
      case .halfABody:
        sent =
          "POST /authenticate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000\r\n\r\n{\"email\":"
      case .idleAfterAnAnswer: sent = "GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n"
      }
      _ = Array(sent.utf8).withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
      // Everything the server sends until it closes: an answer, then the end (read gives 0).
      #expect(Self.readsUntilClosed(socket, within: 20_000), "\(stall) still open after 20 s")
    }
  }

  /// A socket connected to `port` on 127.0.0.1; with `receiveBuffer`, its receive buffer that
  /// small (set before connecting, so the window the server sees is small too).
  static func connect(port: UInt16, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      try #require(
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(connected == 0)
    return fd
  }

  /// An HTTP/1.0 request without `Connection: keep-alive` is the last of its connection (RFC
  /// 9112 §9.3): the server closes it after the answer. Before, it stayed open for the idle
  /// timeout (75 s), and an HTTP/1.0 client that reads an answer to its end waited all of it.
  /// One that asks to keep the connection alive gets a second answer on it.
  @Test func anHTTP10RequestEndsItsConnectionUnlessItAsksToKeepIt() async throws {
    try await withLiveServer({ $0.idleTimeout = .seconds(60) }) { url, _ in
      let port = UInt16(url.split(separator: ":").last.flatMap { Int($0) } ?? 0)
      let plain = try Self.connect(port: port)
      defer { close(plain) }
      Self.sendText(plain, "GET /.well-known/jwks.json HTTP/1.0\r\nHost: x\r\n\r\n")
      #expect(Self.readsUntilClosed(plain, within: 10_000), "still open after 10 s")
      let kept = try Self.connect(port: port)
      defer { close(kept) }
      let request = "GET /.well-known/jwks.json HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
      Self.sendText(kept, request + request)
      #expect(!Self.readsUntilClosed(kept, within: 1_000), "kept open as asked")
    }
  }

  static func sendText(_ fd: Int32, _ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
  }

  /// Reads until the peer closes (true) or `milliseconds` pass (false).
  static func readsUntilClosed(_ fd: Int32, within milliseconds: Int) -> Bool {
    readUntilClosed(fd, within: milliseconds) != nil
  }

  /// Everything read until the peer closed, or nil when `milliseconds` passed first.
  static func readUntilClosed(_ fd: Int32, within milliseconds: Int) -> [UInt8]? {
    var clock = timespec()
    clock_gettime(CLOCK_MONOTONIC, &clock)
    let deadline = Int(clock.tv_sec) * 1000 + Int(clock.tv_nsec) / 1_000_000 + milliseconds
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      clock_gettime(CLOCK_MONOTONIC, &clock)
      let left = deadline - (Int(clock.tv_sec) * 1000 + Int(clock.tv_nsec) / 1_000_000)
      if left <= 0 { return nil }
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&entry, 1, Int32(left)) > 0 else { continue }
      let count = read(fd, &buffer, buffer.count)
      if count <= 0 { return received }
      received += buffer[0..<count]
    }
  }
}
