import Foundation
import SendingStateLua

/// The plugins a screen runs with: found, read, checked against each other; each one that
/// fails is reported and left out, and the rest load.
///
/// Where plugins are found, in this order: the folders given with `--plugin DIR` (each a plugin
/// folder), the plugin folders inside `plugins/` beside the screen, then the folders listed in
/// `SENDINGSTATE_PLUGIN_PATH` (`:`-separated; each a plugin folder or a folder of them). A
/// plugin found twice (by name) loads from the first place.
///
/// ```swift
/// let set = PluginSet.load(explicit: ["vendor/analytics"], screen: "app/cart.lua", hostAPI: SemanticVersion("0.2.0")!)
/// set.problems.forEach { print($0) }   // the plugins left out, each with file:line
/// ```
public struct PluginSet: Sendable {
  /// The plugins that loaded, in the order found.
  public var plugins: [PluginManifest] = []
  /// Why the others did not.
  public var problems: [PluginError] = []
  /// What each loaded plugin may do (what its manifest lists: a plugin asking for more than
  /// was granted does not load).
  public var capabilities: [String: LuaScreen.Capabilities] = [:]
  /// What was granted to the screen's own code (``PluginGrants/screen``).
  public var screenCapabilities: LuaScreen.Capabilities?
  /// The lockfile the plugins were checked against, if any.
  public var lockFile: String?
  /// Every plugin folder found, loaded or left out (their files never load as the screen's).
  public var folders: [String] = []
  /// The Swift plugins in use (the built-in ones unless told otherwise).
  public var natives: [any NativePlugin] = []

  /// The modules of every plugin loaded, for `LuaScreen.Options.modules`.
  public var modules: [String: String] {
    plugins.reduce(into: [:]) { all, plugin in all.merge(plugin.moduleFiles) { first, _ in first } }
  }

  /// The components of every plugin loaded, for `LuaScreen.Options.components`.
  public var components: [String: LuaScreen.PluginScript] {
    let lua = plugins.reduce(into: [:]) { all, plugin in all.merge(plugin.componentFiles) { first, _ in first } }
    return natives.reduce(into: lua) { all, native in
      for (name, source) in native.components {
        all[name] = all[name] ?? .init(file: native.scriptName("components", name), plugin: native.name, source: source)
      }
    }
  }

  /// The unit renderers of every plugin loaded, for `LuaScreen.Options.units`.
  public var units: [String: LuaScreen.PluginScript] {
    let lua = plugins.reduce(into: [:]) { all, plugin in all.merge(plugin.unitFiles) { first, _ in first } }
    return natives.reduce(into: lua) { all, native in
      for (name, source) in native.units {
        all[name] = all[name] ?? .init(file: native.scriptName("units", name), plugin: native.name, source: source)
      }
    }
  }

  /// The middleware of every plugin loaded: Lua plugins in the order found, each plugin's in
  /// its manifest's order, then the Swift plugins'.
  public var middleware: [LuaScreen.Middleware] {
    plugins.flatMap(\.middleware)
      + natives.flatMap { native in
        native.middleware.map {
          LuaScreen.Middleware(name: $0.name, plugin: native.name, file: native.scriptName("middleware", $0.name), source: $0.source)
        }
      }
  }

  /// The Swift plugins' modules, for `LuaScreen.Options.hostModules`.
  public var hostModules: [String: [String: LuaScreen.HostFunction]] {
    natives.reduce(into: [:]) { all, native in
      for module in native.modules {
        all[module.name] = Dictionary(module.functions.map { ($0.name, $0.body) }) { first, _ in first }
      }
    }
  }

  /// The host API version plugins are checked against (`LuaScreen.apiVersion`).
  public static var hostAPI: SemanticVersion { SemanticVersion(LuaScreen.apiVersion)! }

  /// Gives a screen everything the loaded plugins provide: modules, components, unit
  /// renderers and middleware.
  public func apply(to options: inout LuaScreen.Options) {
    options.modules = modules
    options.components = components
    options.units = units
    options.middleware = middleware
    options.pluginCapabilities = capabilities
    options.hostModules = hostModules
    options.pluginFolders = folders
    options.moduleSources = plugins.reduce(into: [:]) { all, plugin in
      for (name, file) in plugin.moduleFiles {
        if let text = plugin.checkedSource(file) { all[name] = text }
      }
    }
    options.clockGatedModules = natives.reduce(into: [:]) { all, native in
      for module in native.modules {
        let gated = Set(module.functions.filter(\.readsClock).map(\.name))
        if !gated.isEmpty { all[module.name] = gated }
      }
    }
    if let screenCapabilities { options.capabilities = screenCapabilities }
  }

  /// The environment variable of the plugin search path.
  public static let pathVariable = "SENDINGSTATE_PLUGIN_PATH"

  /// The plugin folders to read, in order, without repeats.
  public static func folders(explicit: [String], screen: String?, environment: [String: String]) -> [String] {
    var found: [String] = []
    func isPlugin(_ folder: String) -> Bool {
      FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(PluginManifest.fileName))
    }
    func children(of folder: String) -> [String] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return names.sorted().map { (folder as NSString).appendingPathComponent($0) }.filter(isPlugin)
    }
    found += explicit
    if let screen {
      found += children(of: ((screen as NSString).deletingLastPathComponent as NSString).appendingPathComponent("plugins"))
    }
    for entry in (environment[pathVariable] ?? "").split(separator: ":").map(String.init) where !entry.isEmpty {
      found += isPlugin(entry) ? [entry] : children(of: entry)
    }
    var seen: Set<String> = []
    return found.filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
  }

  /// Finds and reads the plugins for `screen` (see the type's documentation), and checks each
  /// against the lockfile and the grants.
  ///
  /// - Parameters:
  ///   - explicit: plugin folders named by the user, read first.
  ///   - screen: the screen's path; the plugins in its folder's `plugins/` come next.
  ///   - environment: where ``pathVariable`` (`SENDINGSTATE_PLUGIN_PATH`, more folders) is read from.
  ///   - hostAPI: the host API version each manifest's `api` must accept (``hostAPI``).
  ///   - grants: what the user granted (`--grant`); a plugin whose manifest lists a capability
  ///     that neither these nor the lockfile grant is left out, naming it.
  ///   - lockFile: the lockfile to check against; `nil`: `plugins.lock` beside the screen, if
  ///     there is one. With a lockfile, a plugin not in it, or whose version or content
  ///     changed since, is left out, saying how to review and re-lock.
  ///   - requireLock: a missing lockfile is a problem too (`--locked`).
  ///   - enforce: check the lockfile and the grants (tools that only describe plugins — stubs,
  ///     `plugins list` — do not).
  ///   - natives: the Swift plugins to run with (the built-in `json` and `format`).
  public static func load(
    explicit: [String] = [], screen: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
    hostAPI: SemanticVersion, grants: PluginGrants = PluginGrants(), lockFile: String? = nil, requireLock: Bool = false,
    enforce: Bool = true, natives: [any NativePlugin] = BuiltInPlugins.all
  ) -> PluginSet {
    var set = PluginSet()
    set.screenCapabilities = grants.screen
    for native in natives {
      // A Swift plugin is compiled in: no manifest, lockfile or folder; what its Lua text
      // needs is granted like a Lua plugin's.
      let missing = (grants.plugins[native.name] ?? LuaScreen.Capabilities()).missing(for: native.capabilities)
      if enforce, !missing.isEmpty {
        let names = missing.map { String($0.split(separator: " ")[0]) }.joined(separator: ",")
        set.problems.append(
          PluginError(
            plugin: native.name, file: "<swift plugin \(native.name)>",
            message: "it asks for \(missing.joined(separator: ", ")), which was not granted: run with --grant \(native.name):\(names)"))
        continue
      }
      set.natives.append(native)
      set.capabilities[native.name] = native.capabilities
    }
    let explicitPaths = Set(explicit.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    let folders = folders(explicit: explicit, screen: screen, environment: environment)
    set.folders = folders
    // The lockfile.
    var lock: PluginLock?
    var lockPath = lockFile ?? screen.map(PluginLock.path(beside:))
    if let path = lockPath, let inside = folders.first(where: { contains($0, path) }) {
      // A plugin cannot vouch for itself: a lockfile inside a plugin's folder (beside a demo
      // screen it ships, say) would grant it whatever it wrote there.
      if enforce, FileManager.default.fileExists(atPath: path) {
        set.problems.append(
          PluginError(
            plugin: "lockfile", file: path,
            message: "ignored: it is inside the plugin folder \(inside), and a plugin cannot vouch for itself; lock from a screen outside it"))
      }
      lockPath = nil
    }
    if enforce, let lockPath, FileManager.default.fileExists(atPath: lockPath) {
      do {
        lock = try PluginLock.read(lockPath)
        set.lockFile = lockPath
      } catch {
        // A lockfile that cannot be read locks everything out.
        set.problems.append(error)
        return set
      }
    } else if enforce, requireLock, !folders.isEmpty {
      set.problems.append(
        PluginError(
          plugin: "lockfile", file: lockPath ?? PluginLock.fileName,
          message: "no lockfile, and --locked needs one: review the plugins, then run sendingstate plugins lock"))
      return set
    }
    for folder in folders {
      var manifest: PluginManifest
      // With a lockfile, the folder is read and hashed first, and everything — the manifest
      // too — runs from those bytes: nothing is read twice.
      var hashed: (hash: String, files: [String: Data])?
      do {
        if enforce, lock != nil { hashed = try PluginDigest.hashed(folder) }
        let text = hashed?.files[PluginManifest.fileName].map { String(validating: $0, as: UTF8.self) ?? "error('plugin.lua is not UTF-8 text')" }
        manifest = try PluginManifest.load(folder: folder, hostAPI: hostAPI, text: text)
      } catch {
        set.problems.append(error)
        continue
      }
      if let native = set.natives.first(where: { $0.name == manifest.name }) {
        set.problems.append(
          PluginError(
            plugin: manifest.name, file: (folder as NSString).appendingPathComponent(PluginManifest.fileName),
            message: "'\(native.name)' is the name of a plugin built into the host; rename this one"))
        continue
      }
      if let earlier = set.plugins.first(where: { $0.name == manifest.name }) {
        // Two copies of one plugin: the first found wins, unless both were asked for by name.
        if explicitPaths.contains(URL(fileURLWithPath: folder).standardizedFileURL.path) {
          set.problems.append(
            PluginError(
              plugin: manifest.name, file: (folder as NSString).appendingPathComponent(PluginManifest.fileName),
              message: "two plugins are named '\(manifest.name)': \(earlier.folder) and \(folder); give one --plugin, or rename one"))
        }
        continue
      }
      if let clash = set.clash(with: manifest) {
        set.problems.append(clash)
        continue
      }
      if enforce {
        let checked = check(manifest, lock: lock, lockPath: lockPath, grants: grants, hashed: hashed)
        if let problem = checked.problem {
          set.problems.append(problem)
          continue
        }
        manifest.checkedSources = checked.sources
        if lock == nil {
          // Without a lockfile, the files the manifest names are read now, by the one loader
          // (inside the folder, regular text files): a plugin with one that is not is left out,
          // and the screen runs the very text read here.
          do {
            manifest.checkedSources = try manifest.readScripts()
          } catch {
            set.problems.append(error)
            continue
          }
        }
      }
      set.plugins.append(manifest)
      set.capabilities[manifest.name] = manifest.requested
    }
    // A grant for a plugin that is not there is a typo, most likely.
    let names = set.plugins.map(\.name) + set.natives.map(\.name) + set.problems.map(\.plugin)
    for name in grants.plugins.keys.sorted() where enforce && !names.contains(name) {
      set.problems.append(
        PluginError(
          plugin: name, file: "--grant",
          message: "no plugin named '\(name)' was found to grant it to (plugins: \((set.plugins.map(\.name) + set.natives.map(\.name)).joined(separator: ", ")))"))
    }
    return set
  }

  /// Whether `path` lies inside `folder` (both standardized, links resolved).
  static func contains(_ folder: String, _ path: String) -> Bool {
    let base = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
    let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    return target.hasPrefix(base + "/")
  }

  /// Why `manifest` may not load under `lock` and `grants`, if it may not; and, checked against
  /// a lockfile, the text of its files as hashed (the scripts then run from it).
  static func check(
    _ manifest: PluginManifest, lock: PluginLock?, lockPath: String?, grants: PluginGrants,
    hashed: (hash: String, files: [String: Data])? = nil
  ) -> (problem: PluginError?, sources: [String: String]) {
    let (problem, sources) = verdict(manifest, lock: lock, lockPath: lockPath, grants: grants, hashed: hashed)
    return (problem, problem == nil ? sources : [:])
  }

  private static func verdict(
    _ manifest: PluginManifest, lock: PluginLock?, lockPath: String?, grants: PluginGrants,
    hashed known: (hash: String, files: [String: Data])?
  ) -> (PluginError?, [String: String]) {
    let file = (manifest.folder as NSString).appendingPathComponent(PluginManifest.fileName)
    func problem(_ message: String) -> (PluginError?, [String: String]) {
      (PluginError(plugin: manifest.name, file: file, message: message), [:])
    }
    var sources: [String: String] = [:]
    if manifest.capabilities.contains(.storage) {
      return problem("it asks for storage, which this host does not offer yet (host API \(LuaScreen.apiVersion)); use a version of the plugin without it")
    }
    var granted = grants.plugins[manifest.name] ?? LuaScreen.Capabilities()
    if let lock, let lockPath {
      guard let entry = lock.plugins[manifest.name] else {
        return problem("it is not in \(lockPath): review it, then run sendingstate plugins lock to add it")
      }
      let hash: String
      do {
        let hashed: (hash: String, files: [String: Data])
        if let known { hashed = known } else { hashed = try PluginDigest.hashed(manifest.folder, plugin: manifest.name) }
        hash = hashed.hash
        for (path, bytes) in hashed.files where path.hasSuffix(".lua") {
          // Every script runs from what was hashed: one that is not text cannot.
          guard let text = String(validating: bytes, as: UTF8.self) else {
            return problem("\(path) is not UTF-8 text (scripts are); fix its encoding, then run sendingstate plugins lock")
          }
          sources[path] = text
        }
      } catch {
        return (error, [:])
      }
      if hash != entry.sha256 {
        let version = entry.version == manifest.version ? "version \(manifest.version)" : "version \(entry.version) → \(manifest.version)"
        return problem(
          "it changed since \(lockPath) was written (\(version); content sha256 \(entry.sha256.prefix(12))… → \(hash.prefix(12))…): "
            + "review the change, then run sendingstate plugins lock")
      }
      granted = granted.union(entry.capabilities)
    }
    let missing = granted.missing(for: manifest.requested)
    if !missing.isEmpty {
      let names = missing.map { String($0.split(separator: " ")[0]) }
      return problem(
        "it asks for \(missing.joined(separator: ", ")), which was not granted: run with --grant \(manifest.name):\(names.joined(separator: ",")), "
          + "or grant it for good with sendingstate plugins lock")
    }
    return (nil, sources)
  }

  /// A name `manifest` provides that a plugin already loaded provides too.
  func clash(with manifest: PluginManifest) -> PluginError? {
    let kinds: [(String, KeyPath<PluginManifest.Provides, [String]>)] = [
      ("component", \.components), ("unit type", \.units), ("middleware", \.middleware),
    ]
    for other in plugins {
      for (what, path) in kinds {
        if let name = manifest.provides[keyPath: path].first(where: other.provides[keyPath: path].contains) {
          return PluginError(
            plugin: manifest.name, file: (manifest.folder as NSString).appendingPathComponent(PluginManifest.fileName),
            message: "the \(what) '\(name)' is provided by both '\(other.name)' (\(other.folder)) and '\(manifest.name)' (\(manifest.folder)); load one of them")
        }
      }
    }
    return nil
  }
}
