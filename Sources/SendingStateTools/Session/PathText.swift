/// Paths as text, without Foundation's `NSString` path methods.
///
/// swift-corelibs-foundation traps (a Swift runtime error, the process dies) in
/// `deletingLastPathComponent` for a one-character name followed only by slashes — `"a"`, `"."`,
/// `"-"`, `"a/"`, `"./"` — so `sendingstate run .` died with SIGILL. The tools use these
/// functions instead, and every path the CLI is given goes through ``argument(_:)`` first, so
/// no path reaching the host's own Foundation calls has that shape.
///
/// ```swift
/// PathText.folder(of: "a")              // "."
/// PathText.folder(of: "/srv/app/x.lua")  // "/srv/app"
/// PathText.argument("a")                 // "./a"
/// PathText.argument("examples//x.lua/")  // "examples/x.lua"
/// ```
public enum PathText {
  /// The folder that holds `path`: `"."` for a bare name, `"/"` for a name at the root.
  public static func folder(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
    return folder.isEmpty ? "/" : folder
  }

  /// The last component of `path` (`""` for `"/"` or an empty path).
  public static func name(of path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed == "/" ? "" : trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `path` in the one shape the CLI passes on: runs of slashes collapsed, no trailing slash
  /// (except the root), and `./` before a relative name of one character (the shape Foundation
  /// traps on; longer names stay as typed, so messages name them as the user did). The empty
  /// path stays empty (the checks that follow refuse it with plain words).
  public static func argument(_ path: String) -> String {
    guard !path.isEmpty else { return path }
    var collapsed = ""
    collapsed.reserveCapacity(path.utf8.count)
    for character in path where !(character == "/" && collapsed.last == "/") { collapsed.append(character) }
    let trimmed = withoutTrailingSlashes(collapsed)
    return trimmed.count == 1 && trimmed != "/" ? "./" + trimmed : trimmed
  }

  private static func withoutTrailingSlashes(_ path: String) -> String {
    var text = Substring(path)
    while text.count > 1, text.last == "/" { text = text.dropLast() }
    return String(text)
  }
}
