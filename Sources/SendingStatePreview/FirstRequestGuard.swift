import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Lets go of a connection that has not finished asking for anything.
///
/// The WebSocket-capable HTTP server decides how to treat a connection (plain HTTP or a
/// WebSocket) when the first request's head has arrived, and until then nothing looks after the
/// connection: no idle timeout, no reaction to a graceful shutdown, no reaction to cancellation
/// (it waits on a future that only the peer can end). So a socket that connects and says
/// nothing — a browser's speculative preconnect, a client that died, an attacker holding slots —
/// stayed open for as long as its peer liked, and the server's stop waited for it. That was the
/// preview's occasional stop that never finished (one established connection left, every
/// thread idle).
///
/// This handler sits first in every connection's pipeline until the first head is complete (an
/// empty line after a request line, as HTTP/1 ends a head), and closes the connection if that
/// takes longer than `timeout`, or if the server starts to stop before it. Then it removes
/// itself: what follows is the HTTP server's or the WebSocket's business.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  private let timeout: TimeAmount
  private var deadline: Scheduled<Void>?
  /// Whether a line with content ended (a head's request line), and whether the current line
  /// has content so far (carriage returns do not count).
  private var sawLine = false
  private var lineHasContent = false
  private var done = false

  init(timeout: TimeAmount) {
    self.timeout = timeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { arm(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    arm(context)
    context.fireChannelActive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if !done && headEnds(in: Self.unwrapInboundIn(data)) {
      done = true
      deadline?.cancel()
      deadline = nil
      context.fireChannelRead(data)
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
      return
    }
    context.fireChannelRead(data)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent && !done {
      // The server is stopping and this connection never asked for anything: nothing to finish.
      Self.letGo(context)
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func arm(_ context: ChannelHandlerContext) {
    guard deadline == nil, !done else { return }
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
      guard let self, !self.done else { return }
      Self.letGo(bound.value)
    }
  }

  /// Closes the connection as a peer that stopped sending would: the HTTP server then ends
  /// this connection's wait for a request quietly (a plain close makes it log an error).
  private static func letGo(_ context: ChannelHandlerContext) {
    context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    context.close(promise: nil)
  }

  /// Feeds the bytes to a small line scanner; true when they complete the head.
  private func headEnds(in buffer: ByteBuffer) -> Bool {
    buffer.withUnsafeReadableBytes { bytes in
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "\n"):
          if lineHasContent {
            sawLine = true
          } else if sawLine {
            return true
          }
          lineHasContent = false
        case UInt8(ascii: "\r"):
          break
        default:
          lineHasContent = true
        }
      }
      return false
    }
  }
}

/// The preview's connections: Hummingbird's HTTP/1 server with WebSocket upgrades, with a
/// ``FirstRequestGuard`` in front of every connection, and every connection closed when the
/// server's task is cancelled (the stop's last resort after its grace period; a connection
/// waiting for its first request would otherwise outlive the cancellation).
struct GuardedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let base: HTTP1WebSocketUpgradeChannel
  let firstRequestTimeout: Duration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let timeout = TimeAmount(firstRequestTimeout)
    return channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(FirstRequestGuard(timeout: timeout), position: .first)
    }.flatMap { [base] in
      base.setup(channel: channel, logger: logger)
    }
  }

  func handle(value: Value, logger: Logger) async {
    await withTaskCancellationHandler {
      await base.handle(value: value, logger: logger)
    } onCancel: {
      // As the guard does (a plain close of a connection still waiting for its first request
      // makes the server log an error).
      value.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
      value.channel.close(promise: nil)
    }
  }
}
