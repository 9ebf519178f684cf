import CLua
import CLuaShim

/// A value with a direct, typed Lua representation: the leaves of a ``LuaTablePlan``.
///
/// `Int`, `Int64`, `Double`, `Bool`, `String`, optionals and arrays of scalars conform. Each
/// conformance pushes and reads straight from the Lua stack, without `Any` or casts:
///
/// ```swift
/// LuaField("count", \Counter.count)   // Int is a LuaScalar
/// ```
public protocol LuaScalar {
  /// Pushes `value` (exactly one stack slot).
  static func push(_ value: Self, on stack: LuaStackAccess)
  /// Reads the value at `index`, or throws naming `path` (built only on error).
  static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Self
}

/// The stack handle plans and scalars use (for internal use only; opaque to clients).
public struct LuaStackAccess {
  @usableFromInline let stack: LuaStack

  func mismatch(at index: Int32, expected: String, path: () -> LuaPath) -> LuaBridgeError {
    let type = stack.type(at: index)
    return LuaBridgeError(
      path: path(), problem: type <= LUA_TNIL ? "missing (expected \(expected))" : "expected \(expected), got \(stack.typeName(at: index))")
  }
}

extension Int64: LuaScalar {
  /// Pushes an integer.
  public static func push(_ value: Int64, on stack: LuaStackAccess) { lua_pushinteger(stack.stack.L, value) }
  /// Reads an integer (integral floats accepted).
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Int64 {
    var ok: Int32 = 0
    let value = lua_tointegerx(stack.stack.L, index, &ok)
    guard ok != 0, stack.stack.type(at: index) == LUA_TNUMBER else {
      throw stack.mismatch(at: index, expected: "integer", path: path)
    }
    return value
  }
}

extension Int: LuaScalar {
  /// Pushes an integer.
  public static func push(_ value: Int, on stack: LuaStackAccess) { lua_pushinteger(stack.stack.L, Int64(value)) }
  /// Reads an integer that fits an `Int`.
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Int {
    let wide = try Int64.read(from: stack, at: index, path: path())
    guard let value = Int(exactly: wide) else {
      throw LuaBridgeError(path: path(), problem: "integer \(wide) does not fit in Int")
    }
    return value
  }
}

extension Double: LuaScalar {
  /// Pushes a float.
  public static func push(_ value: Double, on stack: LuaStackAccess) { lua_pushnumber(stack.stack.L, value) }
  /// Reads a number (not NaN).
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Double {
    guard stack.stack.type(at: index) == LUA_TNUMBER else { throw stack.mismatch(at: index, expected: "number", path: path) }
    let value = lua_tonumberx(stack.stack.L, index, nil)
    guard !value.isNaN else { throw LuaBridgeError(path: path(), problem: "NaN is not a valid value") }
    return value
  }
}

extension Bool: LuaScalar {
  /// Pushes a boolean.
  public static func push(_ value: Bool, on stack: LuaStackAccess) { lua_pushboolean(stack.stack.L, value ? 1 : 0) }
  /// Reads a boolean (strictly `true` or `false`).
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Bool {
    guard stack.stack.type(at: index) == LUA_TBOOLEAN else { throw stack.mismatch(at: index, expected: "boolean", path: path) }
    return lua_toboolean(stack.stack.L, index) != 0
  }
}

extension String: LuaScalar {
  /// Pushes a string.
  public static func push(_ value: String, on stack: LuaStackAccess) { stack.stack.push(value) }
  /// Reads a string (numbers are not converted).
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> String {
    guard let text = stack.stack.string(at: index) else { throw stack.mismatch(at: index, expected: "string", path: path) }
    return text
  }
}

extension Optional: LuaScalar where Wrapped: LuaScalar {
  /// Pushes the value or nil.
  public static func push(_ value: Wrapped?, on stack: LuaStackAccess) {
    if let value { Wrapped.push(value, on: stack) } else { lua_pushnil(stack.stack.L) }
  }
  /// Reads nil or a wrapped value.
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> Wrapped? {
    stack.stack.type(at: index) <= LUA_TNIL ? nil : try Wrapped.read(from: stack, at: index, path: path())
  }
}

extension Array: LuaScalar where Element: LuaScalar {
  /// Pushes a list.
  public static func push(_ value: [Element], on stack: LuaStackAccess) {
    let L = stack.stack.L
    lua_createtable(L, Int32(clamping: value.count), 0)
    for (offset, element) in value.enumerated() {
      Element.push(element, on: stack)
      lua_rawseti(L, -2, lua_Integer(offset + 1))
    }
  }
  /// Reads a list (keys 1…n).
  public static func read(from stack: LuaStackAccess, at index: Int32, path: @autoclosure () -> LuaPath) throws(LuaBridgeError) -> [Element] {
    let L = stack.stack.L
    guard stack.stack.type(at: index) == LUA_TTABLE else { throw stack.mismatch(at: index, expected: "a list", path: path) }
    let table = lua_absindex(L, index)
    let count = Int(lua_rawlen(L, table))
    var result: [Element] = []
    result.reserveCapacity(count)
    for position in 0..<count {
      lua_rawgeti(L, table, lua_Integer(position + 1))
      defer { sslua_pop(L, 1) }
      result.append(try Element.read(from: stack, at: -1, path: path().appending(index: position + 1)))
    }
    return result
  }
}
