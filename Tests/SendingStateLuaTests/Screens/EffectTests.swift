import Foundation
import SendingState
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

@Suite("Screens: async effects")
@MainActor
struct EffectTests {
  @Test("store:after refuses non-finite, negative and over-long delays, naming the line")
  func afterDelays() throws {
    let screen = try LuaScreen(path: screenFixture("effects.lua"))
    for bad in ["1e300", "-1", "0/0", "math.huge", "3601"] {
      let error = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "wait", "seconds": .string(bad)]) }
      #expect(error?.kind == .typeMismatch)
      #expect(error?.line == 25)
      #expect(error?.message.hasPrefix("bad argument #1 to 'after' (seconds must be a finite number from 0 to 3600") == true)
    }
    #expect(screen.pendingEffects == 0)
  }

  @Test("at most maxPendingEffects effects run at once: one more fails at its line and starts nothing")
  func pendingEffectsLimit() throws {
    var limits = LuaRuntime.Limits()
    limits.maxPendingEffects = 5
    let screen = try LuaScreen(path: screenFixture("effects.lua"), options: .init(limits: limits))
    let tooMany = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "many", "count": 6]) }
    #expect(tooMany?.line == 27)
    #expect(tooMany?.kind == .tooLarge)
    #expect(tooMany?.message.contains("more than 5 effects running at once") == true)
    #expect(screen.pendingEffects == 0)  // the event failed whole: none of the five started
    try screen.perform(action: ["type": "many", "count": 3])
    #expect(screen.pendingEffects == 3)
    #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "many", "count": 3]) }
    try screen.perform(action: ["type": "many", "count": 2])
    #expect(screen.pendingEffects == 5)
    screen.close()
    #expect(screen.pendingEffects == 0)
  }

  @Test("closing a screen cancels its effects; results never touch it")
  func cancelledOnClose() async throws {
    // On a virtual clock, so a timer that outlived the close would fire at the advance below
    // whatever the machine's speed (a wall-clock wait passed on a loaded machine either way).
    let clock = VirtualClock(now: 0)
    var options = LuaScreen.Options()
    options.clock = clock
    let screen = try LuaScreen(path: screenFixture("effects.lua"), options: options)
    try screen.perform(action: "slow")
    #expect(clock.nextDeadline == 0.2)
    screen.close()
    #expect(screen.pendingEffects == 0)
    #expect(clock.nextDeadline == nil)  // the timer is gone from the clock, not only ignored
    #expect(clock.advance(to: 10) == 0)
    for _ in 0..<10 { await Task.yield() }
    #expect(screen.state["ticks"] == 0)
    #expect(screen.actionLog == [["type": "slow"]])
  }

}

extension EffectTests {
  /// On the wall clock: real timers, fetches from a loopback server, real async tasks. Run apart
  /// from the parallel suite (scripts/test.sh skips them, then runs them apart): its
  /// CPU-bound tests can hold every thread of the cooperative pool for a minute on a loaded
  /// 2-core machine, and these wait for work that needs one.
  @Suite("Screens: async effects on the wall clock")
  @MainActor
  struct RealTime {
    @Test("an error while handling an effect's result is reported with file:line")
    func asyncErrors() async throws {
      let screen = try LuaScreen(path: screenFixture("effects.lua"))
      var reported: [ScriptError] = []
      screen.onAsyncError = { reported.append($0) }
      try screen.perform(action: "bad")
      #expect(await screen.settle(timeout: .seconds(60)))
      let error = try #require(screen.asyncErrors.first)
      #expect(error.line == 23 && error.message == "result handler failed")
      #expect(error.context == "handle (action 'explode')")
      #expect(reported == [error])
      #expect(screen.state["ticks"] == 0)
    }

    @Test("a timer's actions come back on the main actor and go through handle")
    func timers() async throws {
      let screen = try LuaScreen(path: screenFixture("effects.lua"))
      try screen.perform(action: "start")
      #expect(screen.state["ticks"] == 0)
      #expect(screen.pendingEffects == 2)
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["ticks"] == 2)
      #expect(screen.actionLog == [["type": "start"], ["type": "tick"], ["type": "tick"]])
    }

    @Test("an HTTP GET effect delivers status, body and decoded JSON; failures become the fail action")
    func fetch() async throws {
      let server = try LoopbackHTTPServer(routes: ["/hello": #"{"greeting":"hi"}"#], maxRequests: 3)
      let screen = try LuaScreen(path: screenFixture("effects.lua"))
      try screen.perform(action: ["type": "load", "url": .string(server.url("/hello"))])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["greeting"] == "hi")
      #expect(screen.actionLog.last?["status"] == 200)
      // Not 2xx: the fail action, with the status and body too.
      try screen.perform(action: ["type": "load", "url": .string(server.url("/missing"))])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["failed"] == "the server answered HTTP 404")
      #expect(screen.actionLog.last?["type"] == "failed")
      #expect(screen.actionLog.last?["status"] == 404)
      try screen.perform(action: ["type": "load", "url": "http://127.0.0.1:1/closed"])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["failed"] == "could not connect to 127.0.0.1:1 (nothing is listening there)")
    }

    @Test("a fetch of an endless body is aborted at the size limit and fails with the reason")
    func fetchTooLarge() async throws {
      let server = try LoopbackHTTPServer(routes: [:], endless: ["/forever"], maxRequests: 1)
      var limits = LuaRuntime.Limits()
      limits.maxFetchBytes = 1 << 20
      let screen = try LuaScreen(path: screenFixture("effects.lua"), options: .init(limits: limits))
      try screen.perform(action: ["type": "load", "url": .string(server.url("/forever"))])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["failed"] == "the response is larger than 1048576 bytes (the limit is maxFetchBytes)")
      #expect(screen.state["greeting"] == "")
    }

    @Test("a fetch that drips a byte at a time fails at fetchTimeout, naming the limit")
    func fetchTooSlow() async throws {
      let server = try LoopbackHTTPServer(routes: [:], dripping: ["/slowly"], maxRequests: 1)
      var limits = LuaRuntime.Limits()
      limits.fetchTimeout = .milliseconds(500)
      let screen = try LuaScreen(path: screenFixture("effects.lua"), options: .init(limits: limits))
      try screen.perform(action: ["type": "load", "url": .string(server.url("/slowly"))])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["failed"] == "the request did not complete within 0.5 s (the limit is fetchTimeout)")
      #expect(screen.state["greeting"] == "")
    }
  }
}
