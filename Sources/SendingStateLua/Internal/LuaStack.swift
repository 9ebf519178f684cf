import CLua
import CLuaShim

/// Non-raising stack operations on a `lua_State`, used by the runtime and by callbacks.
///
/// NB: nothing here may raise a Lua error. Reads are raw (`lua_rawget`, `lua_next` on tables we
/// iterate without modifying keys), pushes allocate only outside the memory cap's enforcement
/// (the cap applies while Lua code runs, not while Swift runs). A C function is promised only
/// 20 free stack slots, so every recursive push and read reserves its slots per level with
/// `lua_checkstack` and stops at the depth limit.
@usableFromInline
struct LuaStack {
  let L: OpaquePointer

  var top: Int32 { lua_gettop(L) }

  func pop(_ count: Int32 = 1) { sslua_pop(L, count) }

  func type(at index: Int32) -> Int32 { lua_type(L, index) }

  func typeName(at index: Int32) -> String {
    String(cString: sslua_typename_at(L, index))
  }

  /// The limits of the runtime that owns this state (the defaults for a state without one).
  var limits: LuaRuntime.Limits {
    sslua_host_context(L).map { Unmanaged<LuaRuntime>.fromOpaque($0).takeUnretainedValue().limits } ?? .init()
  }

  /// Reserves `slots` free stack slots, or throws naming `path`.
  func reserve(_ slots: Int32, at path: @autoclosure () -> LuaPath) throws(LuaBridgeError) {
    guard lua_checkstack(L, slots) != 0 else {
      throw LuaBridgeError.tooLarge(path(), "the Lua stack cannot grow further")
    }
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

  /// Pushes a data value (tables are built fresh, with raw sets), or throws naming the path of
  /// the part that does not fit: too deep, too many values, a non-finite number, or more memory
  /// than the cap leaves. On a throw nothing is left on the stack.
  func push(_ value: LuaValue, path: LuaPath = LuaPath(root: "value")) throws(LuaBridgeError) {
    let base = top
    let limits = self.limits
    var crossing = Crossing(maxDepth: limits.maxDepth, maxNodes: limits.maxNodes, root: path, state: L)
    defer { for reference in crossing.pushed.values { unref(reference) } }
    do {
      try reserve(2, at: path)
      try push(value, depth: 0, crossing: &crossing)
    } catch {
      lua_settop(L, base)
      throw error
    }
    if let cap = limits.memoryLimit, Int(sslua_memory_used(L)) > cap {
      // Garbage a failed event left (a memory error, say) does not count against a new value.
      sslua_gc_collect(L)
    }
    if let cap = limits.memoryLimit, Int(sslua_memory_used(L)) > cap {
      lua_settop(L, base)
      throw LuaBridgeError(
        path: path, problem: "the value does not fit in the memory the script has left (cap \(cap >> 10) KiB)",
        kind: .memory)
    }
  }

  private func push(_ value: LuaValue, depth: Int, crossing: inout Crossing) throws(LuaBridgeError) {
    try crossing.visit()
    switch value {
    case .nil, .opaque: lua_pushnil(L)
    case .boolean(let flag): push(flag)
    case .integer(let integer): push(integer)
    case .number(let number):
      guard number.isFinite else { throw LuaBridgeError(path: crossing.path, problem: LuaStack.nonFinite(number)) }
      push(number)
    case .string(let text): pushShared(text, crossing: &crossing)
    case .table(let table):
      try crossing.enter(depth: depth + 1)
      try reserve(3, at: crossing.path)
      lua_createtable(L, Int32(clamping: table.sequence.count), Int32(clamping: table.fields.count))
      for (offset, element) in table.sequence.enumerated() {
        crossing.trail.append(.index(offset + 1))
        try push(element, depth: depth + 1, crossing: &crossing)
        crossing.trail.removeLast()
        lua_rawseti(L, -2, lua_Integer(offset + 1))
      }
      for (key, element) in table.fields where element != .nil {
        pushShared(key, crossing: &crossing)  // (a long key many tables share is one Lua string)
        crossing.trail.append(.field(key))
        try push(element, depth: depth + 1, crossing: &crossing)
        crossing.trail.removeLast()
        lua_rawset(L, -3)
      }
    }
  }

  /// Pushes `text`; a long string already pushed in this crossing (the same Swift storage) is
  /// pushed as the same Lua string.
  private func pushShared(_ text: String, crossing: inout Crossing) {
    guard text.utf8.count > 32, let storage = text.utf8.withContiguousStorageIfAvailable({ UnsafeRawPointer($0.baseAddress) }),
      let storage, lua_checkstack(L, 4) != 0  // the string, its copy, and luaL_ref's own pushes
    else {
      push(text)
      return
    }
    if let reference = crossing.pushed[storage] {
      push(reference: reference)
      return
    }
    push(text)
    lua_pushvalue(L, -1)
    crossing.pushed[storage] = ref()
  }

  static func nonFinite(_ number: Double) -> String {
    number.isNaN ? "NaN is not a valid value" : "\(number > 0 ? "" : "-")infinity is not a valid value (numbers must be finite)"
  }

  // MARK: - Read

  /// The string at `index` if it is a string (numbers are not converted).
  func string(at index: Int32) -> String? {
    guard lua_type(L, index) == LUA_TSTRING else { return nil }
    var length = 0
    guard let bytes = sslua_tolstring(L, index, &length) else { return nil }
    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
  }

  /// The value at `index` as data, checked: no cycles, finite numbers, string keys or sequences
  /// 1…n, at most ``LuaRuntime/Limits/maxDepth`` nested tables and ``LuaRuntime/Limits/maxNodes``
  /// values (a shared subtable counts once per visit).
  func value(at index: Int32, path: LuaPath) throws(LuaBridgeError) -> LuaValue {
    var strings: [UnsafeRawPointer: String] = [:]
    return try value(at: index, path: path, sharing: &strings)
  }

  /// ``value(at:path:)`` for one of several reads that share their long strings (`strings`):
  /// valid while every string read stays alive in Lua (a batch on the stack, say).
  func value(at index: Int32, path: LuaPath, sharing strings: inout [UnsafeRawPointer: String]) throws(LuaBridgeError)
    -> LuaValue
  {
    let limits = self.limits
    var crossing = Crossing(maxDepth: limits.maxDepth, maxNodes: limits.maxNodes, root: path, state: L)
    crossing.strings = strings
    defer { strings = crossing.strings }
    return try read(at: lua_absindex(L, index), depth: 0, crossing: &crossing)
  }

  private func read(at index: Int32, depth: Int, crossing: inout Crossing) throws(LuaBridgeError) -> LuaValue {
    try crossing.visit()
    switch lua_type(L, index) {
    case LUA_TNIL, LUA_TNONE: return .nil
    case LUA_TBOOLEAN: return .boolean(lua_toboolean(L, index) != 0)
    case LUA_TNUMBER:
      if lua_isinteger(L, index) != 0 { return .integer(lua_tointegerx(L, index, nil)) }
      let number = lua_tonumberx(L, index, nil)
      guard number.isFinite else { throw LuaBridgeError(path: crossing.path, problem: LuaStack.nonFinite(number)) }
      return .number(number)
    case LUA_TSTRING: return .string(sharedString(at: index, crossing: &crossing))
    case LUA_TTABLE: return try readTable(at: index, depth: depth + 1, crossing: &crossing)
    default: return .opaque(typeName(at: index))
    }
  }

  /// The string at `index`, copied once per crossing when it is longer than 32 bytes (Lua
  /// interns the short ones; a long one shared by many fields or keys is the same bytes).
  private func sharedString(at index: Int32, crossing: inout Crossing) -> String {
    var length = 0
    guard let bytes = sslua_tolstring(L, index, &length) else { return "" }
    guard length > 32 else { return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self) }
    let key = UnsafeRawPointer(bytes)
    if let copied = crossing.strings[key] { return copied }
    let copied = String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    crossing.strings[key] = copied
    return copied
  }

  private func readTable(
    at index: Int32, depth: Int, crossing: inout Crossing, throughView: Bool = false
  ) throws(LuaBridgeError) -> LuaValue {
    try crossing.enter(depth: depth)
    try reserve(4, at: crossing.path)
    // A read-only view (the kernel's frozen state nodes) reads as the data it shows. One hop
    // only: the data behind a view is a plain table, and a script can set `__readonly` on its
    // own metatables, so following a chain of them (or a loop: `{ __readonly = itself }`) would
    // recurse without bound.
    if !throughView, lua_getmetatable(L, index) != 0 {
      push("__readonly")
      let found = lua_rawget(L, -2) == LUA_TTABLE
      if found {
        defer { lua_settop(L, top - 2) }
        return try readTable(at: top, depth: depth, crossing: &crossing, throughView: true)
      }
      lua_settop(L, top - 2)
    }
    guard let identity = lua_topointer(L, index) else { return .nil }
    guard !crossing.ancestors.contains(identity) else {
      throw LuaBridgeError(path: crossing.path, problem: "the table contains itself (a cycle)")
    }
    crossing.ancestors.append(identity)
    defer { crossing.ancestors.removeLast() }
    var numbered: [Int64: LuaValue] = [:]
    var fields: [String: LuaValue] = [:]
    let base = top
    defer { lua_settop(L, base) }
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      let keyType = lua_type(L, -2)
      if keyType == LUA_TSTRING {
        let key = sharedString(at: -2, crossing: &crossing)
        crossing.trail.append(.field(key))
        // Lua keys differ by bytes; Swift strings compare by canonical equivalence (and repair
        // bytes that are not UTF-8), so two spellings of one text ("é" and "e" + U+0301) would
        // silently become one field.
        guard fields[key] == nil else {
          throw LuaBridgeError(
            path: crossing.path,
            problem: "two keys of this table read as the same text (one text in two Unicode forms, or bytes that are not UTF-8); write keys one way")
        }
        fields[key] = try read(at: top, depth: depth, crossing: &crossing)
        crossing.trail.removeLast()
      } else if keyType == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
        let key = lua_tointegerx(L, -2, nil)
        crossing.trail.append(.index(Int(truncatingIfNeeded: key)))
        numbered[key] = try read(at: top, depth: depth, crossing: &crossing)
        crossing.trail.removeLast()
      } else {
        let description = keyType == LUA_TNUMBER ? "number \(lua_tonumberx(L, -2, nil))" : typeName(at: -2)
        throw LuaBridgeError(
          path: crossing.path, problem: "table has a non-string key (\(description)); use string keys or a list")
      }
      pop()
    }
    var sequence: [LuaValue] = []
    sequence.reserveCapacity(numbered.count)
    for position in Int64(1)..<Int64(numbered.count + 1) {
      guard let element = numbered[position] else {
        let stray = numbered.keys.filter { $0 < 1 || $0 > Int64(numbered.count) }.min() ?? position
        throw LuaBridgeError(
          path: crossing.path, problem: "list has a hole: key \(stray) with \(numbered.count) elements (lists use keys 1…n)")
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

/// The budget of one crossing: how deep tables nest, how many values it visits, and the
/// episode's deadline (read every 4,096 values).
///
/// NB: values are counted per visit, so a table shared by many fields (a DAG, whose naive copy
/// grows as 2^depth) runs into the node limit instead of multiplying the work.
struct Crossing {
  let maxDepth: Int
  let maxNodes: Int
  /// The state whose episode deadline applies (`nil`: none).
  let state: OpaquePointer?
  var nodes = 0
  /// Where the walk is: the root and the steps taken (one array reused for the whole walk; a
  /// ``LuaPath`` is built only for an error).
  let root: LuaPath
  var trail: [LuaPath.Component] = []
  /// The tables on the way down (an array, not a Set: nesting is bounded and shallow).
  var ancestors: [UnsafeRawPointer] = []
  /// The Swift copies of the longer Lua strings read so far, by the Lua string's bytes: a
  /// string that many fields share is copied once (else a script could turn one 1 MiB string
  /// in its capped heap into gigabytes of host memory by naming it a thousand times).
  var strings: [UnsafeRawPointer: String] = [:]
  /// The other way: the Lua strings pushed so far for long Swift strings, by the Swift
  /// string's storage (registry references, released when the push ends), so a string many
  /// fields share is one Lua string again.
  var pushed: [UnsafeRawPointer: Int32] = [:]

  init(maxDepth: Int, maxNodes: Int, root: LuaPath, state: OpaquePointer? = nil) {
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
    self.root = root
    self.state = state
  }

  /// The path of the value being visited.
  var path: LuaPath { LuaPath(root: root.root, components: root.components + trail) }

  /// Counts one value.
  mutating func visit() throws(LuaBridgeError) {
    nodes += 1
    guard nodes <= maxNodes else {
      throw LuaBridgeError.tooLarge(
        path, "more than \(maxNodes) values in one crossing (a table shared by several fields counts each time)")
    }
    if nodes & 4095 == 0, let state, sslua_deadline_passed(state) != 0 {
      let limit = Duration.nanoseconds(sslua_time_limit(state))
      throw LuaBridgeError.tooLarge(
        path, "time limit exceeded while copying the value (one event may run \(limit.shortDescription))", kind: .timeout)
    }
  }

  /// Checks a table at nesting level `depth` (1 for the outermost table).
  func enter(depth: Int) throws(LuaBridgeError) {
    guard depth <= maxDepth else {
      throw LuaBridgeError.tooLarge(path, "nested deeper than \(maxDepth)")
    }
  }
}
