import Foundation
import SendingStateLua
import SendingStatePlugins
import SendingStateTestSupport
import Testing

@testable import SendingStateTools

/// `check`, `test` and `stubs` with plugins.
@Suite("Tools with plugins: check, test and stubs take --plugin")
struct PluginToolsTests {
  let rating = repoPath("examples/plugins/rating")
  let ratingDemo = repoPath("examples/plugins/rating/demo.lua")

  @Test("check opens screens with the plugins given; a demo in a plugin's folder opens with that plugin")
  @MainActor
  func check() throws {
    // The demo needs ui.stars: inside its plugin's folder it opens with the plugin.
    #expect(try Checker.check(paths: [repoPath("examples/plugins")], environment: [:]).isEmpty)
    // Copied elsewhere, it needs --plugin.
    let folder = try temporaryFolder("ss-check-plugin")
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("demo.lua").path
    try FileManager.default.copyItem(atPath: ratingDemo, toPath: copy)
    let without = try Checker.check(paths: [copy], environment: [:])
    #expect(without.map(\.description) == ["\(copy):13: in layout: unknown view kind 'ui.stars' (kinds: button, image, label, list, sections, segmented, slider, stack, stepper, switch, textfield, view)"])
    #expect(try Checker.check(paths: [copy], plugins: [rating], environment: [:]).isEmpty)
    // A broken plugin is a problem with its file:line; the screen is still checked.
    let broken = repoPath("Tests/SendingStatePluginsTests/Fixtures/plugins/wrong_api")
    let problems = try Checker.check(paths: [copy], plugins: [rating, broken], environment: [:])
    #expect(problems.map(\.description) == [
      "\(broken)/plugin.lua:4: plugin 'wrong_api': it was written for host API 0.1.0, and this host offers 0.2.0; use a version of the plugin made for 0.2"
    ])
  }

  @Test("check reads a plugin's manifest and compiles the files it names without running them as screens")
  @MainActor
  func checkPluginFolder() throws {
    let fixtures = repoPath("Tests/SendingStatePluginsTests/Fixtures/plugins")
    let problems = try Checker.check(paths: ["\(fixtures)/missing_unit", "\(fixtures)/rating"], environment: [:])
    #expect(problems.map(\.description) == [
      "\(fixtures)/missing_unit/plugin.lua:7: plugin 'missing_unit': provides.units names 'ghost', but \(fixtures)/missing_unit/units/ghost.lua is missing (add it, or drop the name)"
    ])
  }

}

/// Nested in the serialized end-to-end suite (one child process at a time).
extension CLIEndToEndTests {
@Suite("test and stubs with --plugin, end to end")
struct PluginCommandTests {
  let rating = repoPath("examples/plugins/rating")

  @Test("test --plugin gives every screen a spec opens the plugin; a broken one is warned about once")
  func testCommand() async throws {
    let spec = toolFixture("specs/plugin_spec.lua")
    let without = try await runCLI(["test", spec])
    #expect(without.status == 1, "\(without.stdout)\(without.stderr)")
    #expect(without.stdout.contains("unknown view kind 'ui.stars'"), "\(without.stdout)")
    let broken = repoPath("Tests/SendingStatePluginsTests/Fixtures/plugins/bad_syntax")
    let with = try await runCLI(["test", spec, "--plugin", rating, "--plugin", broken])
    #expect(with.status == 0, "\(with.stdout)\(with.stderr)")
    #expect(with.stdout.contains("1 passed, 0 failed"))
    #expect(with.stderr.components(separatedBy: "plugin left out: \(broken)/plugin.lua:4: plugin 'bad_syntax'").count == 2, "\(with.stderr)")
  }

  @Test("plugins new writes a plugin that passes plugins check, check and test as written; it never overwrites")
  func newPlugin() async throws {
    let folder = try temporaryFolder("ss-new-plugin")
    defer { try? FileManager.default.removeItem(at: folder) }
    let made = try await runCLI(["plugins", "new", "badge", "--in", folder.path])
    #expect(made.status == 0, "\(made.stderr)")
    let root = folder.appendingPathComponent("badge").path
    #expect(made.stdout.contains("created \(root)/plugin.lua\n"))
    let checked = try await runCLI(["plugins", "check", root])
    #expect(checked.status == 0 && checked.stdout == "badge 0.1.0: ok\n", "\(checked.stdout)\(checked.stderr)")
    let dry = try await runCLI(["check", root])
    #expect(dry.status == 0, "\(dry.stdout)")
    let tested = try await runCLI(["test", root])
    #expect(tested.status == 0 && tested.stdout.contains("1 passed, 0 failed"), "\(tested.stdout)\(tested.stderr)")
    let again = try await runCLI(["plugins", "new", "badge", "--in", folder.path])
    #expect(again.status == 2 && again.stderr.contains("already exists"), "\(again.stderr)")
    let builtIn = try await runCLI(["plugins", "new", "label", "--in", folder.path])
    #expect(builtIn.status == 2 && builtIn.stderr.contains("is a built-in view kind"))
    for taken in ["json", "screen"] {
      let refused = try await runCLI(["plugins", "new", taken, "--in", folder.path])
      #expect(refused.status == 2 && refused.stderr.contains("'\(taken)' is taken"), "\(refused.stderr)")
    }
    let bad = try await runCLI(["plugins", "new", "Bad-Name", "--in", folder.path])
    #expect(bad.status == 2 && bad.stderr.contains("cannot name a plugin"))
  }

  @Test("plugins lock writes the lockfile; run checks it: a changed plugin is left out, and --locked refuses to run")
  func lockAndRun() async throws {
    let folder = try temporaryFolder("ss-lock")
    defer { try? FileManager.default.removeItem(at: folder) }
    let analytics = folder.appendingPathComponent("analytics").path
    try FileManager.default.copyItem(atPath: repoPath("examples/plugins/analytics"), toPath: analytics)
    // The screen lives outside the plugin: a lockfile inside a plugin's folder is not believed.
    let demo = folder.appendingPathComponent("demo.lua").path
    try FileManager.default.copyItem(atPath: "\(analytics)/demo.lua", toPath: demo)
    let locked = try await runCLI(["plugins", "lock", "--plugin", analytics, demo])
    #expect(locked.status == 0, "\(locked.stderr)")
    #expect(locked.stdout == "locked analytics 1.0.0, granting none\nwrote \(folder.path)/plugins.lock (1 plugin)\n")
    let ran = try await runCLI(["run", demo, "--plugin", analytics, "--locked", "--send", "tap plus"])
    #expect(ran.status == 0 && ran.stdout.contains("label#report text=\"increment 1\""), "\(ran.stdout)\(ran.stderr)")
    // One byte more in a module.
    let report = "\(analytics)/report.lua"
    try (try String(contentsOfFile: report, encoding: .utf8) + "\n").write(toFile: report, atomically: true, encoding: .utf8)
    let refused = try await runCLI(["run", demo, "--plugin", analytics, "--locked", "--send", "tap plus"])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("plugin 'analytics': it changed since \(folder.path)/plugins.lock was written"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--locked: refusing to run"))
    #expect(!refused.stdout.contains("> tap plus"))
    // Without --locked the plugin is left out with the same words, and the screen runs without it
    // (here it cannot: it requires the plugin's module — and cannot reach the changed file
    // through its own folder either).
    let unlocked = try await runCLI(["run", demo, "--plugin", analytics, "--send", "tap plus"])
    #expect(unlocked.stderr.contains("warning: plugin left out: \(analytics)/plugin.lua: plugin 'analytics': it changed since"))
    #expect(unlocked.stderr.contains("module 'analytics.report' is a file of the plugin in "), "\(unlocked.stderr)")
  }

  @Test("--grant gives a plugin what it lists, and the screen what the flag says; a bad flag is a usage error")
  func grants() async throws {
    let analytics = repoPath("Tests/SendingStatePluginsTests/Fixtures/plugins/analytics")
    let screen = repoPath("Tests/SendingStatePluginsTests/Fixtures/screens/recorded.lua")
    let refused = try await runCLI(["run", screen, "--plugin", analytics, "--send", "tap go"])
    #expect(refused.stderr.contains("which was not granted: run with --grant analytics:net,clock"), "\(refused.stderr)")
    let granted = try await runCLI(["run", screen, "--plugin", analytics, "--grant", "analytics:net,clock", "--send", "tap go"])
    #expect(granted.status == 0 && granted.stderr.isEmpty, "\(granted.stderr)")
    let screenGrant = try await runCLI([
      "run", repoPath("Tests/SendingStatePluginsTests/Fixtures/screens/undeclared.lua"), "--grant", "screen:net=api.example.com",
      "--send", "tap go",
    ])
    #expect(screenGrant.status == 1 && screenGrant.stderr.contains("the screen may not start timers"), "\(screenGrant.stderr)")
    let bad = try await runCLI(["run", screen, "--grant", "analytics:files"])
    #expect(bad.status == 64 || bad.status == 2, "\(bad.status)")
    #expect(bad.stderr.contains("--grant analytics:files: 'files' is not a capability"), "\(bad.stderr)")
  }

  @Test("the README's plugin commands run as shown")
  func readmeCommands() async throws {
    let demo = try await runCLI(["run", "examples/plugins/rating/demo.lua", "--plugin", "examples/plugins/rating", "--send", "tap mine.more"])
    #expect(demo.status == 0 && demo.stdout.contains("rating: 3 → 4") && demo.stdout.contains("label#stars text=\"★★★★☆\""), "\(demo.stdout)\(demo.stderr)")
    let shop = try await runCLI([
      "run", "examples/shop/shop.lua", "--data", "examples/shop/reviews.json", "--plugin", "examples/plugins/rating", "--send", "tap bo.helpful",
    ])
    #expect(shop.status == 0 && shop.stdout.contains(#"actions: {"review":"bo","type":"helpful"}"#), "\(shop.stdout)\(shop.stderr)")
    #expect(shop.stderr.isEmpty, "\(shop.stderr)")
  }

  @Test("stubs with plugins: their components are ui builders, their folders are libraries")
  func stubs() async throws {
    let folder = try temporaryFolder("ss-stubs-plugin")
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try await runCLI(["stubs", "--out", folder.path, "--plugin", rating])
    #expect(result.status == 0, "\(result.stderr)")
    let stubs = try String(contentsOf: folder.appendingPathComponent("types/sendingstate.d.lua"), encoding: .utf8)
    #expect(stubs.contains("---@field stars fun(props: table): SSView A component of plugin 'rating' 1.0.0: "))
    let luarc = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(".luarc.json"))) as? [String: Any]
    #expect((luarc?["workspace.library"] as? [String])?.last == repoPath("examples/plugins"))
    // Still valid Lua.
    let luac = try ChildProcess(executable: "/usr/bin/luac5.4", arguments: ["-p", "types/sendingstate.d.lua"], directory: folder.path)
    luac.send("")
    #expect(await luac.wait() == 0, "\(luac.errors)")
  }
}
}

@Suite("Reloading a screen finds its plugins again")
@MainActor
struct PluginReloadTests {
  @Test("a plugin removed since is unloaded on reload, and a changed one is read anew; the state is kept")
  func reload() throws {
    let folder = try temporaryFolder("ss-reload-plugins")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plugin = folder.appendingPathComponent("plugins/analytics").path
    try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("plugins").path, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: repoPath("examples/plugins/analytics"), toPath: plugin)
    let screen = folder.appendingPathComponent("counter.lua").path
    try """
      return {
        state = { count = 0, analytics = {} },
        schema = { count = "integer", analytics = "table" },
        layout = function(ui) return ui.stack { ui.button { id = "plus", title = "+" } } end,
        configure = function() end,
        events = function(view, on) on(view.plus, "touchUpInside", function() return "increment" end) end,
        handle = function(action, store) store:update(function(s) s.count = s.count + 1 end) end,
      }
      """.write(toFile: screen, atomically: true, encoding: .utf8)
    let request = PluginRequest(environment: [:])
    var options = LuaScreen.Options()
    request.load(screen: screen).apply(to: &options)
    let session = try ScreenSession(path: screen, options: options, plugins: request)
    _ = try session.apply(try EventCommand(parsing: "tap plus"))
    #expect(session.screen.state["analytics"] == ["increment": 1])
    // Removed: its middleware no longer runs.
    let aside = folder.appendingPathComponent("analytics-aside").path
    try FileManager.default.moveItem(atPath: plugin, toPath: aside)
    try session.reload()
    _ = try session.apply(try EventCommand(parsing: "tap plus"))
    #expect(session.screen.state["count"] == 2 && session.screen.state["analytics"] == ["increment": 1])
    // Back, changed: the new middleware counts by ten.
    try FileManager.default.moveItem(atPath: aside, toPath: plugin)
    let record = plugin + "/middleware/record.lua"
    try (try String(contentsOfFile: record, encoding: .utf8)).replacingOccurrences(of: "or 0) + 1", with: "or 0) + 10")
      .write(toFile: record, atomically: true, encoding: .utf8)
    try session.reload()
    _ = try session.apply(try EventCommand(parsing: "tap plus"))
    #expect(session.screen.state["count"] == 3 && session.screen.state["analytics"] == ["increment": 11])
    #expect(session.pluginProblems.isEmpty)
    // With --locked, a reload whose plugins do not match the lockfile keeps the old screen.
    let strict = try ScreenSession(path: screen, options: options, plugins: PluginRequest(requireLock: true, environment: [:]))
    #expect(throws: ToolError.self) { try strict.reload() }
    #expect(strict.pluginProblems.first?.message.hasPrefix("no lockfile, and --locked needs one") == true)
    _ = try strict.apply(try EventCommand(parsing: "tap plus"))
    #expect(strict.screen.state["count"] == 1)
  }
}

@Suite("Watching a screen watches its --plugin folders too")
@MainActor
struct PluginWatchTests {
  final class Lines { var all: [String] = [] }

  @Test("a change in a --plugin folder elsewhere reloads the screen")
  func watchesPluginFolders() async throws {
    let folder = try temporaryFolder("ss-watch-plugins")
    defer { try? FileManager.default.removeItem(at: folder) }
    let vendor = folder.appendingPathComponent("vendor/analytics").path
    try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("vendor").path, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: repoPath("examples/plugins/analytics"), toPath: vendor)
    let app = folder.appendingPathComponent("app").path
    try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    let screen = app + "/demo.lua"
    try FileManager.default.copyItem(atPath: vendor + "/demo.lua", toPath: screen)
    let request = PluginRequest(explicit: [vendor], environment: [:])
    var options = LuaScreen.Options()
    request.load(screen: screen).apply(to: &options)
    let session = try ScreenSession(path: screen, options: options, plugins: request)
    let lines = Lines()
    let watching = Task { @MainActor in
      try await Watcher.watch(
        session: session, printTree: false, interval: .milliseconds(20), limit: 1, output: { lines.all.append($0) },
        errors: { lines.all.append($0) })
    }
    while !lines.all.contains(where: { $0.hasPrefix("watching") }) { try await Task.sleep(for: .milliseconds(10)) }
    #expect(lines.all.first == "watching \(app), \(vendor) for changes (Ctrl-C to stop)")
    let report = vendor + "/report.lua"
    try (try String(contentsOfFile: report, encoding: .utf8)).replacingOccurrences(of: "nothing yet", with: "no actions yet")
      .write(toFile: report, atomically: true, encoding: .utf8)
    // A bound, not a timing: the watcher polls every 20 ms.
    let deadline = ContinuousClock.now + .seconds(60)
    while !lines.all.contains(where: { $0.hasPrefix("reloaded") }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    watching.cancel()
    #expect(lines.all.contains("reloaded \(screen) (state kept)"), "\(lines.all)")
    #expect(session.screen.renderTree().text.contains("label#report text=\"no actions yet\""))
  }
}
