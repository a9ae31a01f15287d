import HummingbirdCore
import NIOCore

/// Closes a connection whose client holds it where Hummingbird's idle timeout does not look:
/// while an answer is being written (`HTTPConnectionStateHandler` then does nothing on idle),
/// and while a request's body arrives (every part, however small, counts as activity).
///
/// - An answer the client takes none of: once the channel has stayed unwritable (NIO's buffer
///   for it past its high mark, the kernel's full) for `stalledWrite`, the connection is closed.
///   A client that reads, however slowly, lets the buffers drain and the channel become writable
///   again, which starts the count afresh.
/// - A request's body that takes longer than `requestRead` from its head to its end.
///
/// One per connection, between the HTTP codec and Hummingbird's own handlers; everything passes
/// through unchanged.
final class SlowClientHandler: ChannelInboundHandler, RemovableChannelHandler {
  // Hummingbird's request part (NIOHTTPTypes' `HTTPRequestPart`, a module this package does not
  // name), as its own connection handler reads it.
  typealias InboundIn = HTTPConnectionStateHandler.InboundIn
  typealias InboundOut = HTTPConnectionStateHandler.InboundIn

  private let stalledWrite: TimeAmount
  private let requestRead: TimeAmount
  /// Closes the connection unless it became writable again first.
  private var stalledWriteTask: Scheduled<Void>?
  /// Closes the connection unless the request's end came first.
  private var requestReadTask: Scheduled<Void>?

  init(stalledWrite: TimeAmount, requestRead: TimeAmount) {
    self.stalledWrite = stalledWrite
    self.requestRead = requestRead
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive, !context.channel.isWritable { startStalledWrite(context) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelAll()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelAll()
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      requestReadTask?.cancel()
      requestReadTask = context.eventLoop.assumeIsolated().scheduleTask(in: requestRead) {
        self.requestReadTask = nil
        context.close(promise: nil)
      }
    case .body:
      break
    case .end:
      requestReadTask?.cancel()
      requestReadTask = nil
    }
    context.fireChannelRead(data)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      stalledWriteTask?.cancel()
      stalledWriteTask = nil
    } else {
      startStalledWrite(context)
    }
    context.fireChannelWritabilityChanged()
  }

  private func startStalledWrite(_ context: ChannelHandlerContext) {
    guard stalledWriteTask == nil else { return }
    stalledWriteTask = context.eventLoop.assumeIsolated().scheduleTask(in: stalledWrite) {
      self.stalledWriteTask = nil
      context.close(promise: nil)
    }
  }

  private func cancelAll() {
    stalledWriteTask?.cancel()
    stalledWriteTask = nil
    requestReadTask?.cancel()
    requestReadTask = nil
  }
}

@available(*, unavailable)
extension SlowClientHandler: Sendable {}
