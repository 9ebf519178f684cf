import Foundation

/// Decides which files a preview may serve: images inside the screen's folders, nothing else.
///
/// A request path is relative (`logo.png`, `img/logo.png`); it is refused when it is absolute,
/// has `..`, `.` or hidden components, is not an image type, resolves (through symlinks) outside
/// every allowed folder, is not a regular file, or is larger than ``maximumSize``.
///
/// ```swift
/// let guard = FileGuard(folders: ["examples/shop"])
/// guard.resolve(["logo.png"])   // (path, "image/png") or nil
/// ```
package struct FileGuard: Sendable {
  /// The folders, resolved to real absolute paths.
  package let folders: [String]
  /// The largest file served.
  package static let maximumSize = 8 << 20

  /// Content types by extension: the only files served.
  package static let types = [
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
  ]

  /// Allows `folders` (relative ones from the current directory).
  package init(folders: [String]) {
    self.folders = folders.map { FileGuard.realPath($0) ?? $0 }
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The real path and content type of the file `components` names, or `nil` if it may not be served.
  package func resolve<S: StringProtocol>(_ components: [S]) -> (path: String, type: String)? {
    guard !components.isEmpty, components.count <= 16 else { return nil }
    for component in components {
      guard !component.isEmpty, !component.hasPrefix("."), !component.contains("/"), !component.contains("\0"),
        component.utf8.count <= 255
      else { return nil }
    }
    let name = String(components[components.count - 1])
    guard let dot = name.lastIndex(of: "."), let type = FileGuard.types[name[name.index(after: dot)...].lowercased()] else {
      return nil
    }
    let relative = components.joined(separator: "/")
    for folder in folders {
      guard let real = FileGuard.realPath(folder + "/" + relative), real.hasPrefix(folder + "/") else { continue }
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: real),
        attributes[.type] as? FileAttributeType == .typeRegular,
        let size = attributes[.size] as? Int, size <= FileGuard.maximumSize
      else { continue }
      return (real, type)
    }
    return nil
  }
}
