import CLua
import CLuaShim

/// The arguments and results of one call from Lua into a Swift function.
///
/// Read arguments with the typed accessors (they throw a clear ``ScriptError`` naming the
/// argument and function, never a Lua error), push results, and return how many you pushed:
///
/// ```swift
/// runtime.register("greet") { call in
///   let name = try call.string(1)
///   call.push("hello, \(name)")
///   return 1
/// }
/// ```
public struct LuaCall {
  let stack: LuaStack
  /// The runtime serving the call.
  public unowned let runtime: LuaRuntime
  /// The function's name, for messages.
  public let name: String

  /// The number of arguments.
  public var count: Int { Int(stack.top) }

  /// Argument `index` (1-based) as data.
  public func value(_ index: Int) throws -> LuaValue {
    do {
      return try stack.value(at: Int32(index), path: LuaPath(root: "argument #\(index) to '\(name)'"))
    } catch {
      throw error.scriptError
    }
  }

  /// Argument `index` as a string (numbers are not converted).
  public func string(_ index: Int) throws -> String {
    guard let text = stack.string(at: Int32(index)) else { throw mismatch(index, expected: "string") }
    return text
  }

  /// Argument `index` as a string, or `nil` when it is absent or nil.
  public func optionalString(_ index: Int) throws -> String? {
    stack.type(at: Int32(index)) <= LUA_TNIL ? nil : try string(index)
  }

  /// Argument `index` as an integer (integral floats accepted).
  public func integer(_ index: Int) throws -> Int64 {
    var isNumber: Int32 = 0
    let value = lua_tointegerx(stack.L, Int32(index), &isNumber)
    guard isNumber != 0, stack.type(at: Int32(index)) == LUA_TNUMBER else {
      throw mismatch(index, expected: "integer")
    }
    return value
  }

  /// Argument `index` as a number.
  public func number(_ index: Int) throws -> Double {
    guard stack.type(at: Int32(index)) == LUA_TNUMBER else { throw mismatch(index, expected: "number") }
    return lua_tonumberx(stack.L, Int32(index), nil)
  }

  /// Argument `index` as a boolean (strictly `true` or `false`).
  public func boolean(_ index: Int) throws -> Bool {
    guard stack.type(at: Int32(index)) == LUA_TBOOLEAN else { throw mismatch(index, expected: "boolean") }
    return lua_toboolean(stack.L, Int32(index)) != 0
  }

  /// Lua's type name of argument `index` (`"no value"` when absent).
  public func typeName(_ index: Int) -> String {
    stack.typeName(at: Int32(index))
  }

  /// Whether argument `index` is a function.
  public func isFunction(_ index: Int) -> Bool {
    stack.type(at: Int32(index)) == LUA_TFUNCTION
  }

  /// A reference to argument `index` (any type), keeping it alive.
  public func reference(_ index: Int) -> LuaRef {
    lua_pushvalue(stack.L, Int32(index))
    return LuaRef(runtime: runtime, reference: stack.ref())
  }

  /// Pushes a data result.
  ///
  /// - Throws: ``ScriptError`` when the value is past a limit (depth, size, non-finite).
  public func push(_ value: LuaValue) throws {
    do {
      try stack.push(value, path: LuaPath(root: "result of '\(name)'"))
    } catch {
      throw error.scriptError
    }
  }
  /// Pushes a string result.
  public func push(_ text: String) { stack.push(text) }
  /// Pushes an integer result.
  public func push(_ integer: Int64) { stack.push(integer) }
  /// Pushes a boolean result.
  public func push(_ flag: Bool) { stack.push(flag) }
  /// Pushes `nil`.
  public func pushNil() { stack.pushNil() }
  /// Pushes a referenced value.
  public func push(_ reference: LuaRef) { stack.push(reference: reference.reference) }

  /// An error for argument `index` not being `expected`.
  public func mismatch(_ index: Int, expected: String) -> ScriptError {
    ScriptError(
      kind: .typeMismatch, message: "bad argument #\(index) to '\(name)' (\(expected) expected, got \(typeName(index)))")
  }
}
