import Foundation
import SendingStateLua
import Testing

@testable import SendingStatePlugins

@Suite("Lockfiles: versions, content hashes and grants, checked at load")
struct PluginLockTests {
  @Test("SHA-256 matches the FIPS 180-2 test vectors")
  func vectors() {
    #expect(PluginDigest.sha256([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(PluginDigest.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      PluginDigest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }

  @Test("a folder's hash is its files in path order, each as path, NUL, size, NUL, bytes")
  func framing() throws {
    let folder = try scratchCopy("rating")
    defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
    var stream: [UInt8] = []
    for file in ["components/stars.lua", "plugin.lua", "units/review.lua"] {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file))))
      stream += Array(file.utf8) + [0] + Array(String(bytes.count).utf8) + [0] + bytes
    }
    #expect(try PluginDigest.folder(folder) == PluginDigest.sha256(stream))
  }

  @Test("any change to the files changes the hash, a lockfile inside too; hidden files do not count; links and other non-files are refused")
  func changes() throws {
    let folder = try scratchCopy("rating")
    defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
    let manager = FileManager.default
    func path(_ file: String) -> String { (folder as NSString).appendingPathComponent(file) }
    let original = try PluginDigest.folder(folder)
    try manager.createDirectory(atPath: path(".git"), withIntermediateDirectories: true)
    try "x".write(toFile: path(".git/HEAD"), atomically: true, encoding: .utf8)
    #expect(try PluginDigest.folder(folder) == original)
    try "{}".write(toFile: path(PluginLock.fileName), atomically: true, encoding: .utf8)
    #expect(try PluginDigest.folder(folder) != original)
    try manager.removeItem(atPath: path(PluginLock.fileName))
    let stars = try String(contentsOfFile: path("components/stars.lua"), encoding: .utf8)
    try (stars + " ").write(toFile: path("components/stars.lua"), atomically: true, encoding: .utf8)
    let edited = try PluginDigest.folder(folder)
    #expect(edited != original)
    try manager.moveItem(atPath: path("components/stars.lua"), toPath: path("components/stars2.lua"))
    #expect(try PluginDigest.folder(folder) != edited)
    try manager.moveItem(atPath: path("components/stars2.lua"), toPath: path("components/stars.lua"))
    #expect(try PluginDigest.folder(folder) == edited)
    try "".write(toFile: path("extra.lua"), atomically: true, encoding: .utf8)
    #expect(try PluginDigest.folder(folder) != edited)
    try manager.createSymbolicLink(atPath: path("inside"), withDestinationPath: path("plugin.lua"))
    let link = #expect(throws: PluginError.self) { try PluginDigest.folder(folder) }
    #expect(link?.message.hasPrefix("inside is not a regular file") == true, "\(String(describing: link))")
    try manager.removeItem(atPath: path("inside"))
    try manager.createSymbolicLink(atPath: path("passwd"), withDestinationPath: "/etc/passwd")
    let out = #expect(throws: PluginError.self) { try PluginDigest.folder(folder) }
    #expect(out?.message.hasPrefix("passwd leads outside the plugin folder") == true)
    try manager.removeItem(atPath: path("passwd"))
    // Too big is refused from the sizes, before reading (a sparse file costs nothing to make).
    #expect(manager.createFile(atPath: path("huge.bin"), contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path("huge.bin")))
    try handle.truncate(atOffset: UInt64(PluginDigest.maxBytes) + 1)
    try handle.close()
    let huge = #expect(throws: PluginError.self) { try PluginDigest.folder(folder) }
    #expect(huge?.message.hasPrefix("more than \(PluginDigest.maxBytes) bytes in ") == true)
  }

  @Test("a manifest already read runs from that text, not the file (with a lockfile, the hashed bytes)")
  func manifestFromText() throws {
    let text = try String(contentsOfFile: pluginFixture("analytics") + "/plugin.lua", encoding: .utf8)
      .replacingOccurrences(of: "Records the actions", with: "Checked text: records the actions")
    let manifest = try PluginManifest.load(folder: pluginFixture("analytics"), hostAPI: host, text: text)
    #expect(manifest.description.hasPrefix("Checked text:"))
  }

  @Test("a lockfile's text reads back as the same lock, and a broken one says what and where")
  func roundTrip() throws {
    let manifest = try PluginManifest.load(folder: pluginFixture("analytics"), hostAPI: host)
    let lock = try PluginLock.locking([manifest])
    #expect(lock.plugins["analytics"]?.capabilities == .init(net: ["collect.example.com", "*.cdn.example.com"], clock: true))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ss-lock-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try lock.text.write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try PluginLock.read(file) == lock)
    try "{\n  \"lockfile\": 1,\n  \"plugins\": { \"a\": }\n}".write(toFile: file, atomically: true, encoding: .utf8)
    let broken = #expect(throws: PluginError.self) { try PluginLock.read(file) }
    #expect(broken?.message.contains("line 3") == true, "\(String(describing: broken))")
    #expect(broken?.message.hasSuffix("write it again with sendingstate plugins lock") == true)
  }

  @Test("loading checks each plugin against the lockfile beside the screen; the lock grants what it recorded")
  @MainActor
  func loading() throws {
    let analytics = try scratchCopy("analytics")
    let root = (analytics as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: root) }
    let rating = (root as NSString).appendingPathComponent("rating")
    try FileManager.default.copyItem(atPath: pluginFixture("rating"), toPath: rating)
    let screen = (root as NSString).appendingPathComponent("screen.lua")
    func load(_ folders: [String], locked: Bool = false) -> PluginSet {
      PluginSet.load(explicit: folders, screen: screen, environment: [:], hostAPI: host, requireLock: locked)
    }
    // No lockfile: analytics needs a grant; --locked refuses everything.
    #expect(load([analytics]).plugins.isEmpty)
    #expect(load([rating], locked: true).problems.first?.message.hasPrefix("no lockfile, and --locked needs one") == true)
    // Locked: analytics loads with the capabilities it listed, granted by the lock.
    let lockPath = PluginLock.path(beside: screen)
    try PluginLock.locking([try PluginManifest.load(folder: analytics, hostAPI: host)]).text
      .write(toFile: lockPath, atomically: true, encoding: .utf8)
    let locked = load([analytics, rating], locked: true)
    #expect(locked.plugins.map(\.name) == ["analytics"] && locked.lockFile == lockPath)
    // What was checked is what runs: a module changed on disk after the check is not read again.
    var options = LuaScreen.Options()
    locked.apply(to: &options)
    let events = (analytics as NSString).appendingPathComponent("events.lua")
    let original = try String(contentsOfFile: events, encoding: .utf8)
    try "return { name = function() return 'swapped' end }".write(toFile: events, atomically: true, encoding: .utf8)
    let screenPath = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/screens/uses_analytics.lua").path
    let opened = try LuaScreen(path: screenPath, options: options)
    try opened.tap("go")
    #expect(opened.state["last"] == "screen.go")
    try original.write(toFile: events, atomically: true, encoding: .utf8)
    #expect(locked.capabilities["analytics"]?.clock == true)
    #expect(locked.problems.map(\.message) == ["it is not in \(lockPath): review it, then run sendingstate plugins lock to add it"])
    // Changed since: a byte of a module.
    try (try String(contentsOfFile: events, encoding: .utf8) + "\n").write(toFile: events, atomically: true, encoding: .utf8)
    let changed = load([analytics])
    #expect(changed.plugins.isEmpty)
    #expect(changed.problems.first?.message.hasPrefix("it changed since \(lockPath) was written (version 1.2.0; content sha256 ") == true)
    // A new version says both.
    let manifest = (analytics as NSString).appendingPathComponent("plugin.lua")
    try (try String(contentsOfFile: manifest, encoding: .utf8)).replacingOccurrences(of: "1.2.0", with: "1.3.0")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    #expect(load([analytics]).problems.first?.message.contains("(version 1.2.0 → 1.3.0;") == true)
    // A lockfile inside a plugin's folder (beside its demo) is not believed.
    let demo = (analytics as NSString).appendingPathComponent("demo.lua")
    try PluginLock.locking([try PluginManifest.load(folder: analytics, hostAPI: host)]).text
      .write(toFile: PluginLock.path(beside: demo), atomically: true, encoding: .utf8)
    let selfVouched = PluginSet.load(explicit: [analytics], screen: demo, environment: [:], hostAPI: host, requireLock: true)
    #expect(selfVouched.plugins.isEmpty)
    #expect(selfVouched.problems.first?.message.hasPrefix("ignored: it is inside the plugin folder") == true, "\(selfVouched.problems)")
    // A script that is not UTF-8 cannot run from the hashed bytes: the check fails.
    let rating2 = (root as NSString).appendingPathComponent("rating")
    try Data([0x2D, 0x2D, 0x20, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: rating2 + "/latin1.lua"))
    let besides = (root as NSString).appendingPathComponent("other/screen.lua")
    try FileManager.default.createDirectory(atPath: (besides as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try PluginLock.locking([try PluginManifest.load(folder: rating2, hostAPI: host)]).text
      .write(toFile: PluginLock.path(beside: besides), atomically: true, encoding: .utf8)
    let latin = PluginSet.load(explicit: [rating2], screen: besides, environment: [:], hostAPI: host)
    #expect(latin.problems.first?.message.hasPrefix("latin1.lua is not UTF-8 text") == true, "\(latin.problems)")
    // A lockfile that cannot be read locks every plugin out.
    try "not json".write(toFile: lockPath, atomically: true, encoding: .utf8)
    let unreadable = load([rating])
    #expect(unreadable.plugins.isEmpty && unreadable.problems.first?.plugin == "lockfile")
  }
}
