// Fuzz target: plugin folders and lockfiles (`PluginSet.load`, `PluginManifest.load`,
// `PluginLock(json:file:)`), as a downloaded plugin and its lockfile would arrive.
//
// The input is: a byte of decisions, then the manifest's text, then (after a NUL) the
// lockfile's text, then (after another NUL) bytes choosing the plugin's other files — each
// named script a small module, missing, a folder, a FIFO, or a link (inside, or out of the
// folder to a file that must never be read) — and the grants.
//
// Invariants:
// - nothing but PluginError comes out; loading never hangs on a FIFO;
// - a plugin that loads has a valid name, version and API version, every file it provides lies
//   inside its folder, and each script it will run is exactly the text of a regular file
//   inside the folder (never the linked-to secret);
// - with a lockfile the plugin loads only when it is in the lockfile with the folder's hash;
// - what a loaded plugin may do is covered by what was granted (flags and lockfile);
// - a lockfile that reads writes back to text that reads as the same lockfile.
import Foundation
import SendingStateLua
import SendingStatePlugins

@_cdecl("LLVMFuzzerTestOneInput")
public func pluginManifestsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  MainActor.assumeIsolated { runFolder(bytes) }
  return 0
}

@MainActor
enum PluginScratch {
  static let root: String = {
    let path = NSTemporaryDirectory() + "sendingstate-plugin-fuzz-\(getpid())"
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "sendingstate-plugin-fuzz-\(getpid())") }
    return path
  }()
  static var screen: String { root + "/app/screen.lua" }
  static var plugin: String { root + "/app/plugins/p" }
  static var secret: String { root + "/secret.lua" }
  static let secretText = "return { leaked = 'token-1234' }"

  /// A fresh project: the screen, an empty plugin folder, the secret outside both.
  static func reset() {
    try? FileManager.default.removeItem(atPath: root)
    do {
      try FileManager.default.createDirectory(atPath: plugin, withIntermediateDirectories: true)
      try "return { state = {}, layout = function(ui) return ui.label {} end, configure = function() end }"
        .write(toFile: screen, atomically: false, encoding: .utf8)
      try secretText.write(toFile: secret, atomically: false, encoding: .utf8)
    } catch {
      fuzzFail("cannot prepare \(root): \(error)")
    }
  }
}

/// The names a manifest may provide that the harness makes files for.
let providedFiles = [
  "util.lua", "components/badge.lua", "units/card.lua", "middleware/spy.lua", "deep/mod.lua", "deep.lua", "components/x.lua",
]

@MainActor
func runFolder(_ bytes: [UInt8]) {
  var input = FuzzBytes(bytes)
  let decisions = input.byte()
  let rest = Array(bytes.dropFirst())
  let parts = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
  let manifest = parts.first ?? []
  let lockText = parts.count > 1 ? parts[1] : nil
  var choices = FuzzBytes(parts.count > 2 ? parts[2] : [])
  PluginScratch.reset()
  let plugin = PluginScratch.plugin
  _ = FileManager.default.createFile(atPath: plugin + "/plugin.lua", contents: Data(manifest))
  // The plugin's other files.
  var secretLinks: Set<String> = []
  for file in providedFiles {
    let path = plugin + "/" + file
    try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    switch choices.below(8) {
    case 0: break  // missing
    case 1: try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    case 2: _ = mkfifo(path, 0o600)
    case 3:
      try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: PluginScratch.secret)
      secretLinks.insert(file)
    case 4:
      let depth = file.split(separator: "/").count + 2
      try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: String(repeating: "../", count: depth) + "secret.lua")
      secretLinks.insert(file)
    case 5: try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "plugin.lua")  // inside
    default:
      let text = "return { layout = function(ui) return ui.label {} end, configure = function() end, n = \(choices.byte()) }"
      try? text.write(toFile: path, atomically: false, encoding: .utf8)
    }
  }
  // The lockfile beside the screen (as a downloaded project would bring it).
  let lockPath = PluginLock.path(beside: PluginScratch.screen)
  if let lockText { _ = FileManager.default.createFile(atPath: lockPath, contents: Data(lockText)) }
  let flags = ["p:timers", "p:clock", "p:net", "p:net=api.example.com", "p:net=*.example.com:8443", "screen:timers"]
  let grantFlags = flags.enumerated().filter { decisions & (1 << UInt8($0.offset)) != 0 }.map(\.element)
  let grants: PluginGrants
  do {
    grants = try PluginGrants(flags: grantFlags)
  } catch {
    fuzzFail("the harness's grant flags were refused: \(error)")
  }
  if fuzzVerbose { fuzzLog("manifest: \(String(decoding: manifest.prefix(500), as: UTF8.self)); grants \(grantFlags)") }

  let set = PluginSet.load(
    explicit: [plugin], screen: PluginScratch.screen, environment: [:], hostAPI: PluginSet.hostAPI, grants: grants, natives: [])
  for problem in set.problems {
    fuzzCheck(!problem.message.isEmpty, "a plugin problem without words: \(problem)")
  }
  // A lockfile that reads writes back as itself.
  var lock: PluginLock?
  if let lockText {
    if let read = try? PluginLock(json: Data(lockText), file: lockPath) {
      lock = read
      do {
        let again = try PluginLock(json: Data(read.text.utf8), file: lockPath)
        fuzzCheck(again == read, "a lockfile's text reads back differently: \(read) → \(again)")
      } catch {
        fuzzFail("a lockfile's own text does not read: \(error)\n\(read.text)")
      }
    }
  }
  guard let loaded = set.plugins.first else { return }
  checkLoaded(loaded, set: set, lock: lock, lockExists: lockText != nil, grants: grants, secretLinks: secretLinks)
}

@MainActor
func checkLoaded(
  _ manifest: PluginManifest, set: PluginSet, lock: PluginLock?, lockExists: Bool, grants: PluginGrants, secretLinks: Set<String>
) {
  let folder = PluginScratch.plugin
  fuzzCheck(manifest.name.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) != nil, "a plugin loaded with the name '\(manifest.name)'")
  fuzzCheck(manifest.apiVersion.major == PluginSet.hostAPI.major, "a plugin for API \(manifest.apiVersion) loaded")
  let files = Array(manifest.moduleFiles.values) + manifest.componentFiles.values.map(\.file) + manifest.unitFiles.values.map(\.file)
    + manifest.middleware.map(\.file)
  for file in files {
    let standardized = URL(fileURLWithPath: file).standardizedFileURL.path
    fuzzCheck(standardized.hasPrefix(folder + "/"), "plugin '\(manifest.name)' provides a file outside its folder: \(file)")
  }
  // Every script it will run is the text of a regular file inside the folder.
  for (relative, text) in manifest.checkedSources {
    fuzzCheck(!relative.hasPrefix("/") && !relative.split(separator: "/").contains(".."), "a checked source outside the folder: \(relative)")
    fuzzCheck(!secretLinks.contains(relative), "plugin '\(manifest.name)' would run \(relative), a link out of its folder")
    fuzzCheck(!text.contains("token-1234"), "plugin '\(manifest.name)' read the secret through \(relative)")
  }
  for file in files {
    let relative = String(file.dropFirst(folder.count + 1))
    fuzzCheck(manifest.checkedSources[relative] != nil, "plugin '\(manifest.name)' loaded without reading \(relative)")
  }
  if lockExists {
    guard let lock, let entry = lock.plugins[manifest.name] else {
      fuzzFail("plugin '\(manifest.name)' loaded although the lockfile does not read or does not list it")
    }
    let hash = (try? PluginDigest.folder(folder, plugin: manifest.name)) ?? "(no hash)"
    fuzzCheck(entry.sha256 == hash, "plugin '\(manifest.name)' loaded with a lockfile hash \(entry.sha256) for a folder of \(hash)")
  }
  // What it may do was granted.
  var granted = grants.plugins[manifest.name] ?? LuaScreen.Capabilities()
  if let entry = lock?.plugins[manifest.name] { granted = granted.union(entry.capabilities) }
  let allowed = set.capabilities[manifest.name] ?? LuaScreen.Capabilities()
  fuzzCheck(granted.missing(for: allowed).isEmpty, "plugin '\(manifest.name)' may do \(allowed), beyond what was granted (\(granted))")
}
