import Foundation
import SendingState
import SendingStateHeadless
import Testing

@testable import SendingStateLua

/// Named states in Lua screens, from the host's side: the contract's errors, the phase the host
/// reads, reloads, and transitions kept apart from effects. (The behaviours are in
/// spec/named_states_spec.lua and examples/search.)
@Suite("Lua named states: contract, phase, reload, transitions are not effects")
@MainActor
struct NamedStateScreenTests {
  /// A lamp: `mode` picks the named state; `warm` takes `seconds` to become current.
  static func lamp(transition: String = "0.5", extra: String = "") -> String {
    """
    return {
      state = { mode = "off" },
      layout = function(ui) return ui.stack { id = "root", ui.label { id = "glow" } } end,
      configure = function() end,
      state_name = function(state) return state.mode end,
      states = {
        off = { set = function(view) view.glow.text = "off" end },
        warm = {
          set = function(view) view.glow.text = "warming" end,
          done = function(view) view.glow.text = "warm" end,
          transition = \(transition), \(extra)
        },
      },
      handle = function(action, store)
        if action.type == "timer" then store:after(1, "noop") end
        if action.mode then store:update(function(s) s.mode = action.mode end) end
      end,
    }
    """
  }

  func open(_ source: String, clock: VirtualClock = VirtualClock(now: 0)) throws -> LuaScreen {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("named-\(UUID().uuidString).lua").path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    var options = LuaScreen.Options()
    options.clock = clock
    return try LuaScreen(path: path, options: options)
  }

  func contractError(_ source: String) -> String? {
    do {
      _ = try open(source)
      return nil
    } catch {
      return (error as? ScriptError)?.message ?? "\(error)"
    }
  }

  @Test("the host reads the phase: ready in a state, or in a transition with both ends")
  func phase() async throws {
    let screen = try open(Self.lamp())
    #expect(screen.namedState == .ready(current: "off"))
    try screen.perform(action: ["type": "switch", "mode": "warm"])
    #expect(screen.namedState == .inTransition(previous: "off", target: "warm"))
    try await screen.advance(by: 0.5)
    #expect(screen.namedState == .ready(current: "warm"))
    #expect(try open(CounterSource.plain).namedState == nil)
  }

  @Test("a transition is not an effect: not pending, kept by cancelEffects, gone with close")
  func notAnEffect() async throws {
    let clock = VirtualClock(now: 0)
    let screen = try open(Self.lamp(), clock: clock)
    try screen.perform(action: ["type": "switch", "mode": "warm"])
    #expect(screen.pendingEffects == 0)
    #expect(clock.sleeping == 1)
    screen.cancelEffects()
    try await screen.advance(by: 0.5)
    #expect(screen.namedState == .ready(current: "warm"))
    try screen.perform(action: ["type": "switch", "mode": "off"])
    try screen.perform(action: ["type": "switch", "mode": "warm"])
    screen.close()
    #expect(clock.sleeping == 0)
  }

  @Test("a reload enters the named state afresh; the old screen's transition ends nothing")
  func reload() async throws {
    let clock = VirtualClock(now: 0)
    let screen = try open(Self.lamp(), clock: clock)
    try screen.perform(action: ["type": "switch", "mode": "warm"])
    try await screen.advance(by: 0.3)
    let fresh = try screen.reloaded()
    #expect(fresh.namedState == .inTransition(previous: nil, target: "warm"))
    #expect(clock.sleeping == 1)  // the old transition's timer is gone, the new one waits
    try await fresh.advance(by: 0.3)
    #expect(fresh.namedState == .inTransition(previous: nil, target: "warm"))
    try await fresh.advance(by: 0.2)
    #expect(fresh.namedState == .ready(current: "warm"))
    #expect((try fresh.view("glow") as? Label)?.text == "warm")
    #expect(fresh.asyncErrors.isEmpty)
  }

  @Test("the contract: states and state_name go together, each state's fields are checked")
  func contract() {
    let noName = Self.lamp().replacingOccurrences(of: "state_name = function(state) return state.mode end,", with: "")
    #expect(contractError(noName)?.contains("screen field 'state_name' must be a function (got nil)") == true)
    let noStates = CounterSource.plain.replacingOccurrences(of: "return {", with: "return { state_name = function() return 'a' end,")
    #expect(contractError(noStates)?.contains("screen field 'state_name' needs 'states'") == true)
    #expect(contractError(Self.lamp(transition: "-1"))?.contains("states.warm.transition must be a number of seconds from 0 to 3600 (got -1") == true)
    #expect(contractError(Self.lamp(transition: "1e9"))?.contains("states.warm.transition must be a number of seconds from 0 to 3600") == true)
    #expect(contractError(Self.lamp(transition: "'soon'"))?.contains("states.warm.transition must be a number") == true)
    #expect(contractError(Self.lamp(transition: "0/0"))?.contains("screen field 'states' is not plain data: states.warm.transition: NaN") == true)
    #expect(
      contractError(Self.lamp(extra: "on_set = function() end,"))?.contains(
        "states.warm has an unknown field 'on_set' (the fields are set, update, done and transition)") == true)
    #expect(contractError(Self.lamp(extra: "update = 3,"))?.contains("states.warm.update must be a function(view, state) (got number)") == true)
    let lonelyDefault = CounterSource.plain.replacingOccurrences(of: "return {", with: "return { state_transition = 1,")
    #expect(contractError(lonelyDefault)?.contains("screen field 'state_transition' needs 'states'") == true)
    let badDefault = Self.lamp().replacingOccurrences(of: "states = {", with: "state_transition = -2, states = {")
    #expect(contractError(badDefault)?.contains("screen field 'state_transition' must be a number of seconds from 0 to 3600") == true)
    let emptyStates = Self.lamp().replacingOccurrences(of: "states = {", with: "states = {}, unused = {")
    #expect(contractError(emptyStates)?.contains("screen field 'states' must be a table of named states") == true)
  }

  @Test("components: each instance's phase by its id; their contract errors name the component")
  func components() async throws {
    let path = URL(fileURLWithPath: examplePath("")).deletingLastPathComponent()
      .appendingPathComponent("spec/screens/badges.lua").path
    var options = LuaScreen.Options()
    options.clock = VirtualClock(now: 0)
    let screen = try LuaScreen(path: path, options: options)
    #expect(screen.namedState == nil)
    #expect(screen.namedState(component: "low") == .ready(current: "calm"))
    #expect(screen.namedState(component: "nope") == nil)
    try screen.tap("up")
    try screen.tap("up")
    #expect(screen.namedState(component: "low") == .inTransition(previous: "calm", target: "alert"))
    #expect(screen.namedState(component: "high") == .ready(current: "calm"))
    try await screen.advance(by: 0.2)
    #expect(screen.namedState(component: "low") == .ready(current: "alert"))
    let broken = CounterSource.plain.replacingOccurrences(
      of: "return {",
      with: "return { components = { dot = { layout = function(ui) return ui.label {} end, states = { on = { set = 1 } } } },")
    #expect(contractError(broken)?.contains("component 'dot': field 'state_name' must be a function (got nil)") == true)
    let badSet = broken.replacingOccurrences(of: "states =", with: "state_name = function() return 'on' end, states =")
    #expect(contractError(badSet)?.contains("component 'dot': states.on.set must be a function(view, props, state) (got number)") == true)
  }

  @Test("components in rows that scrolling builds enter their named state (a scroll is an event of its own)")
  func rowsBuiltByScrolling() throws {
    let path = URL(fileURLWithPath: examplePath("")).deletingLastPathComponent()
      .appendingPathComponent("spec/screens/row_dots.lua").path
    let screen = try LuaScreen(path: path)
    _ = try screen.row("list", 5)
    let tree = screen.renderTree().text
    #expect(tree.contains("label#name text=\"e\""))
    #expect(!tree.contains("label#mark text=\"\""))
    #expect(tree.components(separatedBy: "label#mark text=\"dark\"").count - 1 == 2)
  }

  @Test("states read raw and checked again by the kernel: a metatable cannot slip in what the host refused")
  func metatablesDoNotBypass() throws {
    let sly = Self.lamp().replacingOccurrences(
      of: "states = {",
      with: "states = setmetatable({}, { __index = function() return { transition = -7 } end }), unused = {")
    // The host sees an empty table (raw), and says so.
    #expect(contractError(sly)?.contains("screen field 'states' must be a table of named states") == true)
    let hidden = Self.lamp().replacingOccurrences(
      of: "transition = 0.5,", with: "")
      .replacingOccurrences(of: "warm = {", with: "warm = setmetatable({}, { __index = { transition = -7, set = 1 } }), unused = {")
    // Raw, warm is an empty state (allowed); its metatable's fields are never read, so
    // entering it runs nothing (an `__index` read would call the number 1).
    let screen = try open(hidden)
    try screen.perform(action: ["type": "switch", "mode": "warm"])
    #expect(screen.namedState == .ready(current: "warm"))
  }

  @Test("state_name runs under the screen's budget: one that never returns times out and the event changes nothing")
  func stateNameBudget() throws {
    let source = Self.lamp().replacingOccurrences(
      of: "state_name = function(state) return state.mode end,",
      with: "state_name = function(state) if state.mode == 'spin' then while true do end end return state.mode end,")
    let screen = try open(source)
    #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "switch", "mode": "spin"]) }
    #expect(screen.state["mode"] == "off")
    #expect(screen.namedState == .ready(current: "off"))
  }
}

/// A small screen without named states.
enum CounterSource {
  static let plain = """
    return {
      state = { n = 0 },
      layout = function(ui) return ui.label { id = "n" } end,
      configure = function(view, state) view.n.text = tostring(state.n) end,
    }
    """
}
