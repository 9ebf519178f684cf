import NIOCore
import NIOEmbedded
import Testing

@testable import SendingStatePreview

/// The guard's timing on NIO's embedded event loop, whose clock moves only when the test says:
/// no test here depends on the machine's speed.
@Suite("Preview server: the unanswered-connection guard on a virtual clock")
struct UnansweredConnectionGuardClockTests {
  /// An active channel with only the guard in its pipeline, on `loop`.
  private func guarded(_ loop: EmbeddedEventLoop, timeout: Int64 = 3, stall: Int64 = 1) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel(
      handler: UnansweredConnectionGuard(timeout: .seconds(timeout), stallTimeout: .seconds(stall)), loop: loop)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    #expect(channel.isActive)
    return channel
  }

  @Test("a connection nobody answers is closed when the timeout passes, not before")
  func unansweredClosesAtTheDeadline() throws {
    let loop = EmbeddedEventLoop()
    let channel = try guarded(loop)
    loop.advanceTime(by: .milliseconds(2999))
    #expect(channel.isActive)
    loop.advanceTime(by: .milliseconds(1))
    #expect(!channel.isActive)
  }

  @Test("a connection the server answered before the deadline stays open after it")
  func answeredStaysOpen() throws {
    let loop = EmbeddedEventLoop()
    let channel = try guarded(loop)
    loop.advanceTime(by: .seconds(2))
    try channel.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "HTTP/1.1 200 OK\r\n")))
    loop.advanceTime(by: .seconds(3600))
    #expect(channel.isActive)
    _ = try channel.finish()
  }

  @Test("a connection whose writes stall past the stall timeout is let go; one that drains is not")
  func stalledWritesAreLetGo() throws {
    let loop = EmbeddedEventLoop()
    let drains = try guarded(loop)
    try drains.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "answer")))
    drains.isWritable = false
    drains.pipeline.fireChannelWritabilityChanged()
    loop.advanceTime(by: .milliseconds(900))
    drains.isWritable = true
    drains.pipeline.fireChannelWritabilityChanged()
    loop.advanceTime(by: .seconds(10))
    #expect(drains.isActive)

    let stalls = try guarded(loop)
    try stalls.writeOutbound(IOData.byteBuffer(ByteBuffer(string: "answer")))
    stalls.isWritable = false
    stalls.pipeline.fireChannelWritabilityChanged()
    loop.advanceTime(by: .milliseconds(999))
    #expect(stalls.isActive)
    loop.advanceTime(by: .milliseconds(1))
    #expect(!stalls.isActive)
    _ = try drains.finish()
  }
}
