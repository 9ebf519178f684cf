import Foundation
import Testing

@testable import SendingStateLua

@Suite("The host's own code, built in from Sources/CHostCode")
struct HostCodeTests {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/CHostCode")

  /// The files in the folder that are code to build in (not the C that embeds them).
  static func filesOnDisk() throws -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    var paths: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
        !["c", "h"].contains(url.pathExtension), !url.path.contains("/include/")
      else { continue }
      paths.append(String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1)))
    }
    return paths.sorted()
  }

  @Test("every file beside HostCode.c is built in, byte for byte as it is on disk")
  func everyFileBuiltIn() throws {
    let onDisk = try Self.filesOnDisk()
    #expect(onDisk.contains("kernel/engine.lua"))
    #expect(HostCode.paths.sorted() == onDisk)
    for path in onDisk {
      let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(path))
      #expect(Data(HostCode.text(path).utf8) == bytes, "\(path) is stale in the binary")
    }
  }

  @Test("the kernel, the sandbox and the spec host are those files")
  func loadedFromTheFiles() {
    #expect(KernelEngineSource.source == HostCode.text("kernel/engine.lua"))
    #expect(KernelStateSource.source == HostCode.text("kernel/state.lua"))
    #expect(LuaSandbox.prelude == HostCode.text("sandbox/prelude.lua"))
    #expect(KernelEngineSource.source.hasPrefix("-- luacheck: std lua54"))
  }
}
