import CLua
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
