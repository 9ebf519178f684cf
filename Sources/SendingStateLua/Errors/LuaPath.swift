/// A field path into a value, rendered the way a script author reads it: `state.items[3].price`.
///
/// Sequence indices are 1-based, as in Lua.
///
/// ```swift
/// LuaPath(root: "state").appending(field: "items").appending(index: 3).description  // "state.items[3]"
/// ```
public struct LuaPath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path.
  public enum Component: Hashable, Sendable {
    /// A named field.
    case field(String)
    /// A 1-based sequence index.
    case index(Int)
  }

  /// The name of the root value (`state`, `action`, `argument #1`…).
  public var root: String
  /// The steps from the root.
  public var components: [Component]

  /// A path at `root`.
  public init(root: String, components: [Component] = []) {
    self.root = root
    self.components = components
  }

  /// The path one field deeper.
  public func appending(field: String) -> LuaPath {
    LuaPath(root: root, components: components + [.field(field)])
  }

  /// The path one 1-based index deeper.
  public func appending(index: Int) -> LuaPath {
    LuaPath(root: root, components: components + [.index(index)])
  }

  /// `root.field[2].other`.
  public var description: String { abbreviated(after: components.count) }

  /// The path with only its first `count` steps, then `…` when there are more (for paths as
  /// deep as a depth limit).
  public func abbreviated(after count: Int) -> String {
    var text = root
    for component in components.prefix(count) {
      switch component {
      case .field(let name): text += "." + name
      case .index(let index): text += "[\(index)]"
      }
    }
    return components.count > count ? text + "…" : text
  }

  /// How many steps the path has.
  public var depth: Int { components.count }
}

/// A value that does not fit where it crosses the boundary, with the path to it.
///
/// Reported to scripts and callers as a ``ScriptError`` of kind ``ScriptError/Kind/typeMismatch``:
///
/// ```text
/// state.items[3].price: expected number, got string
/// ```
public struct LuaBridgeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where the value is.
  public var path: LuaPath
  /// What is wrong with it.
  public var problem: String
  /// ``ScriptError/Kind/typeMismatch`` for a value that does not fit,
  /// ``ScriptError/Kind/tooLarge`` for one past a depth or size limit.
  public var kind: ScriptError.Kind

  /// Creates an error.
  public init(path: LuaPath, problem: String, kind: ScriptError.Kind = .typeMismatch) {
    self.path = path
    self.problem = problem
    self.kind = kind
  }

  /// An error for a value past a limit; deep paths are shortened (`state.a.a.a.a…`).
  static func tooLarge(_ path: LuaPath, _ problem: String, kind: ScriptError.Kind = .tooLarge) -> LuaBridgeError {
    var shown = path
    if path.depth > 8 {
      shown = LuaPath(root: path.abbreviated(after: 4))
    }
    return LuaBridgeError(path: shown, problem: problem, kind: kind)
  }

  /// `path: problem`.
  public var description: String { "\(path): \(problem)" }

  /// The same problem as a ``ScriptError``.
  public var scriptError: ScriptError {
    ScriptError(kind: kind, message: description)
  }
}
