import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Lets go of a connection the server has not begun to answer, or whose peer stops taking the
/// answers.
///
/// The WebSocket-capable HTTP server decides how to treat a connection (plain HTTP or a
/// WebSocket) once a whole, valid first request head has arrived, and until then nothing looks
/// after the connection: no idle timeout, no reaction to a graceful shutdown, no reaction to
/// cancellation (it waits on a future that only the peer can end). A head the HTTP decoder
/// rejects leaves it in that state for good. So a socket that connects and says nothing — a
/// browser's speculative preconnect, a client that died, an attacker holding slots — or says
/// something malformed stayed open for as long as its peer liked, and the server's stop waited
/// for it. That was the preview's occasional stop that never finished (one established
/// connection left, every thread idle).
///
/// Later, HTTP's idle timeout does not run while a response is being written, and a response
/// waits for as long as the peer does not read it (a client that sends requests and never reads
/// the answers). So the connection's writes are watched too.
///
/// This handler sits first in every connection's pipeline for its whole life. Until the server
/// writes its first response bytes (a page, a 404, a WebSocket's 101) it closes the connection
/// when `timeout` passes or when the server starts to stop (every answer the preview gives is
/// immediate, so a connection without one after `timeout` is one the server will never answer).
/// Afterwards it closes the connection when it has not been able to take more writes for
/// `stallTimeout`.
final class UnansweredConnectionGuard: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  private let timeout: TimeAmount
  private let stallTimeout: TimeAmount
  private var deadline: Scheduled<Void>?
  private var stall: Scheduled<Void>?
  private var answered = false

  init(timeout: TimeAmount, stallTimeout: TimeAmount) {
    self.timeout = timeout
    self.stallTimeout = stallTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { armDeadline(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    armDeadline(context)
    context.fireChannelActive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    stall?.cancel()
    stall = nil
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if !answered {
      // The server answers: taking charge of the connection is its business from here on.
      answered = true
      deadline?.cancel()
      deadline = nil
    }
    context.write(data, promise: promise)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      stall?.cancel()
      stall = nil
    } else if stall == nil {
      stall = schedule(in: stallTimeout, context) { _ in true }
    }
    context.fireChannelWritabilityChanged()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent && !answered {
      // The server is stopping and has not answered this connection (a first request still
      // being worked on is cut off too: the preview's answers are immediate).
      Self.letGo(context)
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func armDeadline(_ context: ChannelHandlerContext) {
    guard deadline == nil, !answered else { return }
    deadline = schedule(in: timeout, context) { !$0.answered }
  }

  /// Lets the connection go after `delay` if `still` says so then.
  private func schedule(
    in delay: TimeAmount, _ context: ChannelHandlerContext, still: @escaping (UnansweredConnectionGuard) -> Bool
  ) -> Scheduled<Void> {
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    return context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [weak self] in
      guard let self, still(self) else { return }
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
/// ``UnansweredConnectionGuard`` first in every connection, every connection closed when the
/// server's task is cancelled (the stop's last resort after its grace period; a connection
/// waiting for its first request would otherwise outlive the cancellation), and every
/// connection closed when the server's work on it ends.
struct GuardedUpgradeChannel: ServerChildChannel {
  typealias Value = HTTP1WebSocketUpgradeChannel.Value

  let base: HTTP1WebSocketUpgradeChannel
  let answerTimeout: Duration
  let stallTimeout: Duration

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    let (timeout, stallTimeout) = (TimeAmount(answerTimeout), TimeAmount(stallTimeout))
    return channel.eventLoop.makeCompletedFuture {
      let guardian = UnansweredConnectionGuard(timeout: timeout, stallTimeout: stallTimeout)
      try channel.pipeline.syncOperations.addHandler(guardian, position: .first)
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
