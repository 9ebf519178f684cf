import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

/// One event is one transaction: whatever fails in it, state, views, observers and the action
/// log are exactly as before, and the screen goes on working.
@Suite("Screens: one event is one transaction")
@MainActor
struct AtomicityTests {
  /// Everything a failure must leave alone.
  struct Snapshot: Equatable {
    let state: LuaValue
    let tree: String
    let log: [LuaValue]
    let notifications: Int
  }

  @MainActor
  final class Watched {
    let screen: LuaScreen
    var notifications = 0
    var token: StateObservationToken?

    init(limits: LuaRuntime.Limits = .init()) throws {
      screen = try LuaScreen(path: screenFixture("atomic.lua"), options: .init(limits: limits))
      token = screen.observe { [unowned self] _ in self.notifications += 1 }
      try screen.tap("add")  // something committed before the failure
    }

    var snapshot: Snapshot {
      Snapshot(state: screen.state, tree: screen.renderTree().text, log: screen.actionLog, notifications: notifications)
    }

    /// The failure leaves everything as it was, names `line` of the script, and the next event works.
    func expectNothingChanged(line: Int?, message: String, _ body: () throws -> Void) throws {
      let before = snapshot
      let error = #expect(throws: ScriptError.self) { try body() }
      #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
      if let line { #expect(error?.line == line, "\(error?.description ?? "")") }
      #expect(error?.chunk?.hasSuffix("atomic.lua") == true)
      #expect(snapshot == before)
      try screen.tap("add")
      #expect(screen.state["n"] == .integer((before.state["n"].intValue.map(Int64.init) ?? 0) + 1))
    }
  }

  @Test(
    "a failure at any point of handling changes nothing",
    arguments: [
      ("update-then-fail", 38, "handler failed after an update"),
      ("fail-in-update", 40, "update function failed"),
      ("schema", 42, "state.n: expected integer, got string \"many\" (schema)"),
      ("not-data", 44, "state.n: functions are not data"),
      ("configure", 24, "configure failed after writing"),
      ("bad-row", 15, "cannot show item 2"),
      ("chain", 56, "the third action failed"),
    ])
  func handling(action: String, line: Int, message: String) throws {
    let watched = try Watched()
    try watched.expectNothingChanged(line: line, message: message) {
      try watched.screen.perform(action: .string(action))
    }
  }

  @Test("a failing event callback changes nothing")
  func callback() throws {
    let watched = try Watched()
    try watched.expectNothingChanged(line: 30, message: "callback failed") { try watched.screen.tap("explode") }
  }

  @Test("the time limit running out in configure changes nothing")
  func timeLimit() throws {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = .milliseconds(200)
    limits.instructionBudget = nil
    let watched = try Watched(limits: limits)
    try watched.expectNothingChanged(line: 25, message: "time limit exceeded") {
      try watched.screen.perform(action: "spin")
    }
  }

  @Test("the memory cap running out in handle changes nothing")
  func memoryLimit() throws {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = nil
    limits.instructionBudget = nil
    limits.memoryLimit = 8 << 20
    let watched = try Watched(limits: limits)
    try watched.expectNothingChanged(line: 64, message: "not enough memory") {
      try watched.screen.perform(action: "memory")
    }
  }

  @Test("scrolling onto a row whose configure fails leaves the window where it was")
  func scrolling() throws {
    let watched = try Watched()
    try watched.screen.perform(action: "poison-row")
    let list = try #require(try watched.screen.view("items") as? ListView)
    let first = list.firstVisibleIndex
    try watched.expectNothingChanged(line: 15, message: "cannot show item 20") {
      _ = try watched.screen.row("items", 20)
    }
    #expect(list.firstVisibleIndex == first)
  }

  @Test("a screen that fails to load leaves no views, handlers or effects behind")
  func load() throws {
    var limits = LuaRuntime.Limits()
    limits.maxViews = 5
    let error = #expect(throws: ScriptError.self) {
      try LuaScreen(path: screenFixture("atomic.lua"), options: .init(limits: limits))
    }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.hasPrefix("more than 5 views") == true)
  }

  @Test("a state Swift cannot read without merging two keys is reported, and a reload refuses rather than lose one")
  func keysThatSwiftWouldMerge() throws {
    // Before: the state read as `nil` in reports and a reload silently kept one of the keys.
    let screen = try LuaScreen(path: screenFixture("unicode_keys.lua"))
    #expect(screen.renderTree().text.contains("1,2"))
    let read = #expect(throws: ScriptError.self) { try screen.readState() }
    #expect(read?.chunk?.hasSuffix("unicode_keys.lua") == true)
    #expect(read?.message.hasPrefix("state.cart.") == true)
    #expect(read?.message.contains("same text") == true)
    #expect(throws: ScriptError.self) { try screen.reloaded() }
    #expect(!screen.isClosed)
    #expect(screen.renderTree().text.contains("1,2"))
  }

  @Test("a failed event forgets the component hosts it built (in rows it planned), so failures do not pile them up")
  func failedEventForgetsComponentHosts() throws {
    let screen = try LuaScreen(path: screenFixture("row_components_fail.lua"))
    #expect(screen.engine.unitHostCount() == 1)  // the one row's component
    for _ in 0..<5 {
      #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "add", "item": "bad"]) }
      #expect(screen.engine.unitHostCount() == 1)
    }
    try screen.perform(action: ["type": "add", "item": "b"])  // an event that works builds its row
    #expect(screen.engine.unitHostCount() == 2)
  }
}

extension AtomicityTests {
  /// On the wall clock: real timers, fetches from a loopback server, real async tasks. Run apart
  /// from the parallel suite (scripts/test.sh skips them, then runs them apart): its
  /// CPU-bound tests can hold every thread of the cooperative pool for a minute on a loaded
  /// 2-core machine, and these wait for work that needs one.
  @Suite("Screens: one event is one transaction, with effects on the wall clock")
  @MainActor
  struct RealTime {
    @Test("an effect whose result fails changes nothing and reports file:line")
    func effectResult() async throws {
      let watched = try AtomicityTests.Watched()
      try watched.screen.perform(action: "later")
      let before = watched.snapshot
      #expect(await watched.screen.settle(timeout: .seconds(60)))
      let error = try #require(watched.screen.asyncErrors.first)
      #expect(error.line == 38 && error.message == "handler failed after an update")
      #expect(error.context == "handle (action 'update-then-fail')")
      #expect(watched.snapshot == before)
    }

    @Test("a reload hands running effects to the new screen; nothing stays pending for ever")
    func reloadWithPendingEffects() async throws {
      let screen = try LuaScreen(path: screenFixture("effects.lua"))
      try screen.perform(action: "start")  // two timers
      #expect(screen.pendingEffects == 2)
      let fresh = try screen.reloaded()
      #expect(screen.isClosed && screen.pendingEffects == 0)
      #expect(fresh.pendingEffects == 2)
      #expect(await fresh.settle(timeout: .seconds(60)))  // a bound, not a timing: a loaded 2-core machine can take seconds
      #expect(fresh.state["ticks"] == 2)
      #expect(fresh.actionLog == [["type": "tick"], ["type": "tick"]])
    }
  }
}
