import Foundation
import MyworkoutCore
import MyworkoutRemote
import MyworkoutServer
import MyworkoutServices
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Remote mode's errors: statuses and failures of the exchange become the typed `ServiceError`s
/// whose messages SPEC §15 gives.
@Suite struct RemoteErrorTests {
  @Test func tooManyAttemptsIsRateLimited() async throws {
    try await withLiveServer({ $0.loginLimit = 2 }) { url, _ in
      let accounts = RemoteAccountService(
        server: RemoteServer(baseURL: url), credentials: RemoteCredentials())
      for _ in 0..<2 {
        await #expect(throws: ServiceError.wrongCredentials) {
          try await accounts.logIn(email: "registered@email.com", password: "nope")
        }
      }
      await #expect(throws: ServiceError.rateLimited) {
        try await accounts.logIn(email: "registered@email.com", password: "password")
      }
      #expect(ServiceError.rateLimited.message == "Too many attempts. Try again in a minute.")
    }
  }

  @Test func aChaosServerErrorIsServerAndA401IsWrongCredentials() async throws {
    // The seed's sequence, from the same generator the server uses.
    let chaos = Chaos(seed: 3)
    let outcomes = (0..<6).map { _ in chaos.next() }
    try await withLiveServer({ $0.chaosSeed = 3 }) { url, _ in
      let accounts = RemoteAccountService(
        server: RemoteServer(baseURL: url), credentials: RemoteCredentials())
      for outcome in outcomes {
        let result: Result<Session, any Error>
        do {
          result = .success(
            try await accounts.logIn(email: "registered@email.com", password: "password"))
        } catch {
          result = .failure(error)
        }
        switch outcome {
        case .truthful: #expect((try? result.get())?.profile == SeedAccount.profile)
        case .serverError:
          #expect(throws: ServiceError.server(status: 500)) { try result.get() }
        case .unauthorized:
          #expect(throws: ServiceError.wrongCredentials) { try result.get() }
        }
      }
      #expect(ServiceError.server(status: 500).message == "The server had a problem. Try again.")
    }
  }

  @Test func noServerIsNetwork() async throws {
    let port = try closedPort()
    let accounts = RemoteAccountService(
      server: RemoteServer(baseURL: "http://127.0.0.1:\(port)"), credentials: RemoteCredentials())
    await #expect(throws: ServiceError.network) {
      try await accounts.isRegistered(email: "registered@email.com")
    }
    #expect(ServiceError.network.message == "Can't reach the server. Try again.")
  }

  @Test func noAnswerInTimeIsTimedOut() async throws {
    // A socket that accepts connections (the kernel's backlog) and never answers.
    let socket = try listeningSocket()
    defer { close(socket.descriptor) }
    let accounts = RemoteAccountService(
      server: RemoteServer(baseURL: "http://127.0.0.1:\(socket.port)", timeout: .milliseconds(300)),
      credentials: RemoteCredentials())
    await #expect(throws: ServiceError.timedOut) {
      try await accounts.isRegistered(email: "registered@email.com")
    }
    #expect(ServiceError.timedOut.message == "The server did not answer. Try again.")
  }

  /// An answer past the size a call takes (a catalog page is 1 MiB at most) is the server's
  /// fault, not a network's: a walk-through's 50 MB answer said `Can't reach the server`.
  @Test func anAnswerTooBigIsTheServersProblem() async throws {
    let listener = try listeningSocket()
    defer { close(listener.descriptor) }
    // One connection: a 2 MiB body, written until the client hangs up.
    let serving = Thread {
      let connection = accept(listener.descriptor, nil, nil)
      guard connection >= 0 else { return }
      // The request read first, and the client's hang-up awaited before closing: a socket
      // closed with unread bytes sends a reset, which can reach the client before the answer
      // (a loaded CI run saw `.network`).
      var request = [UInt8](repeating: 0, count: 4096)
      var read: [UInt8] = []
      while !read.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
        let count = recv(connection, &request, request.count, 0)
        if count <= 0 { break }
        read += request[0..<count]
      }
      defer {
        shutdown(connection, Int32(SHUT_WR))
        while recv(connection, &request, request.count, 0) > 0 {}
        close(connection)
      }
      let size = 2 << 20
      let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8)
      _ = head.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      let chunk = [UInt8](repeating: 0x20, count: 64 << 10)
      var sent = 0
      while sent < size {
        let wrote = chunk.withUnsafeBytes {
          send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if wrote <= 0 { return }
        sent += wrote
      }
    }
    serving.start()
    let server = RemoteServer(baseURL: "http://127.0.0.1:\(listener.port)")
    await #expect(throws: ServiceError.server(status: 200)) {
      try await server.send(.GET, "/api/classes")
    }
    #expect(ServiceError.server(status: 200).message == "The server had a problem. Try again.")
  }

  @Test func plainHTTPIsOnlyForLoopbackUnlessAskedFor() throws {
    #expect(
      try ServerAddress.check("http://127.0.0.1:8080/", insecureHTTP: false)
        == "http://127.0.0.1:8080")
    #expect(
      try ServerAddress.check("http://localhost:9", insecureHTTP: false) == "http://localhost:9")
    #expect(try ServerAddress.check("http://[::1]:9", insecureHTTP: false) == "http://[::1]:9")
    #expect(
      try ServerAddress.check("https://api.example.com", insecureHTTP: false)
        == "https://api.example.com")
    #expect(throws: ServerAddressError.self) {
      try ServerAddress.check("http://api.example.com", insecureHTTP: false)
    }
    #expect(
      try ServerAddress.check("http://10.0.0.2:80", insecureHTTP: true) == "http://10.0.0.2:80")
    #expect(throws: ServerAddressError.self) {
      try ServerAddress.check("ftp://x", insecureHTTP: true)
    }
    #expect(throws: ServerAddressError.self) {
      try ServerAddress.check("http://127.0.0.1:8080/api", insecureHTTP: false)
    }
  }
}

/// A loopback socket that listens but never accepts, and its port.
func listeningSocket() throws -> (descriptor: Int32, port: Int) {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
  }
  guard bound == 0, listen(descriptor, 16) == 0 else { throw FileError(message: "cannot listen") }
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
  }
  return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A loopback port nothing listens on (bound, then closed).
func closedPort() throws -> Int {
  let socket = try listeningSocket()
  close(socket.descriptor)
  return socket.port
}
