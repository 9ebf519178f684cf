import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

/// Attacks on the one model of authority: a right is checked against the code that asks for
/// it, however that code got hold of a store, an `os` table, a module or a callback.
@Suite("Authority: every right is checked against the code that asks, on every path")
@MainActor
struct AuthorityAttackTests {
  let screenPath = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/launder.lua").path

  /// The launder screen (every right) with the launder plugin (none).
  func open() throws -> LuaScreen {
    var options = LuaScreen.Options()
    options.fetcher = FakeFetcher(["http://127.0.0.1:9/x": .init(status: 200, body: "{}")])
    let set = PluginSet.load(explicit: [pluginFixture("launder")], environment: [:], hostAPI: host)
    #expect(set.problems.isEmpty, "\(set.problems)")
    set.apply(to: &options)
    return try LuaScreen(path: screenPath, options: options)
  }

  /// Performs `action` and expects it refused with `message` at `line` of the plugin's helper,
  /// nothing started and the state unchanged.
  func expectRefused(
    _ screen: LuaScreen, _ action: LuaValue, _ message: String, line: Int?, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let before = screen.state
    let error = #expect(throws: ScriptError.self, sourceLocation: sourceLocation) { try screen.perform(action: action) }
    #expect(error?.message.contains(message) == true, "\(action): \(String(describing: error))", sourceLocation: sourceLocation)
    if let line {
      #expect(error?.line == line, "\(action): \(String(describing: error))", sourceLocation: sourceLocation)
      #expect(error?.chunk?.hasSuffix("launder/helper.lua") == true, "\(action): \(String(describing: error))", sourceLocation: sourceLocation)
    }
    #expect(screen.pendingEffects == 0, "\(action) started an effect", sourceLocation: sourceLocation)
    #expect(screen.state == before, sourceLocation: sourceLocation)
  }

  @Test("a plugin handed the screen's store cannot fetch with it, whatever way it calls")
  func storeLaundering() async throws {
    let screen = try open()
    defer { screen.close() }
    let refusal = "plugin 'launder' may not fetch: it does not have the 'net' capability"
    for (action, line) in [
      ("fetch", 6), ("tailFetch", 7), ("dotFetch", 8), ("pcallFetch", 10), ("tailPcall", 13), ("coroutineFetch", 15),
      ("sortFetch", 19), ("metaFetch", 22),
    ] {
      expectRefused(screen, .string(action), refusal, line: line)
    }
    // A coroutine started on the store's own function has no script code of its own: whoever
    // asks cannot be told, so nothing is granted.
    expectRefused(screen, "wrapFetch", "may not fetch", line: nil)
    // A chunk it loads is its own, whatever name it claims: the screen's file, or a host chunk.
    let forged = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "forgedLoad", "file": .string(self.screenPath)])
    }
    #expect(forged?.message.contains(refusal) == true, "\(String(describing: forged))")
    #expect(forged?.chunk?.contains("launder/helper.lua:27") == true, "the chunk names who loaded it: \(String(describing: forged))")
    #expect(forged?.chunk?.hasSuffix(self.screenPath) == false)
    expectRefused(screen, "hostLoad", refusal, line: nil)
    #expect(screen.pendingEffects == 0)
    // The screen itself may; and a callback of the screen's that the plugin calls is the
    // screen's own code asking.
    try screen.perform(action: "own")
    try screen.perform(action: "callBack")
    #expect(screen.pendingEffects == 2)
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["got"] == 2)
  }

  @Test("nor start timers or host tasks with it")
  func timersAndTasks() throws {
    let screen = try open()
    defer { screen.close() }
    expectRefused(screen, "after", "plugin 'launder' may not start timers: it does not have the 'timers' capability", line: 34)
    expectRefused(screen, "tailAfter", "plugin 'launder' may not start timers", line: 35)
    expectRefused(screen, "run", "plugin 'launder' may not run host tasks: they are the screen's", line: 36)
  }

  @Test("nor read the wall clock through the screen's os table or clock module")
  func clockLaundering() throws {
    let screen = try open()
    defer { screen.close() }
    expectRefused(screen, "time", "plugin 'launder' may not read the wall clock (os.time): it does not have the 'clock' capability", line: 37)
    expectRefused(screen, "date", "plugin 'launder' may not read the wall clock (os.date)", line: 38)
    expectRefused(screen, "clockModule", "plugin 'launder' may not read the wall clock (clock.now)", line: 39)
  }

  @Test("nor require the screen's own files through the screen's require")
  func requireLaundering() throws {
    let screen = try open()
    defer { screen.close() }
    expectRefused(
      screen, "screenRequire", "a plugin's code may require host modules and the modules plugins name, not 'secret'", line: 40)
  }

  @Test("nor make the screen's own for loop, `..`, `<` or sort call the store's fetch on its arguments")
  func metamethodLaundering() async throws {
    var options = LuaScreen.Options()
    options.fetcher = FakeFetcher(["http://127.0.0.1:9/x": .init(status: 200, body: "{}")])
    let set = PluginSet.load(explicit: [pluginFixture("launder")], environment: [:], hostAPI: host)
    #expect(set.problems.isEmpty, "\(set.problems)")
    set.apply(to: &options)
    let path = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/metalaunder.lua").path
    let screen = try LuaScreen(path: path, options: options)
    defer { screen.close() }
    // The plugin's values name the function and its arguments; the screen's code only runs a
    // `for`, a `..`, a `<` or a sort: no code asks by name, so nobody has the right.
    for (action, line, message) in [
      ("pairs", 13, "code whose owner cannot be told"), ("concat", 15, "code whose owner cannot be told"),
      ("less", 18, "code whose owner cannot be told"), ("sort", 21, "'__lt' is a host function"),
    ] {
      let before = screen.state
      let error = #expect(throws: ScriptError.self) { try screen.perform(action: .string(action)) }
      #expect(error?.message.contains(message) == true, "\(action): \(String(describing: error))")
      #expect(error?.line == line, "\(action): \(String(describing: error))")
      #expect(error?.chunk?.hasSuffix("screens/metalaunder.lua") == true, "\(action): \(String(describing: error))")
      #expect(screen.pendingEffects == 0, "\(action) started an effect")
      #expect(screen.state == before)
    }
    // A `for` the screen runs over its own table, asking by name inside, keeps its rights.
    try screen.perform(action: "own")
    #expect(screen.pendingEffects == 1)
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["got"] == 1)
  }
}
