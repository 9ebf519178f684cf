import Foundation

/// Notices changes to the `.lua` files of a screen's folders (its own and its `--root`s): a file
/// saved, added or removed. Polls modification times and sizes; cheap for a screen's few files.
///
/// ```swift
/// var watcher = FolderWatcher(folders: ["examples/counter"])
/// if watcher.poll() { host.reload() }
/// ```
package struct FolderWatcher: Sendable {
  /// The folders watched (recursively).
  package let folders: [String]
  private var known: [String: [Double]]

  /// Most files looked at per poll (a huge folder is not a screen's).
  package static let fileLimit = 2_000

  /// Starts watching; the current files are the baseline.
  package init(folders: [String]) {
    self.folders = folders
    known = FolderWatcher.snapshot(folders)
  }

  /// Whether anything changed since the last poll.
  package mutating func poll() -> Bool {
    let now = FolderWatcher.snapshot(folders)
    defer { known = now }
    return now != known
  }

  static func snapshot(_ folders: [String]) -> [String: [Double]] {
    var files: [String: [Double]] = [:]
    var seen = 0
    for folder in folders {
      let enumerator = FileManager.default.enumerator(atPath: folder)
      while let file = enumerator?.nextObject() as? String, seen < fileLimit {
        seen += 1
        guard file.hasSuffix(".lua") else { continue }
        let path = (folder as NSString).appendingPathComponent(file)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { continue }
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let size = Double(attributes[.size] as? Int ?? 0)
        files[path] = [date, size]
      }
    }
    return files
  }
}
