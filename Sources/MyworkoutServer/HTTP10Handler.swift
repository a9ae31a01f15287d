import NIOCore
import NIOHTTP1

/// An HTTP/1.0 request that does not ask to keep its connection (`Connection: keep-alive`) is
/// the last on it (RFC 9112 §9.3): it is passed on with `Connection: close`, which Hummingbird
/// honours by closing the connection after the answer. Hummingbird reads requests as HTTPTypes,
/// which carry no version, so without this an HTTP/1.0 connection stayed open for the idle
/// timeout (75 s), and an HTTP/1.0 client reading its answer to the end waited all of it.
final class HTTP10CloseHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data), !head.isKeepAlive,
      !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" })
    else {
      context.fireChannelRead(data)
      return
    }
    head.headers.replaceOrAdd(name: "Connection", value: "close")
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }
}

/// Puts an `HTTP10CloseHandler` right after the request decoder, where requests still carry
/// their version (Hummingbird adds a server's own handlers after its HTTPTypes codec). It
/// passes every request part on as it comes.
final class HTTP10CloseInstaller: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  func handlerAdded(context: ChannelHandlerContext) {
    let operations = context.pipeline.syncOperations
    guard
      let decoder = try? operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
    else { return }
    try? operations.addHandler(HTTP10CloseHandler(), position: .after(decoder))
  }
}
