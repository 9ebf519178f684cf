import CLua
import CLuaShim

/// A reference to a Lua value (a function, a table, an environment) that keeps it alive.
///
/// Released when the reference is released. It retains its runtime, so the state outlives it:
///
/// ```swift
/// let configure = try runtime.evaluate("return function(v) end")  // data results
/// let chunk = try runtime.load("return 42")                         // a LuaRef
/// try runtime.call(chunk)                                            // [.integer(42)]
/// ```
public final class LuaRef {
  private let retainedRuntime: LuaRuntime?
  private weak var weakRuntime: LuaRuntime?
  let reference: Int32

  init(runtime: LuaRuntime, reference: Int32) {
    self.retainedRuntime = runtime
    self.reference = reference
  }

  private init(weakly runtime: LuaRuntime, reference: Int32) {
    self.retainedRuntime = nil
    self.weakRuntime = runtime
    self.reference = reference
  }

  /// The runtime the value lives in.
  public var runtime: LuaRuntime {
    guard let runtime = retainedRuntime ?? weakRuntime else {
      preconditionFailure("a LuaRef was used after its runtime was released")
    }
    return runtime
  }

  /// Another reference to the same value that does **not** retain the runtime.
  ///
  /// NB: for objects that Lua itself keeps alive (views held by userdata): a retaining reference
  /// there would be a cycle — state → userdata → view → reference → runtime → state — and the
  /// whole state would never be freed. Use only while something else keeps the runtime alive.
  func unretainingRuntime() -> LuaRef {
    let stack = runtime.stack
    stack.push(reference: reference)
    return LuaRef(weakly: runtime, reference: stack.ref())
  }

  /// Whether both references hold the very same Lua value (`rawequal`).
  func rawEquals(_ other: LuaRef) -> Bool {
    let stack = runtime.stack
    stack.push(reference: reference)
    stack.push(reference: other.reference)
    defer { stack.pop(2) }
    return lua_rawequal(runtime.L, -1, -2) != 0
  }

  /// Lua's type name of the referenced value.
  public var typeName: String {
    let stack = runtime.stack
    stack.push(reference: reference)
    defer { stack.pop() }
    return stack.typeName(at: -1)
  }

  /// Reads the referenced value as data (tables are copied; functions read as opaque).
  public func value(path: String = "value") throws(LuaBridgeError) -> LuaValue {
    let stack = runtime.stack
    stack.push(reference: reference)
    defer { stack.pop() }
    return try stack.value(at: -1, path: LuaPath(root: path))
  }

  /// A reference to the raw field `key` of the referenced table, or `nil` if it is nil or not a table.
  public func field(_ key: String) -> LuaRef? {
    let stack = runtime.stack
    stack.push(reference: reference)
    defer { stack.pop() }
    guard stack.type(at: -1) == LUA_TTABLE else { return nil }
    stack.push(key)
    lua_rawget(runtime.L, -2)
    guard stack.type(at: -1) != LUA_TNIL else {
      stack.pop()
      return nil
    }
    return LuaRef(runtime: runtime, reference: stack.ref())
  }

  /// The string keys of the referenced table (raw: no metamethods run), at most `limit` of them
  /// in Lua's order; none unless this is a table.
  package func stringKeys(limit: Int) -> [String] {
    let stack = runtime.stack
    let base = stack.top
    stack.push(reference: reference)
    defer { lua_settop(runtime.L, base) }
    guard stack.type(at: -1) == LUA_TTABLE else { return [] }
    var keys: [String] = []
    lua_pushnil(runtime.L)
    while keys.count < limit, lua_next(runtime.L, -2) != 0 {
      if let key = stack.string(at: -2) { keys.append(key) }
      lua_settop(runtime.L, -2)  // the value; the key stays for lua_next
    }
    return keys
  }

  /// Sets the raw field `key` of the referenced table to a data value.
  ///
  /// - Throws: ``LuaBridgeError`` when the value is past a limit.
  public func setField(_ key: String, to value: LuaValue) throws(LuaBridgeError) {
    try setField(key) { stack throws(LuaBridgeError) in try stack.push(value, path: LuaPath(root: key)) }
  }

  /// Sets the raw field `key` of the referenced table to another referenced value.
  public func setField(_ key: String, to value: LuaRef) {
    // NB: pushing a reference cannot fail, so neither can this.
    try? setField(key) { stack throws(LuaBridgeError) in stack.push(reference: value.reference) }
  }

  /// Sets the raw element `index` (1-based) of the referenced table to another referenced value,
  /// to build lists of functions and tables from Swift.
  package func setElement(_ index: Int, to value: LuaRef) {
    let stack = runtime.stack
    let base = stack.top
    stack.push(reference: reference)
    defer { lua_settop(runtime.L, base) }
    guard stack.type(at: -1) == LUA_TTABLE else { return }
    stack.push(reference: value.reference)
    lua_rawseti(runtime.L, -2, lua_Integer(index))
  }

  /// Raw-sets `key` to the value `pushValue` pushes; does nothing unless this is a table.
  private func setField(_ key: String, pushValue: (LuaStack) throws(LuaBridgeError) -> Void) throws(LuaBridgeError) {
    let stack = runtime.stack
    let base = stack.top
    stack.push(reference: reference)
    defer { lua_settop(runtime.L, base) }
    guard stack.type(at: -1) == LUA_TTABLE else { return }
    stack.push(key)
    try pushValue(stack)
    lua_rawset(runtime.L, -3)
  }

  deinit {
    // A non-retaining reference may outlive its runtime; the state (and the slot) are gone then.
    (retainedRuntime ?? weakRuntime)?.stack.unref(reference)
  }
}
