import Foundation
import Testing

@testable import SendingStateLua

/// Effects with ids on a screen's virtual clock: what the clock holds after cancellations, and
/// throttle windows across a reload. (The behaviours themselves are in spec/effect_options_spec.lua.)
@Suite("Lua effects with ids: cancelled timers leave the clock; windows survive a reload")
@MainActor
struct EffectIDTests {
  func open(_ clock: VirtualClock) throws -> LuaScreen {
    var options = LuaScreen.Options()
    options.clock = clock
    return try LuaScreen(path: screenFixture("effect_ids.lua"), options: options)
  }

  @Test("debounced timers replaced before they ran are gone from the clock (an advance does not wait for them)")
  func cancelledTimersLeaveTheClock() async throws {
    let clock = VirtualClock(now: 0)
    let screen = try open(clock)
    for name in ["a", "b", "c", "d", "e"] {
      try screen.perform(action: ["type": "ping", "name": .string(name), "mode": "debounce"])
    }
    #expect(clock.sleeping == 1)
    #expect(screen.pendingEffects == 1)
    try await screen.advance(by: 1.4)
    #expect(screen.state["log"] == [])
    try await screen.advance(by: 0.1)  // 0.5 s debounce + 1 s timer, from the last ping
    #expect(screen.state["log"] == ["e"])
    try screen.perform(action: ["type": "ping", "name": "f", "mode": "debounce"])
    try screen.perform(action: "stop")
    #expect(clock.sleeping == 0 && screen.pendingEffects == 0)
    screen.close()
  }

  @Test("a throttled effect waiting for its window's end is delivered by the reloaded screen")
  func throttleAcrossReload() async throws {
    let clock = VirtualClock(now: 0)
    let screen = try open(clock)
    try screen.perform(action: ["type": "ping", "name": "a", "mode": "throttle"])
    try await screen.advance(by: 0)
    try screen.perform(action: ["type": "ping", "name": "b", "mode": "throttle"])
    let fresh = try screen.reloaded()
    try await fresh.advance(by: 1.9)
    #expect(fresh.state["log"] == ["a"])
    try await fresh.advance(by: 0.1)  // the window's end, at 2 s
    #expect(fresh.state["log"] == ["a", "b"])
    fresh.close()
  }

  @Test("skip_in_flight's cancelEffects stops everything and keeps the screen open")
  func cancelEffects() async throws {
    let clock = VirtualClock(now: 0)
    let screen = try open(clock)
    try screen.perform(action: ["type": "ping", "name": "a"])
    try screen.perform(action: ["type": "ping", "name": "b", "mode": "throttle"])
    try screen.perform(action: ["type": "ping", "name": "c", "mode": "throttle"])
    screen.cancelEffects()
    #expect(screen.pendingEffects == 0 && clock.sleeping == 0)
    try await screen.advance(by: 5)
    #expect(screen.state["log"] == [])
    try screen.perform(action: ["type": "ping", "name": "d", "mode": "throttle"])  // a new window opens at once
    try await screen.advance(by: 0)
    #expect(screen.state["log"] == ["d"])
    screen.close()
  }
}
