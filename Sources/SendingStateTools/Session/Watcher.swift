import Foundation

/// Reloads a session's script when a `.lua` file beside it (or in a `--plugin` folder) changes,
/// keeping the state.
///
/// A script that fails to load leaves the old one running; the error is printed. The old
/// screen is closed on a successful reload, so its callbacks and effects never fire again.
public enum Watcher {
  /// The modification dates of the `.lua` files in `folder` (recursively).
  static func snapshot(_ folder: String) -> [String: Date] {
    var dates: [String: Date] = [:]
    let files = FileManager.default.enumerator(atPath: folder)
    while let file = files?.nextObject() as? String {
      guard file.hasSuffix(".lua") else { continue }
      let path = (folder as NSString).appendingPathComponent(file)
      dates[path] = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
    return dates
  }

  /// Watches until the process ends (or `limit` reloads happen), polling every `interval`.
  @MainActor
  public static func watch(
    session: ScreenSession, printTree: Bool, interval: Duration = .milliseconds(200), limit: Int? = nil,
    output: (String) -> Void = { Console.line($0) }, errors: (String) -> Void = { Console.line($0, to: .errors) }
  ) async throws {
    // The screen's folder, and the plugin folders named with --plugin (those in plugins/
    // beside the screen are inside it already).
    let folders = [PathText.folder(of: session.path)] + (session.plugins?.explicit ?? [])
    func snapshotAll() -> [String: Date] {
      folders.reduce(into: [:]) { all, folder in all.merge(snapshot(folder)) { first, _ in first } }
    }
    var known = snapshotAll()
    var reloads = 0
    output("watching \(folders.joined(separator: ", ")) for changes (Ctrl-C to stop)")
    while limit.map({ reloads < $0 }) ?? true {
      try await Task.sleep(for: interval)
      let now = snapshotAll()
      guard now != known else { continue }
      known = now
      reloads += 1
      do {
        try session.reload()
        for problem in session.pluginProblems { errors("warning: plugin left out: \(problem)") }
        output("reloaded \(session.path) (state kept)")
        if printTree { output(session.tree) }
      } catch {
        errors("error: reload failed, keeping the previous version: \(ToolError.from(error).description)")
      }
    }
  }
}
