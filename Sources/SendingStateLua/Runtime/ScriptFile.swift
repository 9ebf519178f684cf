import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The one reader of Lua code from files: a screen, its modules, a plugin's manifest,
/// modules, components, unit renderers and middleware all come through ``read(_:root:)``, with
/// one policy:
///
/// - the file lies inside its **root** (the screen's folder or a script root for the screen's
///   files, the plugin's folder for a plugin's), once every link on the way is followed: a link
///   that leads out of the root is refused, relative or absolute;
/// - it is a **regular file** (a FIFO, a device or a folder is refused at once, never waited
///   on), at most ``maxBytes`` long, and UTF-8 **text** (binary chunks are refused when compiled);
/// - it is read once, from one open file (``FileBytes``): what is checked is what runs.
///
/// (A lockfile's checked text, when there is one, replaces the read altogether: see
/// `PluginSet`.)
///
/// ```swift
/// let text = try ScriptFile.read("plugins/rating/components/stars.lua", root: "plugins/rating")
/// ```
package enum ScriptFile {
  /// The largest script file read: 16 MiB.
  package static let maxBytes = 16 << 20

  /// The text of the script at `path`, which must lie inside `root` (see the type's rules).
  ///
  /// - Throws: ``ScriptError`` naming the file and what is wrong with it, and how to fix it.
  package static func read(_ path: String, root: String) throws(ScriptError) -> String {
    func refuse(_ message: String, kind: ScriptError.Kind = .runtime) -> ScriptError {
      ScriptError(kind: kind, message: "cannot read '\(path)': \(message)", chunk: path)
    }
    guard let resolvedRoot = realPath(root.isEmpty ? "." : root) else {
      throw refuse("its folder \(root) does not exist")
    }
    guard let resolved = realPath(path) else {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
        throw refuse("it cannot be read (check its permissions)")
      }
      // A dangling link is a link that leads nowhere: say so.
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
        throw refuse("it is a link to a file that does not exist")
      }
      throw refuse("no such file")
    }
    let inside = resolvedRoot == "/" ? resolved.hasPrefix("/") : resolved.hasPrefix(resolvedRoot + "/")
    guard inside else {
      throw refuse(
        "it leads outside its folder \(root) (to \(resolved)); a script's files live inside its folder: copy the file in instead of linking it",
        kind: .sandboxViolation)
    }
    // Opened without following a link: the path was resolved, so a link here now is a change
    // under our feet.
    let bytes: [UInt8]
    do throws(FileBytes.Refusal) {
      bytes = try FileBytes.read(resolved, maxBytes: maxBytes, what: "a script", followLinks: false)
    } catch {
      throw refuse(error.reason, kind: error.tooLarge ? .tooLarge : .runtime)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw refuse("it is not UTF-8 text", kind: .syntax)
    }
    return text
  }

  /// `path` with every link followed and `.`/`..` removed (`realpath`), or nil.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
