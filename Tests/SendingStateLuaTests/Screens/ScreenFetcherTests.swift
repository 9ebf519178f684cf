import Foundation
import Testing

@testable import SendingStateLua

@Suite("Fake fetches: canned answers by URL, held to the same limits as the network")
@MainActor
struct ScreenFetcherTests {
  func open(_ answers: [String: FakeFetcher.Response], limits: LuaRuntime.Limits = .init(), clock: VirtualClock? = nil) throws -> LuaScreen {
    var options = LuaScreen.Options(limits: limits)
    options.fetcher = FakeFetcher(answers)
    if let clock { options.clock = clock }
    return try LuaScreen(path: screenFixture("effects.lua"), options: options)
  }

  @Test("a fake answer comes back as the ok action with its body's json; a failure or an unknown URL goes to fail")
  func answers() async throws {
    let url = "https://api.example.com/hello"
    let screen = try open([url: .init(status: 200, body: #"{"greeting": "hi"}"#), "https://down.example.com/": .init(error: "timed out")])
    try screen.perform(action: ["type": "load", "url": .string(url)])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["greeting"] == "hi")
    try screen.perform(action: ["type": "load", "url": "https://down.example.com/"])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"] == "timed out")
    try screen.perform(action: ["type": "load", "url": "https://nowhere.example.com/"])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"] == "no fake answer for https://nowhere.example.com/ (answers for: https://api.example.com/hello, https://down.example.com/)")
  }

  @Test("a fake answer larger than maxFetchBytes fails as a real one would")
  func limit() async throws {
    var limits = LuaRuntime.Limits()
    limits.maxFetchBytes = 10
    let url = "https://api.example.com/big"
    let screen = try open([url: .init(body: String(repeating: "x", count: 11))], limits: limits)
    try screen.perform(action: ["type": "load", "url": .string(url)])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["failed"].stringValue == "the answer from \(url) is larger than 10 bytes (maxFetchBytes)")
  }

  @Test("a fake answer with a delay arrives that long after the request, on the screen's virtual clock")
  func delayedOnAVirtualClock() async throws {
    let url = "https://api.example.com/slow"
    let fake = FakeFetcher([url: .init(body: #"{"greeting": "late"}"#, delay: 3)])
    #expect(fake.answerDelay(for: FetchRequest(url: URL(string: url)!)) == 3)
    #expect(fake.answerDelay(for: FetchRequest(url: URL(string: "https://other.example.com/")!)) == 0)
    #expect(NetworkFetcher().answerDelay(for: FetchRequest(url: URL(string: url)!)) == 0)
    let clock = VirtualClock(now: 100)
    let screen = try open([url: .init(body: #"{"greeting": "late"}"#, delay: 3)], clock: clock)
    try screen.perform(action: ["type": "load", "url": .string(url)])
    try await screen.advance(by: 2.5)
    #expect(screen.state["greeting"] == "")
    #expect(screen.pendingEffects == 1)
    try await screen.advance(by: 0.5)
    #expect(screen.state["greeting"] == "late")
    #expect(screen.pendingEffects == 0)
    #expect(clock.now == 103)
    #expect(clock.sleeping == 0)
  }

  @Test("a delayed answer cancelled on the way leaves no timer behind on the virtual clock")
  func cancelledOnTheWay() async throws {
    let url = "https://api.example.com/slow"
    let clock = VirtualClock()
    let screen = try open([url: .init(body: "{}", delay: 3)], clock: clock)
    try screen.perform(action: ["type": "load", "url": .string(url)])
    #expect(clock.sleeping == 1)
    screen.cancelEffects()
    #expect(clock.sleeping == 0)
    try await screen.advance(by: 5)
    #expect(screen.state["greeting"] == "")
  }

  @Test("a debounced fetch with a delay: sent when the debounce ends, answered the delay later; an advance waits for each step, never spinning to its bound")
  func debouncedAndDelayed() async throws {
    let url = "https://api.example.com/slow"
    let fake = FakeFetcher([url: .init(body: #"{"greeting": "found"}"#, delay: 1)])
    let clock = VirtualClock()
    var options = LuaScreen.Options()
    options.fetcher = fake
    options.clock = clock
    let screen = try LuaScreen(path: screenFixture("effects.lua"), options: options)
    try screen.perform(action: ["type": "search", "url": .string(url)])
    try await screen.advance(by: 0.4)
    try screen.perform(action: ["type": "search", "url": .string(url)])  // debounced again: from 0.4
    try await screen.advance(by: 0.5)
    #expect(fake.sent.all.count == 1)
    #expect(screen.state["greeting"] == "")
    try await screen.advance(by: 0.9)
    #expect(screen.state["greeting"] == "")
    try await screen.advance(by: 0.1)
    #expect(screen.state["greeting"] == "found")
    // One advance across both timers of a second search.
    try screen.perform(action: ["type": "search", "url": .string(url)])
    try await screen.advance(by: 10)
    #expect(fake.sent.all.count == 2)
    #expect(screen.pendingEffects == 0)
    #expect(screen.engine.advanceYields < 10_000, "\(screen.engine.advanceYields) yields")
  }

  /// Opens the effects fixture with a fake that answers `url` after `delay` seconds.
  func delayed(_ url: String, delay: Double, clock: VirtualClock) throws -> (LuaScreen, FakeFetcher) {
    let fake = FakeFetcher([url: .init(body: #"{"greeting": "found"}"#, delay: delay)])
    var options = LuaScreen.Options()
    options.fetcher = fake
    options.clock = clock
    return (try LuaScreen(path: screenFixture("effects.lua"), options: options), fake)
  }

  @Test("an effect already waiting for its debounce when the clock moves: the advance still waits for its step only (no spin)")
  func alreadyWaiting() async throws {
    let url = "https://api.example.com/slow"
    let (screen, fake) = try delayed(url, delay: 1, clock: VirtualClock())
    for round in 1...5 {
      try screen.perform(action: ["type": "search", "url": .string(url)])
      // Let the effect's task run up to its debounce timer before the clock moves.
      for _ in 0..<200 { await Task.yield() }
      try await screen.advance(by: 0.5)
      #expect(fake.sent.all.count == round)
      try await screen.advance(by: 1)
      #expect(screen.pendingEffects == 0)
    }
    #expect(screen.engine.advanceYields < 10_000, "\(screen.engine.advanceYields) yields")
  }

  @Test("a delayed answer handed on by a reload reaches the new screen; its step counts there (no spin)")
  func handedOnByAReload() async throws {
    let url = "https://api.example.com/slow"
    let (screen, fake) = try delayed(url, delay: 1, clock: VirtualClock())
    try screen.perform(action: ["type": "search", "url": .string(url)])
    let fresh = try screen.reloaded()
    defer { fresh.close() }
    try await fresh.advance(by: 0.5)
    #expect(fake.sent.all.count == 1)
    try await fresh.advance(by: 1)
    #expect(fresh.state["greeting"] == "found")
    #expect(fresh.engine.advanceYields < 10_000, "\(fresh.engine.advanceYields) yields")
  }

  @Test("closing a screen removes its effects' timers from a clock other screens share")
  func closeLeavesNoTimers() async throws {
    let url = "https://api.example.com/slow"
    let clock = VirtualClock()
    let (screen, _) = try delayed(url, delay: 1, clock: clock)
    try screen.perform(action: ["type": "search", "url": .string(url)])
    #expect(clock.sleeping == 2)  // the debounce and the answer
    screen.close()
    #expect(clock.sleeping == 0)
  }

  @Test("a fetcher's answer delay that is NaN or negative is no delay (not the longest)")
  func oddDelays() async throws {
    for delay in [Double.nan, -5] {
      let url = "https://api.example.com/odd"
      let clock = VirtualClock()
      let (screen, _) = try delayed(url, delay: delay, clock: clock)
      defer { screen.close() }
      try screen.perform(action: ["type": "load", "url": .string(url)])
      #expect(clock.sleeping == 0, "\(delay)")
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["greeting"] == "found")
    }
  }
}
