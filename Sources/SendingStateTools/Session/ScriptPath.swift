import Foundation

/// Checks a path the user gave for a script before the host reads it, so a wrong path gets
/// plain words instead of a Foundation error code.
///
/// ```swift
/// try ScriptPath.check("examples/counter", role: "screen")
/// // 'examples/counter' is a folder, not a screen script: give a .lua file in it (counter.lua)
/// ```
public enum ScriptPath {
  /// Throws ``ToolError/usage(_:)`` unless `path` is a readable regular file of UTF-8 text.
  ///
  /// - Parameter role: what the file is for (`screen`, `events file`…), for the message.
  public static func check(_ path: String, role: String) throws {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    guard !path.isEmpty else { throw ToolError.usage("the \(role) path is empty") }
    guard files.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ToolError.usage("no such \(role) file: '\(path)' (check the path; it is relative to \(files.currentDirectoryPath))")
    }
    if isFolder.boolValue {
      let scripts = ((try? files.contentsOfDirectory(atPath: path)) ?? [])
        .filter { $0.hasSuffix(".lua") && !$0.hasSuffix("_spec.lua") }.sorted()
      let hint = scripts.isEmpty ? "it has no .lua files" : "give a .lua file in it (\(scripts.prefix(5).joined(separator: ", ")))"
      throw ToolError.usage("'\(path)' is a folder, not a \(role) script: \(hint)")
    }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let type = (try? files.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
    if let type, type != .typeRegular {
      throw ToolError.usage("'\(path)' is not a regular file (a device, socket or pipe), so it cannot be a \(role) script")
    }
    let bytes = try FileInput.bytes(path, what: "\(role) file")
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw ToolError.usage("'\(path)' is not UTF-8 text, so it cannot be a \(role) script")
    }
  }
}
