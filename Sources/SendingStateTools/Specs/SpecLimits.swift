import CLuaShim
import SendingStateLua

/// The limits of a spec run, in the C shim (`Sources/CLuaShim/SpecLimits.c`): what lets
/// `--timeout` hold in coroutines and in library functions that loop in C, and only the
/// runner's own safe call end a timeout.
///
/// The spec host requires it as `sendingstate.limits` and installs its functions in place of the
/// standard ones (see ``SpecHost``).
enum SpecLimits {
  /// Puts the library in `package.loaded` of `runtime` (a trusted runtime, before the host runs).
  static func install(in runtime: LuaRuntime) throws {
    guard let state = rawState(of: runtime) else {
      throw ToolError.script(ScriptError(kind: .runtime, message: "sendingstate test: cannot reach the Lua state of the spec runtime (a host bug)"))
    }
    var why = [CChar](repeating: 0, count: 256)
    guard sslua_install_spec_limits(state, &why, why.count) == 1 else {
      let message = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ToolError.script(ScriptError(kind: .runtime, message: "sendingstate test: cannot install the spec limits (\(message))"))
    }
  }

  /// The runtime's `lua_State` (for the host's own C: our modules only).
  static func rawState(of runtime: LuaRuntime) -> OpaquePointer? {
    runtime.rawState
  }
}
