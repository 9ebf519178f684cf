import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

/// The path of a plugin fixture folder.
func pluginFixture(_ name: String) -> String {
  Bundle.module.resourceURL!.appendingPathComponent("Fixtures/plugins/\(name)").path
}

let host = SemanticVersion("0.2.0")!

/// What the analytics fixture lists (clock, and net to its hosts), granted.
let analyticsGrant = try! PluginGrants(flags: ["analytics:clock,net"])

@Suite("Plugin manifests: read under the sandbox, checked field by field, errors with file:line")
struct PluginManifestTests {
  @Test("a good manifest reads whole: name, versions, what it provides, its capabilities")
  func good() throws {
    let manifest = try PluginManifest.load(folder: pluginFixture("analytics"), hostAPI: host)
    #expect(manifest.name == "analytics")
    #expect(manifest.version == SemanticVersion(1, 2, 0))
    #expect(manifest.apiVersion == SemanticVersion(0, 2, 0))
    #expect(manifest.provides.modules == ["events"])
    #expect(manifest.provides.middleware == ["record"])
    #expect(manifest.capabilities == [.clock, .net(hosts: ["collect.example.com", "*.cdn.example.com"])])
    let net = manifest.capabilities[1]
    #expect(net.allows(host: "collect.example.com") && net.allows(host: "img.cdn.example.com"))
    #expect(!net.allows(host: "cdn.example.com") && !net.allows(host: "evil.com") && !net.allows(host: "collect.example.com.evil.com"))
  }

  @Test("each broken manifest is an error naming the plugin, the file and the line, and saying how to fix it",
    arguments: [
      ("bad_syntax", 4, "'}' expected"),
      ("wrong_api", 4, "it was written for host API 0.1.0, and this host offers 0.2.0"),
      ("bad_version", 4, "version '1.0' is not a semantic version (write MAJOR.MINOR.PATCH"),
      ("unknown_capability", 6, "capability \"files\" is unknown (capabilities: clock, net, storage, timers"),
      ("missing_unit", 7, "provides.units names 'ghost', but "),
    ])
  func broken(_ name: String, _ line: Int, _ message: String) throws {
    let error = #expect(throws: PluginError.self) { try PluginManifest.load(folder: pluginFixture(name), hostAPI: host) }
    #expect(error?.plugin == name)
    #expect(error?.file.hasSuffix("\(name)/plugin.lua") == true)
    #expect(error?.line == line, "\(String(describing: error))")
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test("a manifest that is not a table, loops, or is missing is refused, with the folder as its name")
  func refused() throws {
    let table = #expect(throws: PluginError.self) { try PluginManifest.load(folder: pluginFixture("not_a_table"), hostAPI: host) }
    #expect(table?.message.hasPrefix("plugin.lua must return a table") == true)
    let loops = #expect(throws: PluginError.self) { try PluginManifest.load(folder: pluginFixture("loops"), hostAPI: host) }
    #expect(loops?.line == 1)
    #expect(loops?.message.contains("exceeded") == true, "\(String(describing: loops))")
    let missing = #expect(throws: PluginError.self) { try PluginManifest.load(folder: pluginFixture("no_manifest"), hostAPI: host) }
    #expect(missing?.plugin == "no_manifest")
    #expect(missing?.message.hasPrefix("no plugin.lua in ") == true)
  }

  @Test("semantic versions parse strictly, order as semver says, and an API fits by major (and minor before 1.0)")
  func versions() throws {
    for bad in ["1", "1.0", "v1.0.0", "01.0.0", "1.0.0-", "1.0.0.0", "a.b.c", ""] { #expect(SemanticVersion(bad) == nil, "\(bad)") }
    let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0", "1.10.0", "2.0.0"]
    let versions = ordered.compactMap(SemanticVersion.init)
    #expect(versions.count == ordered.count)
    #expect(versions == versions.shuffled().sorted())
    #expect(SemanticVersion("1.2.3+build.7") == SemanticVersion(1, 2, 3))
    #expect(SemanticVersion("1.4.0")!.satisfies(SemanticVersion("1.2.0")!))
    #expect(!SemanticVersion("1.1.0")!.satisfies(SemanticVersion("1.2.0")!))
    #expect(!SemanticVersion("2.0.0")!.satisfies(SemanticVersion("1.2.0")!))
    #expect(SemanticVersion("0.2.3")!.satisfies(SemanticVersion("0.2.0")!))
    #expect(!SemanticVersion("0.3.0")!.satisfies(SemanticVersion("0.2.0")!))
  }
}

@Suite("Plugin sets: discovery order, failures left out, clashes named")
struct PluginSetTests {
  @Test("--plugin folders first, then plugins/ beside the screen, then the search path; repeats once")
  func discovery() throws {
    let screens = FileManager.default.temporaryDirectory.appendingPathComponent("ss-plugins-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: screens) }
    let beside = screens.appendingPathComponent("plugins")
    try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: pluginFixture("rating"), toPath: beside.appendingPathComponent("rating").path)
    let screen = screens.appendingPathComponent("cart.lua").path
    let folders = PluginSet.folders(
      explicit: [pluginFixture("analytics")], screen: screen,
      environment: [PluginSet.pathVariable: "\(pluginFixture("wrong_api")):\(pluginFixture("analytics"))"])
    #expect(folders.map { ($0 as NSString).lastPathComponent } == ["analytics", "rating", "wrong_api"])
  }

  @Test("a broken plugin is reported and left out; the others load; a clash names both plugins")
  func isolation() throws {
    let set = PluginSet.load(
      explicit: ["analytics", "bad_syntax", "rating", "wrong_api", "rating_copy"].map(pluginFixture), environment: [:],
      hostAPI: host, grants: analyticsGrant)
    #expect(set.plugins.map(\.name) == ["analytics", "rating"])
    #expect(set.problems.map(\.plugin) == ["bad_syntax", "wrong_api", "rating2"])
    #expect(set.problems[2].message.hasPrefix("the component 'stars' is provided by both 'rating' ("))
    #expect(set.components.keys.sorted() == ["stars"])
  }
}

@Suite("Plugin modules: required under the plugin's name, only those the manifest names")
@MainActor
struct PluginModuleTests {
  func screenFixture(_ name: String) -> String {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/\(name)").path
  }

  @Test("a screen requires a plugin's module by <plugin>.<module>; without the plugin it is not found")
  func requireModule() throws {
    let set = PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: analyticsGrant)
    #expect(set.modules.keys.sorted() == ["analytics.events"])
    var options = LuaScreen.Options()
    options.modules = set.modules
    let screen = try LuaScreen(path: screenFixture("uses_analytics.lua"), options: options)
    try screen.tap("go")
    #expect(screen.state["last"] == "screen.go")
    let without = #expect(throws: ScriptError.self) { try LuaScreen(path: self.screenFixture("uses_analytics.lua")) }
    #expect(without?.line == 2)
    #expect(without?.message.contains("module 'analytics.events' not found") == true)
  }

  @Test("a file of the plugin that the manifest does not name cannot be required; a named module that is missing is a manifest error")
  func onlyNamedModules() throws {
    let set = PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: analyticsGrant)
    let runtime = try LuaRuntime(configuration: .init(modules: set.modules))
    #expect(try runtime.evaluate("return require('analytics.events').name({ type = 'x' })") == ["screen.x"])
    #expect(throws: ScriptError.self) { try runtime.evaluate("return require('analytics.private')") }
    let missing = #expect(throws: PluginError.self) { try PluginManifest.load(folder: pluginFixture("missing_module"), hostAPI: host) }
    #expect(missing?.line == 6)
    #expect(missing?.message.hasPrefix("provides.modules names 'helpers', but ") == true)
  }

  @Test("a plugin's component is built with ui.<name> by a screen that does not declare it")
  func pluginComponent() throws {
    let set = PluginSet.load(explicit: [pluginFixture("rating")], environment: [:], hostAPI: host)
    var options = LuaScreen.Options()
    options.components = set.components
    let screen = try LuaScreen(path: screenFixture("rated.lua"), options: options)
    #expect((try screen.view("five.stars") as? Label)?.text == "*....")
    try screen.tap("five.more")
    #expect((try screen.view("five.stars") as? Label)?.text == "**...")
    let without = #expect(throws: ScriptError.self) { try LuaScreen(path: self.screenFixture("rated.lua")) }
    #expect(without?.message.contains("unknown view kind 'ui.stars'") == true)
    // An error inside the component names it, its plugin and the plugin's file:line.
    let failing = #expect(throws: ScriptError.self) { try LuaScreen(path: self.screenFixture("rated_badly.lua"), options: options) }
    #expect(failing?.chunk?.hasSuffix("rating/components/stars.lua") == true && failing?.line == 7)
    #expect(failing?.context?.contains("component 'bad' (stars, plugin 'rating')") == true, "\(String(describing: failing))")
  }

  @Test("middleware runs in the order the plugins were found, each changing what the next one sees")
  func ordering() throws {
    for (order, expected) in [(["first", "second"], ["one", "two"]), (["second", "first"], ["two", "one"])] {
      var options = LuaScreen.Options()
      PluginSet.load(explicit: order.map(pluginFixture), environment: [:], hostAPI: host).apply(to: &options)
      let screen = try LuaScreen(path: screenFixture("ordered.lua"), options: options)
      try screen.perform(action: "go")
      #expect(screen.state["trail"] == .table(LuaTable(sequence: expected.map(LuaValue.string))))
      #expect(screen.state["reached"] == .string(expected.map { $0 + ">" }.joined()))
    }
  }

  @Test("middleware sees each action before handle: it may pass, change or drop it; its effects are held to its capabilities")
  func middleware() async throws {
    let set = PluginSet.load(explicit: [pluginFixture("analytics")], environment: [:], hostAPI: host, grants: analyticsGrant)
    #expect(set.middleware.map(\.name) == ["record"])
    var options = LuaScreen.Options()
    set.apply(to: &options)
    let screen = try LuaScreen(path: screenFixture("recorded.lua"), options: options)
    try screen.tap("go")
    try screen.perform(action: "secret")
    try screen.perform(action: "legacy")
    #expect(screen.state["seen"] == ["go"])  // secret dropped and legacy renamed before recording
    #expect(screen.state["handled"] == ["go", "go"])  // the renamed one reached handle as go
    // analytics lists clock and net (collect.example.com, *.cdn.example.com), not timers.
    let timer = #expect(throws: ScriptError.self) { try screen.perform(action: "try-timer") }
    #expect(timer?.message.hasPrefix("plugin 'analytics' may not start timers: it does not have the 'timers' capability") == true)
    #expect(timer?.line == 6 && timer?.chunk?.hasSuffix("middleware/record.lua") == true)
    #expect(timer?.context?.contains("middleware 'record' of plugin 'analytics'") == true, "\(String(describing: timer?.context))")
    let elsewhere = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "try-fetch", "url": "https://evil.example.org/steal"])
    }
    #expect(elsewhere?.message == "plugin 'analytics' may not reach 'evil.example.org': its net capability lists collect.example.com, *.cdn.example.com")
    #expect(elsewhere?.line == 7)
    // User info before an "@" is not the host.
    let disguised = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "try-fetch", "url": "https://collect.example.com@evil.example.org/steal"])
    }
    #expect(disguised?.message.contains("may not reach 'evil.example.org'") == true, "\(String(describing: disguised))")
    try screen.perform(action: ["type": "try-fetch", "url": "https://img.cdn.example.com/a.png"])
    #expect(screen.pendingEffects == 1)
    screen.close()
    #expect(screen.state["seen"] == ["go", "try-fetch"])  // the refused events changed nothing
  }
}
