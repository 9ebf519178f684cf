import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Lets go of a connection the server has not begun to answer.
///
/// The WebSocket-capable HTTP server decides how to treat a connection (plain HTTP or a
/// WebSocket) once a whole, valid first request head has arrived, and until then nothing looks
/// after the connection: no idle timeout, no reaction to a graceful shutdown, no reaction to
/// cancellation (it waits on a future that only the peer can end). A head the HTTP decoder
/// rejects, or an upgrade request with a body, leaves it in that state for good. So a socket that
/// connects and says nothing — a browser's speculative preconnect, a client that died, an
/// attacker holding slots — or says something malformed stayed open for as long as its peer
/// liked, and the server's stop waited for it. That was the preview's occasional stop that never
/// finished (one established connection left, every thread idle).
///
/// This handler sits first in every connection's pipeline until the server writes its first
/// response bytes (a page, a 404, a WebSocket's 101), which is how it knows the server has taken
/// charge; then it removes itself. Until then it closes the connection when `timeout` passes or
/// when the server starts to stop. Every answer the preview gives is immediate, so a connection
/// without one after `timeout` is one the server will never answer.
final class UnansweredConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  private let timeout: TimeAmount
  private var deadline: Scheduled<Void>?
  private var answered = false

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

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    context.write(data, promise: promise)
    guard !answered else { return }
    // The server answers: the connection is its business from here on.
    answered = true
    deadline?.cancel()
    deadline = nil
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent && !answered {
      // The server is stopping and has nothing under way on this connection.
      Self.letGo(context)
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func arm(_ context: ChannelHandlerContext) {
    guard deadline == nil, !answered else { return }
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
      guard let self, !self.answered else { return }
      Self.letGo(bound.value)
    }
  }

  /// Closes the connection as a peer that stopped sending would: the HTTP server then ends
  /// this connection's wait for a request quietly (a plain close makes it log an error).
  private static func letGo(_ context: ChannelHandlerContext) {
    context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    context.close(promise: nil)
  }
}

/// The preview's connections: Hummingbird's HTTP/1 server with WebSocket upgrades, with an
/// ``UnansweredConnectionGuard`` in front of every connection, every connection closed when the
/// server's task is cancelled (the stop's last resort after its grace period; a connection
/// waiting for its first request would otherwise outlive the cancellation), and every
/// connection closed when the server's work on it ends.
struct GuardedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let base: HTTP1WebSocketUpgradeChannel
  let answerTimeout: Duration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let timeout = TimeAmount(answerTimeout)
    return channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(UnansweredConnectionGuard(timeout: timeout), position: .first)
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
    // The server is done with this connection. It closes it itself, except after an upgrade
    // that fails once its 101 is written (a request with a body): left open, nothing would ever
    // read or close it.
    value.channel.close(promise: nil)
  }
}
