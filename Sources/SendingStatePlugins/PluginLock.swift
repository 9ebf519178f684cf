import Foundation
import SendingStateLua

/// A lockfile, `plugins.lock` beside a screen: for each plugin the screen runs with, the version
/// and content hash that were reviewed, and the capabilities the user granted it by locking.
/// `sendingstate plugins lock` writes it; loading checks every plugin against it.
///
/// ```json
/// {
///   "lockfile": 1,
///   "plugins": {
///     "analytics": { "version": "1.0.0", "sha256": "9f2c…", "timers": false, "clock": true, "net": ["collect.example.com"] }
///   }
/// }
/// ```
public struct PluginLock: Sendable, Equatable {
  /// What was locked of one plugin.
  public struct Entry: Sendable, Equatable {
    /// Its version.
    public var version: SemanticVersion
    /// ``PluginDigest/folder(_:plugin:)`` of its folder.
    public var sha256: String
    /// The capabilities granted to it (what its manifest listed when it was locked).
    public var capabilities: LuaScreen.Capabilities

    /// Creates an entry.
    public init(version: SemanticVersion, sha256: String, capabilities: LuaScreen.Capabilities) {
      self.version = version
      self.sha256 = sha256
      self.capabilities = capabilities
    }
  }

  /// The locked plugins, by name.
  public var plugins: [String: Entry]

  /// The lockfile's name beside a screen.
  public static let fileName = "plugins.lock"
  /// The format version this host reads and writes.
  public static let formatVersion = 1

  /// Creates a lockfile.
  public init(plugins: [String: Entry] = [:]) {
    self.plugins = plugins
  }

  /// `plugins.lock` in the folder of `screen`.
  public static func path(beside screen: String) -> String {
    let folder = (screen as NSString).deletingLastPathComponent
    return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(fileName)
  }

  /// Locks the plugins of `set`: each one's version, content hash and listed capabilities.
  ///
  /// - Throws: ``PluginError`` when a folder cannot be hashed.
  public static func locking(_ manifests: [PluginManifest]) throws(PluginError) -> PluginLock {
    var lock = PluginLock()
    for manifest in manifests {
      lock.plugins[manifest.name] = Entry(
        version: manifest.version, sha256: try PluginDigest.folder(manifest.folder, plugin: manifest.name),
        capabilities: manifest.requested)
    }
    return lock
  }

  /// Reads the lockfile at `path`.
  ///
  /// - Throws: ``PluginError`` (plugin `lockfile`) saying what is wrong with the file, with its
  ///   line and column for text that is not JSON.
  public static func read(_ path: String) throws(PluginError) -> PluginLock {
    let bytes: [UInt8]
    do throws(FileBytes.Refusal) {
      bytes = try FileBytes.read(path, maxBytes: maxBytes, what: "a lockfile")
    } catch {
      throw PluginError(
        plugin: "lockfile", file: path, message: "cannot read the lockfile: \(error.reason); write it again with sendingstate plugins lock")
    }
    return try PluginLock(json: Data(bytes), file: path)
  }

  /// The largest lockfile read (1 MiB: thousands of plugins' entries).
  public static let maxBytes = 1 << 20

  /// Reads a lockfile's text (the one decoder of lockfiles; `file` is named in errors).
  ///
  /// - Throws: ``PluginError`` (plugin `lockfile`) saying what is wrong, with the line and
  ///   column for text that is not JSON.
  public init(json data: Data, file path: String) throws(PluginError) {
    func problem(_ message: String) -> PluginError {
      PluginError(plugin: "lockfile", file: path, message: message + "; write it again with sendingstate plugins lock")
    }
    let value: LuaValue
    do throws(LuaBridgeError) {
      value = try LuaValue(json: data, root: Self.fileName)
    } catch {
      throw problem(error.description)
    }
    guard value["lockfile"].intValue == Self.formatVersion else {
      throw problem("not a lockfile this host reads (\"lockfile\": \(Self.formatVersion) expected)")
    }
    guard let table = value["plugins"].tableValue, table.sequence.isEmpty else {
      throw problem("\"plugins\" must be an object of plugins by name")
    }
    var lock = PluginLock()
    for (name, entry) in table.fields {
      guard let versionText = entry["version"].stringValue, let version = SemanticVersion(versionText),
        let hash = entry["sha256"].stringValue, hash.count == 64, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
      else {
        throw problem("the entry of '\(name)' needs a semantic \"version\" and a \"sha256\" of 64 hex digits")
      }
      var capabilities = LuaScreen.Capabilities(timers: entry["timers"] == .boolean(true), clock: entry["clock"] == .boolean(true))
      if entry["net"] != .nil {
        guard let hosts = entry["net"].tableValue, hosts.fields.isEmpty,
          hosts.sequence.allSatisfy({ $0.stringValue.map(LuaScreen.Capabilities.isHostPattern) ?? false })
        else { throw problem("\"net\" of '\(name)' must be a list of host names") }
        capabilities.net = hosts.sequence.compactMap(\.stringValue)
      }
      lock.plugins[name] = Entry(version: version, sha256: hash, capabilities: capabilities)
    }
    self = lock
  }

  /// The lockfile's text: JSON, keys sorted, one plugin per line (stable under version control).
  public var text: String {
    func quoted(_ text: String) -> String {
      "\"" + text.unicodeScalars.map { scalar -> String in
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
        default: String(scalar)
        }
      }.joined() + "\""
    }
    let lines = plugins.keys.sorted().map { name -> String in
      let entry = plugins[name]!
      var fields = [
        "\"clock\": \(entry.capabilities.clock)", "\"sha256\": \(quoted(entry.sha256))",
        "\"timers\": \(entry.capabilities.timers)", "\"version\": \(quoted(entry.version.description))",
      ]
      if let net = entry.capabilities.net { fields.insert("\"net\": [\(net.map(quoted).joined(separator: ", "))]", at: 1) }
      return "    \(quoted(name)): { \(fields.joined(separator: ", ")) }"
    }
    return "{\n  \"lockfile\": \(Self.formatVersion),\n  \"plugins\": {\n" + lines.joined(separator: ",\n")
      + (lines.isEmpty ? "" : "\n") + "  }\n}\n"
  }
}
