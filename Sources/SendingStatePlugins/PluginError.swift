/// Why a plugin was not loaded: which plugin, where (file:line when known), what is wrong and
/// how to fix it. The host reports it and goes on without that plugin.
public struct PluginError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The plugin's name, or its folder when the name is not known yet.
  public var plugin: String
  /// The file at fault (usually the manifest, `…/plugin.lua`).
  public var file: String
  /// The line in `file`, when known.
  public var line: Int?
  /// What is wrong, and how to fix it.
  public var message: String

  /// Creates an error.
  public init(plugin: String, file: String, line: Int? = nil, message: String) {
    self.plugin = plugin
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: plugin 'name': message`.
  public var description: String {
    "\(file)\(line.map { ":\($0)" } ?? ""): plugin '\(plugin)': \(message)"
  }
}
