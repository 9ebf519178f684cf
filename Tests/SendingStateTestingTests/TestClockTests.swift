import SendingStateTesting
import Testing

@Suite("The test clock: time moves only when the test advances it")
@MainActor
struct TestClockTests {
  @Test("a sleep wakes when advance reaches its deadline, not before; a passed deadline returns at once")
  func wakesAtDeadline() async throws {
    let clock = TestClock()
    var woke = false
    let sleeper = Task { @MainActor in
      try await clock.sleep(for: .seconds(2))
      woke = true
    }
    await clock.advance(by: .milliseconds(1_999))
    #expect(!woke && clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(1))
    try await sleeper.value
    #expect(woke && clock.now.offset == .seconds(2))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))  // in the past: no wait
  }

  @Test("advance wakes sleeps in deadline order and moves time to each deadline on the way")
  func deadlineOrder() async {
    let clock = TestClock()
    var log: [String] = []
    for (name, seconds) in [("c", 3), ("a", 1), ("b", 2)] {
      Task { @MainActor in
        try await clock.sleep(for: .seconds(seconds))
        log.append("\(name)@\(clock.now.offset.components.seconds)")
      }
    }
    await clock.advance(by: .seconds(10))
    #expect(log == ["a@1", "b@2", "c@3"])
    #expect(clock.now.offset == .seconds(10))
  }

  @Test("a cancelled sleep throws CancellationError and leaves the clock")
  func cancellation() async {
    let clock = TestClock()
    let sleeper = Task { @MainActor in try await clock.sleep(for: .seconds(5)) }
    for _ in 0..<20 { await Task.yield() }
    sleeper.cancel()
    let result = await sleeper.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleeperCount == 0)
  }

  @Test("run() advances through every sleep, including those started by woken work")
  func runToEnd() async {
    let clock = TestClock()
    var ticks = 0
    Task { @MainActor in
      for _ in 0..<5 {
        try await clock.sleep(for: .seconds(1))
        ticks += 1
      }
    }
    await clock.run()
    #expect(ticks == 5)
    #expect(clock.now.offset == .seconds(5))
  }
}
