/// A committed state of a screen: the frozen value in Lua (shared, never changed), read as
/// data only when someone asks.
///
/// Decision: the screen's state lives in Lua, where scripts use it; a commit crosses into
/// Swift as this handle, in constant time, whatever the state's size. ``value`` converts it
/// once, on first read (observers and tools that never read it never pay for it). Old handles
/// stay valid: a frozen value is never changed, so a step's `before` and `after` can both be
/// read later.
@MainActor
public final class ScreenState {
  private let node: LuaRef?
  private var converted: LuaValue?

  init(node: LuaRef?) {
    self.node = node
  }

  /// The state as data, or `nil` when it cannot be read as data (see ``read()``).
  public var value: LuaValue { (try? read()) ?? .nil }

  /// The state as data.
  ///
  /// - Throws: ``LuaBridgeError`` when the state cannot cross into Swift: the one case the
  ///   engine's checks at write time cannot see is a table with two keys that are one text to
  ///   Swift (`"é"` and `"e"` + U+0301), which Swift would silently merge.
  public func read() throws(LuaBridgeError) -> LuaValue {
    if let converted { return converted }
    guard let node else { return .nil }
    let value = try node.value(path: "state")
    converted = value
    return value
  }

  /// Whether two handles hold the same frozen value (no conversion).
  func isSame(as other: ScreenState) -> Bool {
    guard let node, let otherNode = other.node else { return node == nil && other.node == nil }
    return node.rawEquals(otherNode)
  }

  /// The frozen value, for the engine.
  var reference: LuaRef? { node }
}
