import Foundation
import SendingStateHeadless
import SendingStateLua
import Testing

@testable import SendingStatePlugins

/// Attacks on the one loader: every file of Lua code — screens, their modules, a plugin's
/// manifest, modules, components, unit renderers, middleware — is read through one function
/// with one policy (inside its root, no link out, a regular file, text, size-capped).
@Suite("One loader: no plugin file can lead outside its folder, with or without a lockfile")
@MainActor
struct LoaderAttackTests {
  /// A scratch project: `app/screen.lua` using plugin `evil` in `app/plugins/evil`, and a file
  /// outside both, `outside/secret.lua`, that a link may point to. Removed by the caller.
  struct Project {
    let root: String
    var app: String { root + "/app" }
    var plugin: String { app + "/plugins/evil" }
    var secret: String { root + "/outside/secret.lua" }
    var screen: String { app + "/screen.lua" }
  }

  func project(provides: String, screen: String) throws -> Project {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ss-loader-\(UUID().uuidString)").path
    let project = Project(root: root)
    for folder in [project.plugin + "/components", project.plugin + "/middleware", project.plugin + "/units", root + "/outside"] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    try """
      return { name = "evil", version = "1.0.0", api_version = "0.2.0", description = "links out", provides = \(provides) }
      """.write(toFile: project.plugin + "/plugin.lua", atomically: true, encoding: .utf8)
    // What a link would read: configuration that returns a token (and works as any kind of script).
    try """
      local token = "token-1234"
      return setmetatable({ token = token, layout = function(ui) return ui.label { id = "leak", text = token } end,
        configure = function() end }, { __call = function(_, action) return action end })
      """.write(toFile: project.secret, atomically: true, encoding: .utf8)
    try screen.write(toFile: project.screen, atomically: true, encoding: .utf8)
    return project
  }

  let plainScreen = """
    return { state = {}, layout = function(ui) return ui.label { id = "l" } end, configure = function() end }
    """

  /// Opens the project's screen with its plugins (no lockfile); returns the problems and the
  /// error or the render tree.
  func run(_ project: Project) -> (problems: [PluginError], outcome: Result<String, any Error>) {
    var options = LuaScreen.Options()
    let set = PluginSet.load(screen: project.screen, environment: [:], hostAPI: host)
    set.apply(to: &options)
    do {
      let screen = try LuaScreen(path: project.screen, options: options)
      defer { screen.close() }
      return (set.problems, .success(screen.renderTree().text))
    } catch {
      return (set.problems, .failure(error))
    }
  }

  func expectNoLeak(_ project: Project, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (problems, outcome) = run(project)
    if case .success(let tree) = outcome {
      #expect(!tree.contains("token-1234"), "\(what): the linked file ran", sourceLocation: sourceLocation)
    }
    var said = problems.map(\.description).joined(separator: "\n")
    if case .failure(let error) = outcome { said += "\n" + String(describing: error) }
    #expect(said.contains("outside") || said.contains("not a regular file"), "\(what): \(said)", sourceLocation: sourceLocation)
  }

  @Test("a component, unit renderer, middleware or module that is a link out of the plugin folder never runs")
  func linksOut() throws {
    for (kind, file, provides, screen) in [
      ("component", "components/badge.lua", "{ components = { \"badge\" } }",
        "return { state = {}, layout = function(ui) return ui.badge { id = \"b\" } end, configure = function() end }"),
      ("unit renderer", "units/card.lua", "{ units = { \"card\" } }", plainScreen),
      ("middleware", "middleware/spy.lua", "{ middleware = { \"spy\" } }", plainScreen),
      ("module", "util.lua", "{ modules = { \"util\" } }",
        "local u = require \"evil.util\"\nreturn { state = { t = u.token or \"\" }, layout = function(ui) return ui.label { id = \"l\" } end, configure = function(v, s) v.l.text = s.t end }"),
    ] {
      for relative in [true, false] {
        let project = try project(provides: provides, screen: screen)
        defer { try? FileManager.default.removeItem(atPath: project.root) }
        let link = project.plugin + "/" + file
        let target = relative ? String(repeating: "../", count: file.split(separator: "/").count + 2) + "outside/secret.lua" : project.secret
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        expectNoLeak(project, "\(kind) linked \(relative ? "relatively" : "absolutely")")
      }
    }
  }

  @Test("a manifest that is a link out of its folder is not read")
  func manifestLink() throws {
    let project = try project(provides: "{}", screen: plainScreen)
    defer { try? FileManager.default.removeItem(atPath: project.root) }
    try FileManager.default.removeItem(atPath: project.plugin + "/plugin.lua")
    try "return { name = \"evil\", version = \"1.0.0\", api_version = \"0.2.0\", description = \"x\", provides = {} }"
      .write(toFile: project.root + "/outside/plugin.lua", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: project.plugin + "/plugin.lua", withDestinationPath: "../../../outside/plugin.lua")
    let set = PluginSet.load(screen: project.screen, environment: [:], hostAPI: host)
    #expect(set.plugins.isEmpty)
    #expect(set.problems.first?.message.contains("outside") == true, "\(set.problems)")
  }

  @Test("a plugin file that is a FIFO or a folder is refused at once, not waited on")
  func notRegular() throws {
    let project = try project(
      provides: "{ modules = { \"util\" } }",
      screen: "local u = require \"evil.util\"\nreturn { state = {}, layout = function(ui) return ui.label { id = \"l\" } end, configure = function() end }")
    defer { try? FileManager.default.removeItem(atPath: project.root) }
    #expect(mkfifo(project.plugin + "/util.lua", 0o600) == 0)
    expectNoLeak(project, "a FIFO")
  }

  @Test("a lockfile that is a FIFO, a folder, empty or huge is an error at once that locks every plugin out; never waited on")
  func hostileLockfile() throws {
    let project = try project(provides: "{}", screen: plainScreen)
    defer { try? FileManager.default.removeItem(atPath: project.root) }
    let lock = project.app + "/" + PluginLock.fileName
    func expectRefused(_ what: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
      let set = PluginSet.load(screen: project.screen, environment: [:], hostAPI: host)
      #expect(set.plugins.isEmpty, "\(what): a plugin loaded", sourceLocation: sourceLocation)
      let problem = set.problems.first
      #expect(problem?.plugin == "lockfile" && problem?.file == lock, "\(what): \(set.problems)", sourceLocation: sourceLocation)
      #expect(problem?.message.contains(reason) == true, "\(what): \(set.problems)", sourceLocation: sourceLocation)
    }
    // (Foundation's reader refused these three without a reason, and read a sparse file whole.)
    #expect(mkfifo(lock, 0o600) == 0)
    expectRefused("a FIFO", "not a regular file")
    try FileManager.default.removeItem(atPath: lock)
    try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
    expectRefused("a folder", "a folder")
    try FileManager.default.removeItem(atPath: lock)
    // (Foundation's reader leaked a page for an empty file: scripts/sanitize.sh caught it.)
    #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
    expectRefused("an empty file", "not valid JSON")
    #expect(truncate(lock, off_t(PluginLock.maxBytes) + 1) == 0)
    expectRefused("a sparse file past the limit", "more than a lockfile may be")
  }

  @Test("a screen's own module that links out of its script root is refused (the rule the plugin loader now shares)")
  func screenModuleLink() throws {
    let project = try project(
      provides: "{}",
      screen: "local s = require \"settings\"\nreturn { state = {}, layout = function(ui) return ui.label { id = \"l\" } end, configure = function() end }")
    defer { try? FileManager.default.removeItem(atPath: project.root) }
    try FileManager.default.createSymbolicLink(atPath: project.app + "/settings.lua", withDestinationPath: "../outside/secret.lua")
    let (_, outcome) = run(project)
    guard case .failure(let error as ScriptError) = outcome else {
      Issue.record("the linked module loaded: \(outcome)")
      return
    }
    #expect(error.message.contains("outside"), "\(error)")
    #expect(error.line == 1)
  }
}
