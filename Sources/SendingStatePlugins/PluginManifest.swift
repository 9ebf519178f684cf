import Foundation
import SendingStateLua

/// A plugin package's manifest: the table its `plugin.lua` returns.
///
/// ```lua
/// -- analytics/plugin.lua
/// return {
///   name = "analytics", version = "1.2.0", api_version = "0.2.0",
///   description = "Records the actions a screen handles.",
///   provides = { modules = { "events" }, middleware = { "record" } },
///   capabilities = { "clock", net = { "collect.example.com" } },
/// }
/// ```
///
/// The manifest runs as untrusted code: in the sandbox, under tight limits (a few milliseconds,
/// a few megabytes), with nothing but data to return.
public struct PluginManifest: Equatable, Sendable {
  /// What a plugin adds to the host.
  public struct Provides: Equatable, Sendable {
    /// Lua modules, required as `<plugin name>.<module>` (files `<module>.lua` in the folder).
    public var modules: [String] = []
    /// `ui.<name>` builders.
    public var components: [String] = []
    /// Server-driven unit renderers, by `unitType`.
    public var units: [String] = []
    /// Middleware around dispatch, in the order they run.
    public var middleware: [String] = []
  }

  /// The plugin's name: lower case letters, digits and `_`, starting with a letter.
  public var name: String
  /// The plugin's own version.
  public var version: SemanticVersion
  /// The host API version the plugin was written for.
  public var apiVersion: SemanticVersion
  /// One line for `plugins list`.
  public var description: String
  /// What it adds.
  public var provides: Provides
  /// What it needs beyond computing.
  public var capabilities: [PluginCapability]
  /// The plugin's folder.
  public var folder: String
  /// The text of its files as hashed when a lockfile was checked (by path inside the folder):
  /// then its scripts run from this text, not from the disk again. Empty without a lockfile.
  public var checkedSources: [String: String] = [:]

  /// The checked text of the file at `path` (absolute, inside the folder), if any.
  func checkedSource(_ path: String) -> String? {
    guard !checkedSources.isEmpty else { return nil }
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    guard path.hasPrefix(prefix) else { return nil }
    return checkedSources[String(path.dropFirst(prefix.count))]
  }

  /// Reads every script the manifest names through the one loader (``ScriptFile``: inside the
  /// folder once links are followed, regular UTF-8 files of bounded size), by path inside the
  /// folder.
  ///
  /// - Throws: ``PluginError`` naming the first file that cannot be read, and why.
  func readScripts() throws(PluginError) -> [String: String] {
    var files = Array(moduleFiles.values) + componentFiles.values.map(\.file) + unitFiles.values.map(\.file) + middleware.map(\.file)
    files.sort()
    var texts: [String: String] = [:]
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    for file in files {
      do {
        texts[String(file.dropFirst(prefix.count))] = try ScriptFile.read(file, root: folder)
      } catch {
        throw PluginError(plugin: name, file: file, message: error.message)
      }
    }
    return texts
  }

  /// The files of the modules it provides, by the name scripts require
  /// (`"analytics.events"` → `…/analytics/events.lua`).
  public var moduleFiles: [String: String] {
    Dictionary(
      uniqueKeysWithValues: provides.modules.map { module in
        (name + "." + module, (folder as NSString).appendingPathComponent(module.replacingOccurrences(of: ".", with: "/") + ".lua"))
      })
  }

  /// The files of the components it provides, by the name `ui.<name>` builds
  /// (`"stars"` → `…/rating/components/stars.lua`).
  public var componentFiles: [String: LuaScreen.PluginScript] { scripts(provides.components, in: "components") }

  /// The files of the unit renderers it provides, by unit type
  /// (`"review"` → `…/rating/units/review.lua`).
  public var unitFiles: [String: LuaScreen.PluginScript] { scripts(provides.units, in: "units") }

  private func script(_ file: String) -> LuaScreen.PluginScript {
    LuaScreen.PluginScript(file: file, plugin: name, source: checkedSource(file))
  }

  private func scripts(_ names: [String], in subfolder: String) -> [String: LuaScreen.PluginScript] {
    Dictionary(
      uniqueKeysWithValues: names.map { name in
        (name, script((folder as NSString).appendingPathComponent("\(subfolder)/\(name).lua")))
      })
  }

  /// Its middleware as the screen runs them (`…/middleware/<name>.lua`), in the manifest's
  /// order; their effects are held to the plugin's capabilities.
  public var middleware: [LuaScreen.Middleware] {
    provides.middleware.map { name in
      let file = (folder as NSString).appendingPathComponent("middleware/\(name).lua")
      return LuaScreen.Middleware(name: name, plugin: self.name, file: file, source: checkedSource(file))
    }
  }

  /// The capabilities it lists, as the screen enforces them (`storage` has no part there).
  public var requested: LuaScreen.Capabilities {
    var result = LuaScreen.Capabilities()
    for capability in capabilities {
      switch capability {
      case .timers: result.timers = true
      case .clock: result.clock = true
      case .net(let hosts): result.net = (result.net ?? []) + hosts
      case .storage: break
      }
    }
    return result
  }

  /// The manifest's file name in a plugin folder.
  public static let fileName = "plugin.lua"

  /// The limits a manifest runs under.
  static var limits: LuaRuntime.Limits {
    LuaRuntime.Limits(
      memoryLimit: 8 << 20, instructionBudget: 1_000_000, timeLimit: .milliseconds(200), maxStringBytes: 1 << 20,
      maxNodes: 10_000, maxOutputBytes: 0)
  }

  /// Reads and checks the manifest of the plugin in `folder` for a host offering `hostAPI`.
  ///
  /// - Throws: ``PluginError`` naming the plugin (or its folder), the manifest's file and, when
  ///   the problem is a field, the line that sets it.
  ///
  /// - Parameters:
  ///   - folder: the plugin's folder (holding `plugin.lua`).
  ///   - hostAPI: the host API version the manifest's `api` must accept.
  ///   - text: the manifest's text when it was already read (and hashed); `nil`: read the file.
  public static func load(folder: String, hostAPI: SemanticVersion, text: String? = nil) throws(PluginError) -> PluginManifest {
    let file = (folder as NSString).appendingPathComponent(fileName)
    let folderName = (folder as NSString).lastPathComponent
    let exists = FileManager.default.fileExists(atPath: file) || (try? FileManager.default.destinationOfSymbolicLink(atPath: file)) != nil
    guard text != nil || exists else {
      throw PluginError(plugin: folderName, file: file, message: "no \(fileName) in \(folder) (a plugin folder starts with one)")
    }
    let value: LuaValue
    let source: String
    do {
      // Read once, by the one loader (inside the folder, a regular text file), or the text a
      // lockfile check hashed.
      source = try text ?? ScriptFile.read(file, root: folder)
      let runtime = try LuaRuntime(configuration: .init(limits: limits))
      runtime.output = { _ in }
      let results = try runtime.call(try runtime.load(source, chunkName: file), context: "the plugin manifest")
      value = results.first ?? .nil
    } catch let error as ScriptError {
      throw PluginError(plugin: folderName, file: file, line: error.line, message: error.message)
    } catch {
      throw PluginError(plugin: folderName, file: file, message: "\(error)")
    }
    var reader = ManifestReader(value: value, file: file, source: source, plugin: folderName)
    return try reader.manifest(folder: folder, hostAPI: hostAPI)
  }
}

/// Reads the fields of a manifest table, naming the line of a field that is wrong.
package struct ManifestReader {
  let value: LuaValue
  let file: String
  let source: String
  var plugin: String

  /// The first line that sets `field` (`field =`), for errors.
  func line(of field: String) -> Int? {
    for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let range = text.range(of: field), text[range.upperBound...].trimmingCharacters(in: .whitespaces).hasPrefix("=") {
        let before = text[..<range.lowerBound].last
        if before == nil || !(before!.isLetter || before!.isNumber || before! == "_") { return index + 1 }
      }
    }
    return nil
  }

  func problem(_ field: String?, _ message: String) -> PluginError {
    PluginError(plugin: plugin, file: file, line: field.flatMap(line(of:)), message: message)
  }

  func string(_ field: String, example: String) throws(PluginError) -> String {
    guard let text = value[field].stringValue, !text.isEmpty else {
      throw problem(field, "the manifest needs \(field) = \"…\" (a string, like \(example))")
    }
    return text
  }

  func names(_ table: LuaValue, _ field: String, pattern: (String) -> Bool, what: String) throws(PluginError) -> [String] {
    if table[field] == .nil { return [] }
    guard let list = table[field].tableValue, list.fields.isEmpty else {
      throw problem(field, "provides.\(field) must be a list of names, like { \"one\", \"two\" }")
    }
    var names: [String] = []
    for item in list.sequence {
      guard let name = item.stringValue, pattern(name) else {
        throw problem(field, "provides.\(field) has \(Self.shown(item)) where \(what) should be")
      }
      guard !names.contains(name) else { throw problem(field, "provides.\(field) names '\(name)' twice") }
      names.append(name)
    }
    return names
  }

  /// A value as a manifest's author wrote it: strings quoted.
  static func shown(_ value: LuaValue) -> String {
    switch value {
    case .string(let text): "\"\(text)\""
    case .integer(let number): "\(number)"
    case .number(let number): "\(number)"
    case .boolean(let flag): "\(flag)"
    default: "a \(value.typeName)"
    }
  }

  package static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
  }

  mutating func manifest(folder: String, hostAPI: SemanticVersion) throws(PluginError) -> PluginManifest {
    guard value.tableValue != nil else {
      throw problem(nil, "plugin.lua must return a table (name, version, api_version, description, provides, capabilities)")
    }
    let name = try string("name", example: "\"analytics\"")
    guard Self.isIdentifier(name) else {
      throw problem("name", "name '\(name)' is not allowed: use lower case letters, digits and _, starting with a letter")
    }
    guard name != PluginGrants.screenName else {
      throw problem("name", "name 'screen' is taken (--grant screen:… grants the screen's own code); pick another")
    }
    plugin = name
    let versionText = try string("version", example: "\"1.0.0\"")
    guard let version = SemanticVersion(versionText) else {
      throw problem("version", "version '\(versionText)' is not a semantic version (write MAJOR.MINOR.PATCH, like 1.0.0)")
    }
    let apiText = try string("api_version", example: "\"\(hostAPI)\"")
    guard let apiVersion = SemanticVersion(apiText) else {
      throw problem("api_version", "api_version '\(apiText)' is not a semantic version (write the host API it was written for, like \(hostAPI))")
    }
    guard hostAPI.satisfies(apiVersion) else {
      throw problem(
        "api_version",
        "it was written for host API \(apiVersion), and this host offers \(hostAPI); use a version of the plugin made for \(hostAPI.major).\(hostAPI.minor)")
    }
    let description = try string("description", example: "\"what it does, in one line\"")

    var provides = PluginManifest.Provides()
    let offered = value["provides"]
    if offered != .nil {
      guard let table = offered.tableValue, table.sequence.isEmpty else {
        throw problem("provides", "provides must be a table like { modules = { … }, components = { … } }")
      }
      let known = ["components", "middleware", "modules", "units"]
      if let stray = table.fields.keys.sorted().first(where: { !known.contains($0) }) {
        throw problem("provides", "provides.\(stray) is not something a plugin provides (\(known.joined(separator: ", ")))")
      }
      let moduleName: (String) -> Bool = { $0.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { Self.isIdentifier(String($0)) } }
      provides.modules = try names(offered, "modules", pattern: moduleName, what: "a module name (like \"events\" or \"ui.card\")")
      provides.components = try names(offered, "components", pattern: Self.isIdentifier, what: "a component name (like \"rating\")")
      provides.units = try names(offered, "units", pattern: Self.isIdentifier, what: "a unit type (like \"rating\")")
      provides.middleware = try names(offered, "middleware", pattern: Self.isIdentifier, what: "a middleware name")
    }

    var capabilities: [PluginCapability] = []
    let asked = value["capabilities"]
    if asked != .nil {
      guard let table = asked.tableValue else {
        throw problem("capabilities", "capabilities must be a table like { \"timers\", net = { \"api.example.com\" } }")
      }
      for item in table.sequence {
        guard let capability = item.stringValue, PluginCapability.names.contains(capability), capability != "net" else {
          throw problem(
            "capabilities",
            "capability \(Self.shown(item)) is unknown (capabilities: \(PluginCapability.names.joined(separator: ", ")); net lists its hosts: net = { \"api.example.com\" })")
        }
        capabilities.append(capability == "timers" ? .timers : capability == "clock" ? .clock : .storage)
      }
      for (key, field) in table.fields.sorted(by: { $0.key < $1.key }) {
        guard key == "net" else {
          throw problem("capabilities", "capability '\(key)' is unknown (capabilities: \(PluginCapability.names.joined(separator: ", ")))")
        }
        guard let hosts = field.tableValue, hosts.fields.isEmpty, !hosts.sequence.isEmpty,
          hosts.sequence.allSatisfy({ $0.stringValue.map(LuaScreen.Capabilities.isHostPattern) ?? false })
        else {
          throw problem("net", "net must list the hosts the plugin may reach, like net = { \"api.example.com\", \"*.cdn.example.com\" }")
        }
        capabilities.append(.net(hosts: hosts.sequence.compactMap(\.stringValue)))
      }
    }
    let manifest = PluginManifest(
      name: name, version: version, apiVersion: apiVersion, description: description, provides: provides,
      capabilities: capabilities, folder: folder)
    for (field, files) in [("components", manifest.componentFiles), ("units", manifest.unitFiles)] {
      for (name, script) in files.sorted(by: { $0.key < $1.key }) where !FileManager.default.fileExists(atPath: script.file) {
        throw problem(field, "provides.\(field) names '\(name)', but \(script.file) is missing (add it, or drop the name)")
      }
    }
    for middleware in manifest.middleware where !FileManager.default.fileExists(atPath: middleware.file) {
      throw problem("middleware", "provides.middleware names '\(middleware.name)', but \(middleware.file) is missing (add it, or drop the name)")
    }
    for (module, path) in manifest.moduleFiles.sorted(by: { $0.key < $1.key }) {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
        throw problem(
          "modules", "provides.modules names '\(module.dropFirst(name.count + 1))', but \(path) is missing (add it, or drop the name)")
      }
    }
    return manifest
  }
}
