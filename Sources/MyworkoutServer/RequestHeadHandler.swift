import NIOCore
import NIOHTTP1

/// Reads each request's head as NIO decoded it, where its version and its raw header lines are
/// still there (Hummingbird turns it into HTTPTypes, which carry neither), and says what that
/// means in terms Hummingbird and the routes act on (RFC 9112):
/// - a request after which the connection must end (`Connection` naming `close` in any
///   spelling or list, an HTTP/1.0 request that does not ask for keep-alive, an HTTP/1.0
///   request with `Transfer-Encoding`, whose framing is faulty by §6.1; a CONNECT) is passed on with
///   `Connection: close`, which Hummingbird honours: before, only a bare lower-case `close`
///   ended one, and every other stayed open for the idle timeout (75 s), an HTTP/1.0 client
///   reading its answer to the end waiting all of it;
/// - a request without exactly one valid `Host` (an HTTP/1.0 one may have none, §3.2) is
///   marked with `badHost`, which `JSONErrorMiddleware` answers 400; a client's own field of
///   that name is always taken out;
/// - a target in absolute form (`GET http://host/path`) names the host in its authority, which
///   replaces `Host` (§3.2.2; the video URLs named the `Host` sent beside it), or is a 400 when
///   it is no host;
/// - bytes that are no request (a method with a space, two lengths, a field too long) become a
///   request marked with `unreadable` and the status it gets, which `JSONErrorMiddleware`
///   answers with the API's JSON error and `Connection: close`. Hummingbird's own answer had an
///   empty body; going through the routes as a request keeps it after the answers to the
///   requests sent before it on the connection. (A body that cannot be read ends in the route
///   that reads it, in JSON; one that no route reads, a GET's, still gets Hummingbird's empty
///   400 after the route's answer.);
/// - a request that asks for `100 Continue` before it sends its body (`Expect: 100-continue`,
///   HTTP/1.1; RFC 9110 §10.1.1) gets it as soon as the answers to the requests before it on
///   the connection have gone: Hummingbird sends none, and such a client waited for its own
///   timeout (curl 1 s) before every write. Its answer, begun before, makes it needless.
final class RequestHeadHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  /// Requests read and answers ended on this connection; the request (by its number) that waits
  /// for `100 Continue` until the answers before it have ended; whether an answer has begun.
  private var requests = 0
  private var answered = 0
  private var continueFor: Int?
  private var answering = false

  /// The mark of a request whose `Host` is missing, repeated or not a host.
  static let badHost = "Myworkout-Bad-Host"
  /// The mark of the request that stands for bytes that were none; its value is the status.
  static let unreadable = "Myworkout-Unreadable"

  /// Between a request's head and its end: a parser error there is its body's.
  private var inRequest = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if case .end = part { inRequest = false }
    guard case .head(var head) = part else {
      context.fireChannelRead(data)
      return
    }
    inRequest = true
    requests += 1
    head.headers.remove(name: Self.unreadable)
    let old = head.version.major == 1 && head.version.minor == 0
    // `close` wins over `keep-alive` (NIO's `isKeepAlive` lets an HTTP/1.0 `keep-alive` win).
    let options = head.headers[canonicalForm: "connection"].map { $0.lowercased() }
    // A CONNECT's answer has no length (it would start a tunnel; none is offered): only the
    // connection's end says where it ends.
    if options.contains("close") || !head.isKeepAlive || head.method == .CONNECT
      || (old && head.headers.contains(name: "transfer-encoding"))
    {
      head.headers.replaceOrAdd(name: "Connection", value: "close")
    }
    head.headers.remove(name: Self.badHost)
    let hosts = head.headers[canonicalForm: "host"]
    if hosts.count > 1 || (hosts.isEmpty && !old) || !hosts.allSatisfy({ Self.isHost($0) }) {
      head.headers.add(name: Self.badHost, value: "1")
    } else if let authority = Self.authority(ofAbsolute: head.uri) {
      // A target in absolute form names the host: it stands for `Host` (§3.2.2).
      if Self.isHost(authority) {
        head.headers.replaceOrAdd(name: "Host", value: String(authority))
      } else {
        head.headers.add(name: Self.badHost, value: "1")
      }
    }
    if Self.asksForItsBody(head) {
      continueFor = requests - 1
      sendContinueIfDue(context: context)
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  /// Whether `head` waits for `100 Continue` before its body, and gets it: HTTP/1.1 with
  /// `Expect: 100-continue` and a body, unless its answer is a refusal the head already
  /// decides (a body over the limit, no valid `Host`, a NUL in the target), which then comes
  /// without the body ever being sent (a 2-GB upload was asked for to be refused with 413).
  static func asksForItsBody(_ head: HTTPRequestHead) -> Bool {
    guard head.version == .http1_1,
      head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }),
      !head.headers.contains(name: badHost), !RequestBody.holdsNUL(head.uri.utf8)
    else { return false }
    if head.headers.contains(name: "transfer-encoding") { return true }
    guard let length = head.headers.first(name: "content-length").flatMap({ Int($0) }) else {
      return false
    }
    return length > 0 && length <= ServerLimits.bodyBytes
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head) where head.status.code >= 200:
      answering = true
      // The answer to the request that waits came first: no body is asked for any more.
      if continueFor == answered { continueFor = nil }
    case .end:
      answering = false
      answered += 1
    default: break
    }
    context.write(data, promise: promise)
    if continueFor != nil { sendContinueIfDue(context: context) }
  }

  /// `100 Continue` to the request that waits for it, once every answer before its own has
  /// ended (one in the middle of another answer would break it).
  private func sendContinueIfDue(context: ChannelHandlerContext) {
    guard let waiting = continueFor, waiting == answered, !answering else { return }
    continueFor = nil
    context.writeAndFlush(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))),
      promise: nil)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? HTTPParserError, !inRequest else {
      context.fireErrorCaught(error)
      return
    }
    // The decoder reads nothing more on this connection: this request is its last.
    let status =
      switch error {
      case .headerOverflow: 431  // Request Header Fields Too Large (RFC 6585 §5)
      case .invalidVersion: 505  // HTTP Version Not Supported (RFC 9110 §15.6.6)
      case .invalidMethod: 501  // Not Implemented: a method no route knows (RFC 9110 §9.1)
      default: 400
      }
    let head = HTTPRequestHead(
      version: .http1_1, method: .GET, uri: "/",
      headers: ["Host": "localhost", "Connection": "close", Self.unreadable: String(status)])
    inRequest = true
    context.fireChannelRead(wrapInboundOut(.head(head)))
    context.fireChannelRead(wrapInboundOut(.end(nil)))
  }

  /// The authority of a request target in absolute form (`http://host:port/path`; the scheme
  /// in any case), nil for any other form.
  static func authority(ofAbsolute target: String) -> Substring? {
    guard let colon = target.firstIndex(of: ":") else { return nil }
    let scheme = target[..<colon].lowercased()
    guard scheme == "http" || scheme == "https" else { return nil }
    let rest = target[target.index(after: colon)...]
    guard rest.hasPrefix("//") else { return nil }
    let start = rest.index(rest.startIndex, offsetBy: 2)
    let end = rest[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    return rest[start..<end]
  }

  /// Whether `value` is `host[:port]` (RFC 3986 §3.2.2: a registered name, an IPv4 address or
  /// a bracketed IP literal; no user info, path, query or spaces).
  static func isHost(_ value: Substring) -> Bool {
    let text = value.utf8
    guard !text.isEmpty, text.count <= 255 else { return false }
    var host = Substring(value)
    var port: Substring = ""
    if host.hasPrefix("[") {
      guard let end = host.firstIndex(of: "]") else { return false }
      let literal = host[host.index(after: host.startIndex)..<end]
      guard !literal.isEmpty,
        literal.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
      else { return false }
      let rest = host[host.index(after: end)...]
      guard rest.isEmpty || rest.hasPrefix(":") else { return false }
      port = rest.dropFirst()
    } else {
      if let colon = host.lastIndex(of: ":") {
        port = host[host.index(after: colon)...]
        host = host[..<colon]
      }
      guard !host.isEmpty,
        host.unicodeScalars.allSatisfy({
          $0.isASCII
            && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
              || "-._~%!$&'()*+,;=".unicodeScalars.contains($0))
        })
      else { return false }
    }
    return port.count <= 5 && port.allSatisfy { ("0"..."9").contains($0) }
  }
}

/// Puts a `RequestHeadHandler` right after the request decoder, where requests still carry
/// their version (Hummingbird adds a server's own handlers after its HTTPTypes codec). It
/// passes every request part on as it comes.
final class RequestHeadInstaller: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  func handlerAdded(context: ChannelHandlerContext) {
    let operations = context.pipeline.syncOperations
    guard
      let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
    else { return }
    try? operations.addHandler(RequestHeadHandler(), position: .after(decoder))
  }
}
