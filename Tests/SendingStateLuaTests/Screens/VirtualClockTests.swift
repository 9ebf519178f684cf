import Foundation
import SendingStateHeadless
import Testing

@testable import SendingStateLua

@Suite("A virtual clock: timers fire when it is advanced past them, in time order")
@MainActor
struct VirtualClockTests {
  @Test("timers fire in deadline order only when the clock passes them; a timer set before anyone waits still fires")
  func clockAlone() async throws {
    let clock = VirtualClock(now: 100)
    let late = clock.schedule(after: 5)
    let early = clock.schedule(after: 1)
    #expect(clock.nextDeadline == 101 && clock.sleeping == 2)
    #expect(clock.advance(to: 100.5) == 0)
    #expect(clock.advance(to: 101) == 1)
    try await clock.wait(for: early)  // fired before the wait: returns at once
    async let waited: Void = clock.wait(for: late)
    await Task.yield()
    #expect(clock.advance(to: 200) == 1)
    try await waited
    #expect(clock.now == 200 && clock.sleeping == 0)
    #expect(clock.advance(to: 50) == 0 && clock.now == 200)  // never back
  }

  @Test("a timer that re-arms itself at once cannot hang an advance: a tiny delay still lies ahead, and firings are capped")
  func runaway() async throws {
    let clock = VirtualClock(now: 1_700_000_000)
    var options = LuaScreen.Options()
    options.clock = clock
    let screen = try LuaScreen(path: screenFixture("delayed.lua"), options: options)
    try screen.perform(action: "rearm")  // 1e-9 s is lost in 1.7e9: the deadline is the next representable time
    try await screen.advance(by: 0)
    #expect(screen.pendingEffects == 1 && clock.nextDeadline == (1_700_000_000 as Double).nextUp)
    let error = await #expect(throws: ScriptError.self) { try await screen.advance(by: 1) }
    #expect(error?.message.hasPrefix("more than 10000 timers fired at one instant of the clock") == true, "\(String(describing: error))")
    screen.close()
  }

  @Test("a timer every 10 ms over 105 s fires 10,500 times: many timers are fine when the clock moves")
  func manyTimers() async throws {
    let clock = VirtualClock(now: 0)
    var options = LuaScreen.Options()
    options.clock = clock
    let screen = try LuaScreen(path: screenFixture("delayed.lua"), options: options)
    try screen.perform(action: "every")
    try await screen.advance(by: 105.005)
    #expect(screen.state["total"] == 10_501)
    screen.close()
  }

  @Test("a cancelled wait throws, and its timer is gone")
  func cancellation() async throws {
    let clock = VirtualClock()
    let task = Task { try await clock.sleep(seconds: 10) }
    while clock.sleeping == 0 { await Task.yield() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeping == 0)
  }

  @Test("a screen on a virtual clock: advance fires its timers in order, those they start too, and handles their actions")
  func screen() async throws {
    let clock = VirtualClock(now: 0)
    var options = LuaScreen.Options()
    options.clock = clock
    let screen = try LuaScreen(path: screenFixture("delayed.lua"), options: options)
    try screen.perform(action: "later")
    try screen.perform(action: "relay")
    try screen.perform(action: "soon")
    #expect(screen.pendingEffects == 3)
    try await screen.advance(by: 1.5)
    #expect(screen.state["order"] == [10])
    try await screen.advance(by: 10)
    #expect(screen.state["order"] == [10, 100, 1000, 1])  // 1 s, 2 s, 4 s (set at 2 s), 5 s
    #expect(screen.state["total"] == 1111 && screen.pendingEffects == 0 && clock.now == 11.5)
    #expect((try screen.view("total") as? Label)?.text == "1111")
    // Closing with a timer pending cancels it.
    try screen.perform(action: "later")
    screen.close()
    #expect(screen.pendingEffects == 0)
    // The machine's clock cannot be advanced.
    let real = try LuaScreen(path: screenFixture("delayed.lua"))
    await #expect(throws: ScreenUsageError.notVirtualClock) { try await real.advance(by: 1) }
  }
}
