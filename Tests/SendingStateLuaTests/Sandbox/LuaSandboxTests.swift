import Foundation
import Testing

@testable import SendingStateLua

@Suite("Sandbox: one fixture per rule")
struct LuaSandboxTests {
  func sandboxed() throws -> Harness {
    try Harness(configuration: .init(scriptRoots: [fixturesFolder + "/modules"]))
  }

  @Test(
    "forbidden globals and members are sandbox violations naming what was used",
    arguments: [
      ("sandbox_io.lua", "'io' is not available to scripts"),
      ("sandbox_debug.lua", "'debug' is not available to scripts"),
      ("sandbox_dofile.lua", "'dofile' is not available to scripts"),
      ("sandbox_loadfile.lua", "'loadfile' is not available to scripts"),
      ("sandbox_package.lua", "'package' is not available to scripts"),
      ("sandbox_os_execute.lua", "os.execute is not available to scripts"),
      ("sandbox_string_dump.lua", "string.dump is not available to scripts"),
      ("sandbox_load_env.lua", "load with a caller-chosen environment is not available to scripts"),
      ("sandbox_load_binary.lua", "binary chunks are not available to scripts (load mode must be 't')"),
      ("sandbox_collectgarbage.lua", "collectgarbage('collect') is not available to scripts (only 'count' is)"),
      ("sandbox_require_escape.lua", "module name '..secret' is not allowed (use dotted names like 'ui.card')"),
    ])
  func violation(fixture: String, message: String) throws {
    let error = try #require(try sandboxed().failure(fixture))
    #expect(error.kind == .sandboxViolation)
    #expect(error.message == LuaSandbox.violationMarker + message)
    #expect(error.chunk?.hasSuffix(fixture) == true)
    #expect(error.line != nil)
  }

  @Test("read-only objects keep their data: pairs does not hand it out, rawset refuses them")
  func readOnlyData() throws {
    let runtime = try sandboxed().runtime
    // A read-only object as the engine makes them: an empty proxy whose metatable names its data.
    let object = """
      local data = { a = 1, b = 2 }
      local ro = setmetatable({}, {
        __index = data, __newindex = function() error("read-only", 2) end,
        __pairs = function() return next, data, nil end, __readonly = data, __metatable = false,
      })
      """
    #expect(
      try runtime.evaluate(object + """
        local step, handed = pairs(ro)
        local sum = 0
        for key, value in pairs(ro) do sum = sum + value end
        return rawequal(handed, data), rawequal(handed, ro), sum
        """) == [false, true, 3])
    let write = #expect(throws: ScriptError.self) {
      try runtime.evaluate(object + "\nrawset(ro, 'a', 777)", chunkName: "ro.lua")
    }
    #expect(write?.kind == .sandboxViolation)
    #expect(write?.line == 6)
    // Plain tables and objects without __readonly are as before.
    #expect(
      try runtime.evaluate("""
        local t = setmetatable({}, { __pairs = function(t) return next, { x = 1 }, nil end })
        local _, s = pairs(t)
        rawset(t, 'y', 2)
        return s.x, rawget(t, 'y')
        """) == [1, 2])
  }

  @Test("string methods have no dump either")
  func stringMethodDump() throws {
    let error = try #require(try sandboxed().failure("sandbox_string_method_dump.lua"))
    #expect(error.message.contains("attempt to call a nil value (field 'dump')"))
  }

  @Test("the string metatable is hidden and a script's changes stay in its own copy")
  func stringMetatable() throws {
    let harness = try sandboxed()
    #expect(try harness.run("sandbox_string_metatable.lua") == ["ABC", "pwned"])
    // Another script of the same runtime still has the real method.
    #expect(try harness.runtime.evaluate("return string.upper('x'), ('y'):upper()") == ["X", "Y"])
  }

  @Test("require finds Lua modules only under the roots; C modules are not found")
  func requireMissing() throws {
    let error = try #require(try sandboxed().failure("sandbox_require_missing.lua"))
    #expect(error.kind == .runtime)
    #expect(error.message.hasPrefix("module 'lfs' not found; searched:"))
    #expect(error.line == 2)
    let noRoots = try #require(try Harness().failure("sandbox_require_missing.lua"))
    #expect(noRoots.message.contains("no script roots are declared"))
  }

  @Test("a syntax error in a required module points at the module's line")
  func requireBroken() throws {
    let error = try #require(try sandboxed().failure("sandbox_require_broken.lua"))
    #expect(error.kind == .syntax)
    #expect(error.chunk?.hasSuffix("modules/broken.lua") == true)
    #expect(error.line == 3)
  }

  @Test("a module reached through a symlink that leaves the root is a violation")
  func requireSymlinkEscape() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("ss-sandbox-\(UUID().uuidString)")
    let root = base.appendingPathComponent("root")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: base) }
    try "return 'secret'".write(to: base.appendingPathComponent("outside.lua"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      at: root.appendingPathComponent("escape.lua"), withDestinationURL: base.appendingPathComponent("outside.lua"))
    let runtime = try LuaRuntime(configuration: .init(scriptRoots: [root.path]))
    do {
      try runtime.evaluate("return require('escape')", chunkName: "main.lua")
      Issue.record("expected a violation")
    } catch {
      #expect(error.kind == .sandboxViolation)
      #expect(error.message.contains("leads outside its folder"), "\(error)")
    }
  }

  @Test("everything allowed works: string, table, math, utf8, coroutine, os time, load, require, print")
  func allowed() throws {
    let harness = try sandboxed()
    let result = try harness.run("sandbox_allowed.lua")
    #expect(result == ["7-AB x,y 9 5 2/10 numbernumberstring w 42 hello lua"])
    #expect(harness.printed == ["printed\t1\tnil"])
  }

  @Test("each script gets its own environment; globals do not leak between them")
  func separateEnvironments() throws {
    let runtime = try LuaRuntime()
    try runtime.evaluate("leaked = 1; math.pi = 3")
    #expect(try runtime.evaluate("return leaked, math.pi > 3.1") == [nil, true])
  }

  @Test("trusted mode has the full libraries and is never the default")
  func trustedMode() throws {
    #expect(LuaRuntime.Configuration().mode == .sandboxed)
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    #expect(try trusted.evaluate("return type(io), type(debug), type(os.execute)") == ["table", "table", "function"])
  }
}
