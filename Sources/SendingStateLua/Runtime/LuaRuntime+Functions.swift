import CLua
import CLuaShim

/// The body of a Swift function called from Lua: reads arguments, pushes results, returns their count.
public typealias LuaFunctionBody = (LuaCall) throws -> Int

/// Boxes a Swift function body; retained by its Lua closure's context userdata.
final class LuaClosureBox {
  let name: String
  let body: LuaFunctionBody

  init(name: String, body: @escaping LuaFunctionBody) {
    self.name = name
    self.body = body
  }
}

/// The C-convention entry of every Swift function: never raises, returns a status.
func dispatchLuaClosure(_ state: OpaquePointer?, _ context: UnsafeMutableRawPointer?) -> Int32 {
  guard let state else { return SSLUA_CALLBACK_ERROR }
  let stack = LuaStack(L: state)
  guard let context, let object = context.assumingMemoryBound(to: sslua_Object.self).pointee.object,
    let host = sslua_host_context(state)
  else {
    stack.push("host function called after its runtime was closed")
    return SSLUA_CALLBACK_ERROR
  }
  let box = Unmanaged<LuaClosureBox>.fromOpaque(object).takeUnretainedValue()
  let runtime = Unmanaged<LuaRuntime>.fromOpaque(host).takeUnretainedValue()
  do {
    return Int32(try box.body(LuaCall(stack: stack, runtime: runtime, name: box.name)))
  } catch {
    let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(box.name): \(error)")
    runtime.lastCallbackError = failure
    if failure.chunk != nil {
      // A script error from a nested call: it already says where it happened.
      stack.push(failure.description)
      return SSLUA_CALLBACK_ERROR_RAW
    }
    stack.push(failure.message)
    return SSLUA_CALLBACK_ERROR
  }
}

extension LuaRuntime {
  /// Pushes a Lua function that runs `body` (through the C trampoline).
  func pushFunction(named name: String, _ body: @escaping LuaFunctionBody) {
    let box = Unmanaged.passRetained(LuaClosureBox(name: name, body: body) as AnyObject)
    _ = sslua_push_object(L, 0, box.toOpaque())
    stack.push(reference: closureMetatable)
    lua_setmetatable(L, -2)
    sslua_push_swift_function(L, dispatchLuaClosure)
  }

  /// A reference to a new Lua function that runs `body`.
  ///
  /// Lua keeps `body` alive as long as the function is reachable, so `body` must not capture
  /// this runtime or a ``LuaRef`` strongly (a reference retains its runtime: that would be a
  /// cycle keeping the whole state alive). Use ``LuaCall/runtime`` and capture references
  /// `weak`.
  ///
  /// ```swift
  /// let double = runtime.makeFunction("double") { call in
  ///   call.push(.integer(try call.integer(1) * 2)); return 1
  /// }
  /// ```
  public func makeFunction(_ name: String, _ body: @escaping LuaFunctionBody) -> LuaRef {
    pushFunction(named: name, body)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// A reference to a C function of the shim (host primitives such as `critical`).
  func makeCFunction(_ function: lua_CFunction) -> LuaRef {
    sslua_pushcfunction(L, function)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// Makes `body` a global function of every environment created from now on (and of the
  /// real globals in trusted mode).
  ///
  /// ```swift
  /// runtime.register("now") { call in call.push(.number(Date().timeIntervalSince1970)); return 1 }
  /// ```
  public func register(_ name: String, _ body: @escaping LuaFunctionBody) {
    stack.push(reference: hostGlobals)
    stack.push(name)
    pushFunction(named: name, body)
    lua_rawset(L, -3)
    stack.pop()
    if configuration.mode == .trusted {
      sslua_pushglobaltable(L)
      stack.push(name)
      pushFunction(named: name, body)
      lua_rawset(L, -3)
      stack.pop()
    }
  }

  /// Makes a table of `functions` what `require(name)` returns in every script of this
  /// runtime, read-only (writing a field is an error naming the module), so no script can
  /// change what another one calls.
  ///
  /// ```swift
  /// try runtime.preloadModule("greet", functions: ["hello": { call in call.push("hi"); return 1 }])
  /// ```
  public func preloadModule(_ name: String, functions: [String: LuaFunctionBody]) throws(ScriptError) {
    var fields: [String: LuaRef] = [:]
    for (key, body) in functions { fields[key] = makeFunction("\(name).\(key)", body) }
    let table = try makeValueOrThrow(.table(LuaTable()))
    for (key, function) in fields { table.setField(key, to: function) }
    let proxy = try makeValueOrThrow(.table(LuaTable()))
    let meta = try makeValueOrThrow(["__metatable": false])
    meta.setField("__index", to: table)
    // Read-only to the sandbox: its rawset does not write around __newindex either.
    meta.setField("__readonly", to: table)
    meta.setField("__newindex", to: makeFunction("\(name).__newindex") { call in
      throw ScriptError(kind: .runtime, message: "module '\(name)' is read-only (it cannot change for other scripts)")
    })
    stack.push(reference: proxy.reference)
    stack.push(reference: meta.reference)
    lua_setmetatable(L, -2)
    stack.pop()
    preload(name, proxy)
  }

  private func makeValueOrThrow(_ value: LuaValue) throws(ScriptError) -> LuaRef {
    do {
      return try makeValue(value)
    } catch {
      throw ScriptError(kind: .runtime, message: error.description)
    }
  }

  /// Makes `value` what `require(name)` returns in every script of this runtime.
  public func preload(_ name: String, _ value: LuaRef) {
    stack.push(reference: loadedModules)
    stack.push(name)
    stack.push(reference: value.reference)
    lua_rawset(L, -3)
    stack.pop()
    if requirable != 0 {
      // A host module: plugin code may require it too.
      stack.push(reference: requirable)
      stack.push(name)
      stack.push(true)
      lua_rawset(L, -3)
      stack.pop()
    }
  }

  func createClosureMetatable() {
    lua_createtable(L, 0, 2)
    setObjectMetatableFields()
    closureMetatable = stack.ref()
  }

  /// Sets `__gc` (release the retained Swift object once) and a locked `__metatable` in the
  /// metatable on top: what every userdata of ours needs.
  func setObjectMetatableFields() {
    stack.push("__gc")
    sslua_pushcfunction(L, sslua_object_gc)
    lua_rawset(L, -3)
    stack.push("__metatable")
    stack.push("locked")
    lua_rawset(L, -3)
  }
}
