import Foundation
import SendingStateLua
import SendingStatePlugins

/// `sendingstate plugins new NAME`: a new plugin folder that passes `plugins check`, `check`
/// and `test` as written — a manifest, a component, a demo screen that uses it, and a spec.
///
/// ```swift
/// let written = try PluginTemplate.write(name: "badge", into: "plugins")   // plugins/badge/…
/// ```
public enum PluginTemplate {
  /// The files of plugin `name`, by path inside its folder.
  public static func files(name: String) -> [(String, String)] {
    [
      ("plugin.lua", template("plugin.lua", name: name)), ("components/\(name).lua", template("component.lua", name: name)),
      ("demo.lua", template("demo.lua", name: name)), ("\(name)_spec.lua", template("plugin_spec.lua", name: name)),
    ]
  }

  /// The template file `file` (Sources/CHostCode/templates/plugin) for plugin `name`: its
  /// placeholders are `PLUGIN_NAME` and `API_VERSION`. (A plugin's name is an identifier, so
  /// it cannot change the Lua around it.)
  static func template(_ file: String, name: String) -> String {
    HostCode.text("templates/plugin/" + file)
      .replacingOccurrences(of: "PLUGIN_NAME", with: name)
      .replacingOccurrences(of: "API_VERSION", with: LuaScreen.apiVersion)
  }

  /// Writes plugin `name` into `folder/name/`; never overwrites.
  ///
  /// - Returns: the paths written.
  /// - Throws: ``ToolError/usage(_:)`` for a name a plugin cannot have, an existing folder, or
  ///   a folder that cannot be written.
  @MainActor
  public static func write(name: String, into folder: String) throws -> [String] {
    guard ManifestReader.isIdentifier(name) else {
      throw ToolError.usage("'\(name)' cannot name a plugin: use lower case letters, digits and _, starting with a letter")
    }
    if name == PluginGrants.screenName || BuiltInPlugins.all.contains(where: { $0.name == name }) {
      throw ToolError.usage("'\(name)' is taken (a built-in plugin, or the name --grant uses for the screen); pick another name")
    }
    if LuaHostAPI.viewKinds.contains(where: { $0.name == name }) {
      throw ToolError.usage("'\(name)' is a built-in view kind (ui.\(name)); pick another name for the plugin's component")
    }
    let root = (folder as NSString).appendingPathComponent(name)
    guard !FileManager.default.fileExists(atPath: root) else {
      throw ToolError.usage("'\(root)' already exists; plugins new never overwrites (pick another name or folder)")
    }
    var written: [String] = []
    do {
      for (file, text) in files(name: name) {
        let path = (root as NSString).appendingPathComponent(file)
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        written.append(path)
      }
    } catch {
      throw ToolError.usage("cannot write into '\(root)' (\(error.localizedDescription))")
    }
    return written
  }
}
