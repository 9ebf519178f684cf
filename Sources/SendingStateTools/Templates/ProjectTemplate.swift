import Foundation
import SendingStateLua

/// `sendingstate init [DIR]`: a new project with a screen, its spec, `.busted`, `.luarc.json`
/// (with the LuaLS stubs in `types/`) and `.luacheckrc`.
///
/// ```swift
/// let written = try ProjectTemplate.write(into: "hello")
/// ```
///
/// The screen and spec pass `sendingstate check` and `sendingstate test` as written (a test
/// runs both), so a new project starts green.
public enum ProjectTemplate {
  /// The screen: a counter.
  public static let screen = HostCode.text("templates/project/screen.lua")

  /// The spec, in busted's style.
  public static let spec = HostCode.text("templates/project/screen_spec.lua")

  /// busted's configuration: the specs live in `spec/`.
  public static let busted = HostCode.text("templates/project/busted.lua")

  /// Writes the project into `folder` (created if needed); refuses to overwrite a file.
  ///
  /// - Returns: the paths written, in order.
  @MainActor
  @discardableResult
  public static func write(into folder: String) throws -> [String] {
    let files: [(String, String)] = [
      ("screen.lua", screen), ("spec/screen_spec.lua", spec), (".busted", busted), (".luacheckrc", LuacheckConfig.text),
    ]
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
      throw ToolError.usage("'\(folder)' is a file; give a folder to create the project in")
    }
    let targets = files.map { (folder as NSString).appendingPathComponent($0.0) } + [
      (folder as NSString).appendingPathComponent(".luarc.json"),
      (folder as NSString).appendingPathComponent("\(StubGenerator.stubFolder)/sendingstate.d.lua"),
      (folder as NSString).appendingPathComponent("\(StubGenerator.stubFolder)/\(StubGenerator.screenFolder)/screen.d.lua"),
    ]
    if let existing = targets.first(where: { manager.fileExists(atPath: $0) }) {
      throw ToolError.usage("'\(existing)' already exists; init never overwrites files (pick an empty folder)")
    }
    var written: [String] = []
    do {
      for (name, text) in files {
        let path = (folder as NSString).appendingPathComponent(name)
        try manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        written.append(path)
      }
    } catch {
      throw ToolError.usage("cannot write into '\(folder)' (\(error.localizedDescription))")
    }
    // The screen's own classes too (types/screens/screen.d.lua), which its annotations name.
    return written + (try StubGenerator.write(project: folder, screens: [(folder as NSString).appendingPathComponent("screen.lua")]))
  }
}
