import Foundation
import SendingState
import Testing

@testable import SendingStateLua

/// Host tasks from the Swift side: real async work registered by name, its input and result
/// crossing as data, cancellation, and the limits a script meets.
@Suite("Lua host tasks: async work the host app registers (store:run)")
@MainActor
struct HostTaskTests {
  static let source = """
    return {
      state = { log = {} },
      layout = function(ui) return ui.label { id = "n" } end,
      configure = function(view, state) view.n.text = tostring(#state.log) end,
      handle = function(action, store)
        if action.type == "ask" then
          store:run("double", action.n, { ok = "answer", fail = "oops" }, { id = "ask", debounce = action.wait })
        elseif action.type == "stop" then
          store:cancel("ask")
        elseif action.type == "bad" then
          store:run("double", 1, { ok = "answer" })
        elseif action.type == "answer" then
          store:update(function(s) s.log[#s.log + 1] = action.value end)
        elseif action.type == "oops" then
          store:update(function(s) s.log[#s.log + 1] = action.error end)
        end
      end,
    }
    """

  /// The inputs the task got, in order.
  @MainActor
  final class Calls {
    var inputs: [LuaValue] = []
  }

  struct Odd: Error, CustomStringConvertible {
    var description: String { "odd numbers are not doubled here" }
  }

  func open(clock: VirtualClock = VirtualClock(now: 0), calls: Calls = Calls(), delays: [String: Double] = [:]) throws -> LuaScreen {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-\(UUID().uuidString).lua").path
    try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = LuaScreen.Options()
    options.clock = clock
    options.taskDelays = delays
    options.tasks["double"] = { input in
      calls.inputs.append(input)
      await Task.yield()  // real async work: the answer comes later
      guard let n = input.intValue else { throw Odd() }
      if n % 2 != 0 { throw Odd() }
      return .integer(Int64(n * 2))
    }
    return try LuaScreen(path: path, options: options)
  }

  @Test("a plugin's middleware may not run host tasks, and learns none of their names")
  func pluginsMayNot() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-\(UUID().uuidString).lua").path
    try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
    var options = LuaScreen.Options()
    options.tasks["double"] = { _ in .integer(0) }
    options.middleware = [
      .init(
        name: "sneak", plugin: "spy", file: "spy/middleware/sneak.lua",
        source: "return function(action, store) store:run('nope', 1, { ok = 'a', fail = 'b' }) return action end")
    ]
    let screen = try LuaScreen(path: path, options: options)
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "ask", "n": 2]) }
    #expect(error?.message.contains("plugin 'spy' may not run host tasks: they are the screen's") == true)
    #expect(error?.message.contains("double") == false)
    #expect(screen.pendingEffects == 0)
  }

  @Test("mistakes at the call name the line: missing types; a screen with no tasks registered")
  func mistakes() throws {
    let screen = try open()
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: "bad") }
    #expect(error?.message.contains("bad argument #3 to 'run' ({ ok = \"type\", fail = \"type\" } expected)") == true)
    #expect(error?.line != nil)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-\(UUID().uuidString).lua").path
    try Self.source.write(toFile: path, atomically: true, encoding: .utf8)
    let bare = try LuaScreen(path: path)
    let none = #expect(throws: ScriptError.self) { try bare.perform(action: ["type": "ask", "n": 2]) }
    #expect(none?.message.contains("no task named 'double'; the host registered none") == true)
    #expect(bare.pendingEffects == 0)
  }
}

extension HostTaskTests {
  /// On the wall clock: real timers, fetches from a loopback server, real async tasks. Run apart
  /// from the parallel suite (scripts/test.sh skips them, then runs them apart): its
  /// CPU-bound tests can hold every thread of the cooperative pool for a minute on a loaded
  /// 2-core machine, and these wait for work that needs one.
  @Suite("Lua host tasks on the wall clock")
  @MainActor
  struct RealTime {
    @Test("options apply: a debounced task waits on the screen's clock; store:cancel stops it before it runs")
    func optionsAndCancel() async throws {
      let clock = VirtualClock(now: 0)
      let calls = Calls()
      let screen = try HostTaskTests().open(clock: clock, calls: calls)
      try screen.perform(action: ["type": "ask", "n": 2, "wait": 1])
      try screen.perform(action: ["type": "ask", "n": 6, "wait": 1])  // replaces the first
      try await screen.advance(by: 1)
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["log"] == [12])
      try screen.perform(action: ["type": "ask", "n": 10, "wait": 1])
      try screen.perform(action: "stop")
      try await screen.advance(by: 2)
      #expect(screen.state["log"] == [12])
      #expect(calls.inputs == [6])
    }

    @Test("a task's answer with a delay (Options.taskDelays) arrives that long after the task ran, which waits for its debounce; no advance spins")
    func delayedAnswer() async throws {
      let calls = Calls()
      let screen = try HostTaskTests().open(calls: calls, delays: ["double": 2])
      try screen.perform(action: ["type": "ask", "n": 4, "wait": 0.5])
      try await screen.advance(by: 0.5)
      #expect(calls.inputs == [4])
      try await screen.advance(by: 1.9)
      #expect(!screen.actionLog.contains { $0["type"] == "answer" })
      try await screen.advance(by: 0.1)
      #expect(screen.state["log"] == [8])
      // A failure takes the delay too; one advance across both timers delivers it.
      try screen.perform(action: ["type": "ask", "n": 3, "wait": 0.5])
      try await screen.advance(by: 10)
      #expect(screen.state["log"] == [8, "odd numbers are not doubled here"])
      #expect(screen.pendingEffects == 0)
      #expect(screen.engine.advanceYields < 10_000, "\(screen.engine.advanceYields) yields")
    }

    @Test("the task gets the script's input; its value is the ok action's value, its error the fail action's")
    func roundTrip() async throws {
      let calls = Calls()
      let screen = try HostTaskTests().open(calls: calls)
      try screen.perform(action: ["type": "ask", "n": 4])
      #expect(await screen.settle(timeout: .seconds(60)))
      try screen.perform(action: ["type": "ask", "n": 3])
      #expect(await screen.settle(timeout: .seconds(60)))
      #expect(screen.state["log"] == [8, "odd numbers are not doubled here"])
      #expect(calls.inputs == [4, 3])
      #expect(screen.actionLog.contains(["type": "answer", "value": 8]))
    }
  }
}
