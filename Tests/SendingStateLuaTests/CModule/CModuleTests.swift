import CLua
import Foundation
import CLuaShim
import Testing

@Suite("C module: shim constants and the installed Lua")
struct CModuleTests {
  @Test("the shim sees the installed Lua 5.4 headers")
  func versionAndConstants() {
    #expect(SSLUA_VERSION_RELEASE_NUM / 100 == 504)
    #expect(SSLUA_REGISTRYINDEX == -1_001_000)
    #expect(sslua_upvalueindex(1) == SSLUA_REGISTRYINDEX - 1)
  }

  @Test("the counting allocator tracks memory and the state closes cleanly")
  func allocatorCounts() throws {
    let state = try #require(sslua_newstate(0, nil))
    let before = sslua_memory_used(state)
    lua_createtable(state, 1000, 0)
    #expect(sslua_memory_used(state) > before)
    sslua_pop(state, 1)
    sslua_gc_collect(state)
    #expect(sslua_memory_used(state) <= before + 64)
    sslua_close(state)
  }
}

@Suite("The error-trampoline rule")
struct TrampolineRuleTests {
  /// Lua APIs that can raise (longjmp): Swift must never call them; the C shim does that work.
  static let raising = [
    "lua_error", "luaL_error", "luaL_check", "luaL_arg", "luaL_opt", "lua_call", "lua_callk", "lua_gettable",
    "lua_getfield", "lua_settable", "lua_setfield", "lua_geti", "lua_seti", "lua_concat", "lua_len", "lua_compare",
    "luaL_tolstring", "luaL_len", "lua_arith", "luaL_callmeta", "lua_getglobal", "lua_setglobal",
  ]

  @Test("no Swift source of the Lua host calls a Lua API that can raise")
  func swiftCallsNoRaisingAPI() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/SendingStateLua")
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count > 5)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for name in Self.raising {
        let pattern = try Regex("\\b\(name)[a-z]*\\(")
        let calls = text.contains(pattern)
        #expect(!calls, "\(file.lastPathComponent) calls \(name): route it through the C shim")
      }
    }
  }
}
