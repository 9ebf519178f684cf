import Foundation
import SendingStateHeadless
import SendingStateLua
import SendingStatePlugins

/// `sendingstate check`: compiles every script — specs included — and opens each screen in a
/// dry run.
///
/// A dry run builds the layout, validates the initial state against the schema, registers the
/// events (checking event names and sender ids) and configures once, without driving events.
/// Every problem is reported with file:line. Screens open with their plugins (`plugins`, then
/// `plugins/` beside the screen and `SENDINGSTATE_PLUGIN_PATH`, as `run` finds them). In a
/// plugin's folder, `plugin.lua` is checked as a manifest, the files it names (modules,
/// components, unit renderers, middleware) are compiled only, and any other screen (a demo)
/// opens with that plugin.
///
/// ```swift
/// let problems = await Checker.check(paths: ["examples"])
/// ```
public enum Checker {
  /// One problem in one file.
  public struct Problem: Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong (with its line when known).
    public var message: String
    /// `path: message`, or the error's own `file:line: …` description.
    public var description: String { message.hasPrefix(path) ? message : "\(path): \(message)" }
  }

  /// The `.lua` files under `paths` (files as given, folders searched, hidden folders such as
  /// `.build` and LuaLS definition files skipped): specs only, or everything but specs, sorted.
  public static func scripts(in paths: [String], specs: Bool = false) throws -> [String] {
    var found: [String] = []
    for path in paths {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        throw ToolError.usage("no such file or folder: '\(path)'")
      }
      if !isFolder.boolValue {
        found.append(path)
        continue
      }
      let files = FileManager.default.enumerator(atPath: path)
      while let file = files?.nextObject() as? String {
        if (file as NSString).lastPathComponent.hasPrefix(".") {
          files?.skipDescendants()
          continue
        }
        guard file.hasSuffix(".lua") else { continue }
        let full = (path as NSString).appendingPathComponent(file)
        if isSpec(full) == specs, !isDefinitionFile(full) { found.append(full) }
      }
    }
    return found.sorted()
  }

  /// How many scripts (specs included) ``check(paths:)`` looks at.
  public static func count(paths: [String]) -> Int {
    let all = Set(((try? scripts(in: paths)) ?? []) + ((try? scripts(in: paths, specs: true)) ?? []))
    return all.count
  }

  /// Whether `path` is a LuaLS definition file: named `*.d.lua`, its first line `---@meta`, as
  /// the stubs and the screens' types are. It describes code for the editor and never runs, so
  /// a folder's check leaves it out (a screen or spec that starts `---@meta` is still checked).
  static func isDefinitionFile(_ path: String) -> Bool {
    guard path.hasSuffix(".d.lua") else { return false }
    // (Through the one reader of outside files: a FIFO named *.lua is never waited on.)
    return ((try? FileInput.bytes(path, what: "script")) ?? []).starts(with: Array("---@meta".utf8))
  }

  /// Whether `path` names a spec file (`*_spec.lua` or `*.spec.lua`).
  public static func isSpec(_ path: String) -> Bool {
    path.hasSuffix("_spec.lua") || path.hasSuffix(".spec.lua")
  }

  /// Checks every script under `paths`, opening screens with the plugins in the folders
  /// `plugins` (and those found beside each screen and on the search path of `environment`),
  /// checked against `grants` and the lockfile beside each screen (required when `locked`);
  /// returns the problems (empty when all is well).
  @MainActor
  public static func check(
    paths: [String], plugins: [String] = [], grants: PluginGrants = PluginGrants(), locked: Bool = false,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> [Problem] {
    var problems: [Problem] = []
    var reported: Set<String> = []
    func report(_ problem: Problem) {
      if reported.insert(problem.description).inserted { problems.append(problem) }
    }
    // Specs run in busted's trusted state, not as screens: they are compiled only.
    for path in try scripts(in: paths, specs: true) where isSpec(path) {
      do {
        try ScriptPath.check(path, role: "spec")
        _ = try LuaRuntime().loadFile(path)
      } catch {
        problems.append(Problem(path: path, message: ToolError.from(error).description))
      }
    }
    for path in try scripts(in: paths) where !isSpec(path) {
      let folder = (path as NSString).deletingLastPathComponent
      if (path as NSString).lastPathComponent == PluginManifest.fileName {
        do {
          _ = try PluginManifest.load(folder: folder.isEmpty ? "." : folder, hostAPI: PluginSet.hostAPI)
        } catch {
          report(Problem(path: path, message: error.description))
        }
        continue
      }
      var ownPlugin: [String] = []
      if let plugin = pluginFolder(of: path) {
        // A screen inside a plugin's folder (a demo) opens with that plugin; the files its
        // manifest names run only inside screens, so they are compiled only.
        ownPlugin = [plugin]
      }
      if let plugin = ownPlugin.first,
        namedFiles(of: plugin).map({ $0.contains(URL(fileURLWithPath: path).standardizedFileURL.path) }) ?? true
      {
        do {
          _ = try LuaRuntime().loadFile(path)  // syntax only: the plugin's scripts run inside screens
        } catch {
          report(Problem(path: path, message: ToolError.from(error).description))
        }
        continue
      }
      do {
        try ScriptPath.check(path, role: "script")
        let runtime = try LuaRuntime(configuration: .init(scriptRoots: [folder.isEmpty ? "." : folder]))
        runtime.output = { _ in }  // a dry run: what the script prints is not a problem
        let chunk = try runtime.loadFile(path)  // syntax
        // (loadFile has checked it is readable UTF-8.)
        let source = (try? FileInput.bytes(path, what: "script")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard looksLikeScreen(runtime: runtime, chunk: chunk, source: source) else { continue }
        // A dry run: effects are refused (no timers, no network) and each event gets 0.2 s.
        var limits = LuaRuntime.Limits()
        limits.maxPendingEffects = 0
        limits.timeLimit = .milliseconds(200)
        var options = LuaScreen.Options(limits: limits, output: { _ in })
        let set = PluginSet.load(
          explicit: plugins + ownPlugin, screen: path, environment: environment, hostAPI: PluginSet.hostAPI, grants: grants,
          requireLock: locked)
        for problem in set.problems { report(Problem(path: problem.file, message: problem.description)) }
        set.apply(to: &options)
        let screen = try LuaScreen(path: path, options: options)
        // Each enabled control's common events, once, so callbacks that return nothing are
        // found; what they do is not judged (failures are the screen's own business here).
        // (At most 100 controls: each event may take its 0.2 s.)
        let controls = screen.ids.filter { ((try? screen.view($0)) as? Control)?.isEnabled == true }
        for id in controls.prefix(100) {
          for event in ["touchUpInside", "valueChanged", "editingChanged"] { _ = try? screen.send(id, event) }
        }
        problems += screen.warnings.map { Problem(path: path, message: Self.warning($0, in: path)) }
        problems += ActionComparisonLint.findings(in: source, path: path).map { Problem(path: path, message: $0) }
        screen.close()
      } catch {
        problems.append(Problem(path: path, message: ToolError.from(error).description))
      }
    }
    return problems
  }

  /// The plugin folder `path` is inside (the nearest folder above it, at most three levels up,
  /// with a `plugin.lua`), if any.
  static func pluginFolder(of path: String) -> String? {
    var folder = PathText.folder(of: path)
    for _ in 0..<3 {
      let here = folder.isEmpty ? "." : folder
      if FileManager.default.fileExists(atPath: (here as NSString).appendingPathComponent(PluginManifest.fileName)) { return here }
      // (Foundation traps on the parent of "." — there is none to look at anyway.)
      if here == "." || here == "/" { return nil }
      folder = PathText.folder(of: folder)
    }
    return nil
  }

  /// The files a plugin's manifest names (its modules, components, unit renderers and
  /// middleware), as standardized paths; every file of the folder when the manifest is broken.
  static func namedFiles(of folder: String) -> Set<String>? {
    guard let manifest = try? PluginManifest.load(folder: folder, hostAPI: PluginSet.hostAPI) else { return nil }
    let files = Array(manifest.moduleFiles.values) + manifest.componentFiles.values.map(\.file)
      + manifest.unitFiles.values.map(\.file) + manifest.middleware.map(\.file)
    return Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
  }

  /// `file:line: warning: …` for a warning that names a line of the script, `warning: …` else.
  static func warning(_ warning: String, in path: String) -> String {
    let rest = warning.dropFirst(path.count + 1)
    if warning.hasPrefix(path + ":"), let colon = rest.firstIndex(of: ":"), Int(rest[..<colon]) != nil {
      return "\(path):\(rest[..<colon]): warning:\(rest[rest.index(after: colon)...])"
    }
    return "warning: \(warning)"
  }

  /// Runs a chunk in a sandbox and tells whether it returned a screen table (`layout` and
  /// `state`; unit modules have no `state`). A chunk that fails on its own counts as a screen
  /// when its source mentions `layout`, so that opening it reports the error.
  @MainActor
  static func looksLikeScreen(runtime: LuaRuntime, chunk: LuaRef, source: String) -> Bool {
    guard let result = (try? runtime.callReturningReferences(chunk, with: [], context: "probe"))?.first else {
      return source.contains("layout")
    }
    return result.typeName == "table" && result.field("layout") != nil && result.field("state") != nil
  }
}
