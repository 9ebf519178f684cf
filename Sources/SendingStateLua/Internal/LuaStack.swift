import CLua
import CLuaShim

/// Non-raising stack operations on a `lua_State`, used by the runtime and by callbacks.
///
/// NB: nothing here may raise a Lua error. Reads are raw (`lua_rawget`, `lua_next` on tables we
/// iterate without modifying keys), pushes allocate only outside the memory cap's enforcement
/// (the cap applies while Lua code runs, not while Swift runs).
@usableFromInline
struct LuaStack {
  let L: OpaquePointer

  var top: Int32 { lua_gettop(L) }

  func pop(_ count: Int32 = 1) { sslua_pop(L, count) }

  func type(at index: Int32) -> Int32 { lua_type(L, index) }

  func typeName(at index: Int32) -> String {
    String(cString: sslua_typename_at(L, index))
  }

  // MARK: - Push

  func push(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      _ = lua_pushlstring(L, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count)
    }
  }

  func push(_ value: Int64) { lua_pushinteger(L, value) }
  func push(_ value: Double) { lua_pushnumber(L, value) }
  func push(_ value: Bool) { lua_pushboolean(L, value ? 1 : 0) }
  func pushNil() { lua_pushnil(L) }

  /// Pushes a data value (tables are built fresh, with raw sets).
  func push(_ value: LuaValue) {
    switch value {
    case .nil, .opaque: lua_pushnil(L)
    case .boolean(let flag): push(flag)
    case .integer(let integer): push(integer)
    case .number(let number): push(number)
    case .string(let text): push(text)
    case .table(let table):
      lua_createtable(L, Int32(clamping: table.sequence.count), Int32(clamping: table.fields.count))
      for (offset, element) in table.sequence.enumerated() {
        push(element)
        lua_rawseti(L, -2, lua_Integer(offset + 1))
      }
      for (key, element) in table.fields where element != .nil {
        push(key)
        push(element)
        lua_rawset(L, -3)
      }
    }
  }

  // MARK: - Read

  /// The string at `index` if it is a string (numbers are not converted).
  func string(at index: Int32) -> String? {
    guard lua_type(L, index) == LUA_TSTRING else { return nil }
    var length = 0
    guard let bytes = sslua_tolstring(L, index, &length) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
  }

  /// The value at `index` as data, checked: no cycles, no NaN, no non-string keys, sequences 1…n.
  func value(at index: Int32, path: LuaPath, depth: Int = 0) throws(LuaBridgeError) -> LuaValue {
    // NB: an array, not a Set: nesting is shallow and scalars (the common case) never touch it.
    var ancestors: [UnsafeRawPointer] = []
    return try read(at: lua_absindex(L, index), path: path, ancestors: &ancestors, depth: depth)
  }

  private func read(at index: Int32, path: LuaPath, ancestors: inout [UnsafeRawPointer], depth: Int)
    throws(LuaBridgeError) -> LuaValue
  {
    switch lua_type(L, index) {
    case LUA_TNIL, LUA_TNONE: return .nil
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      let number = lua_tonumberx(L, index, nil)
      if number.isNaN { throw LuaBridgeError(path: path, problem: "NaN is not a valid value") }
      return .number(number)
    case LUA_TSTRING: return .string(string(at: index) ?? "")
    case LUA_TTABLE: return try readTable(at: index, path: path, ancestors: &ancestors, depth: depth)
    default: return .opaque(typeName(at: index))
    }
  }

  private func readTable(at index: Int32, path: LuaPath, ancestors: inout [UnsafeRawPointer], depth: Int)
    throws(LuaBridgeError) -> LuaValue
  {
    guard depth < 100 else { throw LuaBridgeError(path: path, problem: "nesting is deeper than 100 tables") }
    // A read-only view (screens hand these to scripts) reads as the data it shows.
    if lua_getmetatable(L, index) != 0 {
      push("__readonly")
      let found = lua_rawget(L, -2) == LUA_TTABLE
      if found {
        defer { lua_settop(L, top - 2) }
        return try readTable(at: top, path: path, ancestors: &ancestors, depth: depth + 1)
      }
      lua_settop(L, top - 2)
    }
    guard let identity = lua_topointer(L, index) else { return .nil }
    guard !ancestors.contains(identity) else {
      throw LuaBridgeError(path: path, problem: "the table contains itself (a cycle)")
    }
    ancestors.append(identity)
    defer { ancestors.removeLast() }
    var numbered: [Int64: LuaValue] = [:]
    var fields: [String: LuaValue] = [:]
    let base = top
    defer { lua_settop(L, base) }
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      let keyType = lua_type(L, -2)
      if keyType == LUA_TSTRING {
        let key = string(at: -2) ?? ""
        fields[key] = try read(at: top, path: path.appending(field: key), ancestors: &ancestors, depth: depth + 1)
      } else if keyType == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
        let key = lua_tointegerx(L, -2, nil)
        numbered[key] = try read(at: top, path: path.appending(index: Int(key)), ancestors: &ancestors, depth: depth + 1)
      } else {
        let description = keyType == LUA_TNUMBER ? "number \(lua_tonumberx(L, -2, nil))" : typeName(at: -2)
        throw LuaBridgeError(path: path, problem: "table has a non-string key (\(description)); use string keys or a list")
      }
      pop()
    }
    var sequence: [LuaValue] = []
    sequence.reserveCapacity(numbered.count)
    for position in Int64(1)..<Int64(numbered.count + 1) {
      guard let element = numbered[position] else {
        let stray = numbered.keys.filter { $0 < 1 || $0 > Int64(numbered.count) }.min() ?? position
        throw LuaBridgeError(
          path: path, problem: "list has a hole: key \(stray) with \(numbered.count) elements (lists use keys 1…n)")
      }
      sequence.append(element)
    }
    return .table(LuaTable(sequence: sequence, fields: fields))
  }

  // MARK: - Registry

  /// Stores the value on top in the registry (pops it); returns the reference.
  func ref() -> Int32 { luaL_ref(L, SSLUA_REGISTRYINDEX) }

  /// Pushes the registry value `reference`.
  func push(reference: Int32) { lua_rawgeti(L, SSLUA_REGISTRYINDEX, lua_Integer(reference)) }

  /// Frees a registry reference.
  func unref(_ reference: Int32) { luaL_unref(L, SSLUA_REGISTRYINDEX, reference) }
}
