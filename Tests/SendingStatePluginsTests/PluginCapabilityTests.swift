import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

@Suite("Capabilities: what a plugin lists and the user granted, enforced; screens the same way")
@MainActor
struct PluginCapabilityTests {
  func screenFixture(_ name: String) -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/\(name)").path
  }

  @Test("a plugin that lists capabilities loads only when they are granted; the refusal names plugin, capabilities and the fix")
  func grantsRequired() throws {
    let none = PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host)
    #expect(none.plugins.isEmpty)
    #expect(
      none.problems.first?.message
        == "it asks for net (collect.example.com, *.cdn.example.com), clock, which was not granted: run with --grant analytics:net,clock, or grant it for good with sendingstate plugins lock")
    let partial = PluginSet.load(
      explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: try PluginGrants(flags: ["analytics:clock"]))
    #expect(partial.problems.first?.message.hasPrefix("it asks for net (collect.example.com, *.cdn.example.com), which") == true)
    let oneHost = PluginSet.load(
      explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host,
      grants: try PluginGrants(flags: ["analytics:clock,net=collect.example.com"]))
    #expect(oneHost.problems.first?.message.hasPrefix("it asks for net (*.cdn.example.com), which") == true)
    let granted = PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: analyticsGrant)
    #expect(granted.plugins.map(\.name) == ["analytics"] && granted.problems.isEmpty)
    #expect(granted.capabilities["analytics"] == .init(net: ["collect.example.com", "*.cdn.example.com"], clock: true))
    // A grant for another plugin grants nothing here, and is reported (a typo, most likely).
    let elsewhere = PluginSet.load(
      explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: try PluginGrants(flags: ["analytcs:clock,net"]))
    #expect(elsewhere.plugins.isEmpty)
    #expect(elsewhere.problems.map(\.description).contains("--grant: plugin 'analytcs': no plugin named 'analytcs' was found to grant it to (plugins: json, format, clock)"), "\(elsewhere.problems)")
    // A wildcard covers the hosts under it.
    let wide = PluginSet.load(
      explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host,
      grants: try PluginGrants(flags: ["analytics:clock,net=*.example.com"]))
    #expect(wide.plugins.map(\.name) == ["analytics"], "\(wide.problems)")
    #expect(LuaScreen.Capabilities.pattern("*.example.com", covers: "*.cdn.example.com"))
    #expect(!LuaScreen.Capabilities.pattern("*.example.com", covers: "example.com"))
    #expect(!LuaScreen.Capabilities.pattern("*.example.com", covers: "*.com"))
    #expect(!LuaScreen.Capabilities.pattern("*.example.com", covers: "evilexample.com"))
  }

  @Test("--grant flags read as documented; mistakes say how to write them")
  func grantFlags() throws {
    let grants = try PluginGrants(flags: ["analytics:net,clock", "screen:timers,net=api.example.com", "screen:net=*.cdn.example.com"])
    #expect(grants.plugins["analytics"] == .init(net: ["*"], clock: true))
    #expect(grants.screen == .init(timers: true, net: ["api.example.com", "*.cdn.example.com"]))
    for (flag, message) in [
      ("analytics", "write NAME:CAPABILITY"), ("analytics:files", "'files' is not a capability"),
      ("analytics:net=http://x", "'net=http://x' is not a capability"), ("screen:storage", "this host offers no storage yet"),
    ] {
      let error = #expect(throws: PluginGrantError.self) { try PluginGrants(flags: [flag]) }
      #expect(error?.description.hasPrefix("--grant \(flag): \(message)") == true, "\(String(describing: error))")
    }
  }

  @Test("without the clock capability a plugin's files cannot read the wall clock, also through its module; the screen still can")
  func clock() throws {
    let set = PluginSet.load(explicit: [pluginFixture("clockless")], environment: [:], hostAPI: host)
    #expect(set.problems.isEmpty)
    var options = LuaScreen.Options()
    set.apply(to: &options)
    let screen = try LuaScreen(path: screenFixture("stamped.lua"), options: options)
    let middleware = #expect(throws: ScriptError.self) { try screen.perform(action: "stamp") }
    #expect(middleware?.message == "plugin 'clockless' may not read the wall clock (os.time): it does not have the 'clock' capability")
    #expect(middleware?.line == 4 && middleware?.chunk?.hasSuffix("clockless/middleware/stamp.lua") == true)
    let module = #expect(throws: ScriptError.self) { try screen.perform(action: "module") }
    #expect(module?.message.hasPrefix("plugin 'clockless' may not read the wall clock (os.date)") == true)
    #expect(module?.line == 4 && module?.chunk?.hasSuffix("clockless/stamp.lua") == true, "\(String(describing: module))")
    // Nor through the clock module (it asks who called).
    let via = #expect(throws: ScriptError.self) { try screen.perform(action: "via") }
    #expect(via?.message == "plugin 'clockless' may not read the wall clock (clock.now): it does not have the 'clock' capability")
    #expect(via?.line == 6 && via?.chunk?.hasSuffix("clockless/stamp.lua") == true, "\(String(describing: via))")
    // Nor by hiding who calls: the module a plugin's file requires is bound to that plugin.
    for hiding in ["viaPcall", "viaLoad"] {
      let hidden = #expect(throws: ScriptError.self) { try screen.perform(action: .string(hiding)) }
      #expect(hidden?.message.contains("plugin 'clockless' may not read the wall clock (clock.") == true, "\(hiding): \(String(describing: hidden))")
    }
    // A coroutine started on the module's own function holds no script code: whoever asks
    // cannot be told, and nobody may.
    let started = #expect(throws: ScriptError.self) { try screen.perform(action: "viaCoroutine") }
    #expect(started?.message.contains("code whose owner cannot be told") == true && started?.message.contains("may not read the wall clock (clock.since)") == true, "\(String(describing: started))")
    // math.randomseed() seeds from the time, but tells nobody.
    try screen.perform(action: "viaSeed")
    #expect(screen.state["result"] == .nil)
    // The screen's own files are not the plugin's to require (they run with the screen's rights).
    let screenFile = #expect(throws: ScriptError.self) { try screen.perform(action: "viaScreenFile") }
    #expect(screenFile?.message.contains("a plugin's code may require host modules and the modules plugins name, not 'screen_helper'") == true, "\(String(describing: screenFile))")
    try screen.perform(action: "screenClock")  // the screen may
    #expect(screen.state["stamped"].doubleValue ?? 0 > 1_700_000_000)
    try screen.perform(action: "cpu")  // os.clock (processor time) is not the wall clock
    try screen.perform(action: "own")  // the screen's own code was not restricted
    #expect(screen.state["stamped"].intValue ?? 0 > 1_700_000_000)
    // The analytics fixture lists clock: granted, its middleware reads it.
    var granted = LuaScreen.Options()
    PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: analyticsGrant).apply(to: &granted)
    let recorded = try LuaScreen(path: screenFixture("recorded.lua"), options: granted)
    try recorded.perform(action: "clock")
    #expect(recorded.state["clock"] == "integer")
  }

  @Test("no file inside a plugin's folder can be required through the screen's folder (it would run with the screen's rights)")
  func pluginFilesNotRequirable() throws {
    let plugin = try scratchCopy("clockless")
    let root = ((plugin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("app")
    defer { try? FileManager.default.removeItem(atPath: (plugin as NSString).deletingLastPathComponent) }
    try FileManager.default.createDirectory(atPath: root + "/plugins", withIntermediateDirectories: true)
    try FileManager.default.moveItem(atPath: plugin, toPath: root + "/plugins/clockless")
    try "return { time = os.time }".write(toFile: root + "/plugins/clockless/helper.lua", atomically: true, encoding: .utf8)
    try """
      local helper = require "plugins.clockless.helper"
      return { state = {}, layout = function(ui) return ui.label {} end, configure = function() end }
      """.write(toFile: root + "/screen.lua", atomically: true, encoding: .utf8)
    var options = LuaScreen.Options()
    let set = PluginSet.load(screen: root + "/screen.lua", environment: [:], hostAPI: host)
    #expect(set.plugins.map(\.name) == ["clockless"])
    set.apply(to: &options)
    let error = #expect(throws: ScriptError.self) { try LuaScreen(path: root + "/screen.lua", options: options) }
    #expect(error?.message.contains("module 'plugins.clockless.helper' is a file of the plugin in ") == true, "\(String(describing: error))")
    #expect(error?.line == 1)
    // A folder of the screen's that merely holds a file named plugin.lua is not a plugin.
    try FileManager.default.createDirectory(atPath: root + "/ext", withIntermediateDirectories: true)
    try "return {}".write(toFile: root + "/ext/plugin.lua", atomically: true, encoding: .utf8)
    try "return { answer = 42 }".write(toFile: root + "/ext/util.lua", atomically: true, encoding: .utf8)
    try """
      local util = require "ext.util"
      return { state = { answer = util.answer }, layout = function(ui) return ui.label {} end, configure = function() end }
      """.write(toFile: root + "/own.lua", atomically: true, encoding: .utf8)
    #expect(try LuaScreen(path: root + "/own.lua", options: options).state["answer"] == 42)
  }

  @Test("a screen that declares capabilities gets only those: effects and the clock outside them are errors at their line")
  func screenDeclares() async throws {
    let screen = try LuaScreen(path: screenFixture("declares.lua"))
    try screen.perform(action: "wait")
    #expect(screen.pendingEffects == 1)
    let before = screen.state
    let fetch = #expect(throws: ScriptError.self) { try screen.perform(action: "fetch") }
    #expect(fetch?.message.hasPrefix("the screen may not fetch: it does not have the 'net' capability") == true, "\(String(describing: fetch))")
    #expect(fetch?.line == 9)
    let time = #expect(throws: ScriptError.self) { try screen.perform(action: "time") }
    #expect(time?.message == "the screen may not read the wall clock (os.time): it does not have the 'clock' capability")
    #expect(time?.line == 10)
    #expect(screen.state == before && screen.pendingEffects == 1)
    screen.close()
  }

  @Test("what a screen may do is what was granted: declaring more fails at load; declaring nothing gets the grant")
  func screenGranted() async throws {
    var options = LuaScreen.Options()
    options.capabilities = .init(net: ["api.example.com"])
    let refused = #expect(throws: ScriptError.self) { try LuaScreen(path: self.screenFixture("declares.lua"), options: options) }
    #expect(refused?.message.hasPrefix("the screen asks for timers, which was not granted (granted: net (api.example.com))") == true, "\(String(describing: refused))")
    let screen = try LuaScreen(path: screenFixture("undeclared.lua"), options: options)
    let timer = #expect(throws: ScriptError.self) { try screen.perform(action: "wait") }
    #expect(timer?.message.hasPrefix("the screen may not start timers") == true)
    let elsewhere = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "fetch", "url": "https://evil.example.org/x"])
    }
    #expect(elsewhere?.message == "the screen may not reach 'evil.example.org': its net capability lists api.example.com")
    #expect(elsewhere?.line == 8)
    #expect(throws: ScriptError.self) { try screen.perform(action: "time") }
    try screen.perform(action: ["type": "fetch", "url": "https://api.example.com/x"])
    #expect(screen.pendingEffects == 1)
    screen.close()
    // Nothing granted, nothing declared: everything, as before capabilities existed.
    let open = try LuaScreen(path: screenFixture("undeclared.lua"))
    try open.perform(action: "wait")
    try open.perform(action: "time")
    #expect(open.pendingEffects == 1)
    open.close()
  }

  @Test("a store a middleware keeps gives it nothing later: its code asks with its own rights; nor can it pause inside the store")
  func smuggledStore() throws {
    var options = LuaScreen.Options()
    PluginSet.load(explicit: [pluginFixture("smuggler")], environment: [:], hostAPI: host).apply(to: &options)
    let screen = try LuaScreen(path: screenFixture("smuggled.lua"), options: options)
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: "go") }
    #expect(
      error?.message == "plugin 'smuggler' may not start timers: it does not have the 'timers' capability (add it to capabilities in its plugin.lua)",
      "\(String(describing: error))")
    #expect(error?.line == 3 && error?.chunk?.hasSuffix("smuggler/keep.lua") == true)
    #expect(screen.pendingEffects == 0)
    // Nor paused inside a store's method, to be finished later (outside its event): nothing
    // inside the store can yield.
    let before = screen.state
    let paused = #expect(throws: ScriptError.self) { try screen.perform(action: "pause") }
    #expect(paused?.message.contains("attempt to yield across a C-call boundary") == true, "\(String(describing: paused))")
    #expect(paused?.chunk?.hasSuffix("smuggler/middleware/grab.lua") == true, "\(String(describing: paused))")
    #expect(screen.state == before)
  }

  @Test("storage is refused with a clear reason: this host offers none yet")
  func storage() throws {
    let folder = try scratchCopy("analytics")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let manifest = (folder as NSString).appendingPathComponent("plugin.lua")
    let text = try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "{ \"clock\",", with: "{ \"storage\", \"clock\",")
    try text.write(toFile: manifest, atomically: true, encoding: .utf8)
    let set = PluginSet.load(explicit: [folder], environment: [:], hostAPI: host, grants: analyticsGrant)
    #expect(set.problems.first?.message.hasPrefix("it asks for storage, which this host does not offer yet") == true, "\(set.problems)")
  }
}

/// A copy of a plugin fixture in a scratch folder (removed by the caller), for tests that
/// change it.
func scratchCopy(_ plugin: String) throws -> String {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("ss-plugin-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  let folder = (root as NSString).appendingPathComponent(plugin)
  try FileManager.default.copyItem(atPath: pluginFixture(plugin), toPath: folder)
  return folder
}
