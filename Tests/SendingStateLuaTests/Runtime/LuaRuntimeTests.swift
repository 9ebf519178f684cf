import CLua
import Foundation
import Testing

@testable import SendingStateLua

@Suite("Runtime: loading, calling, references, balance")
struct LuaRuntimeTests {
  @Test("evaluates text chunks and calls referenced functions with data arguments")
  func evaluateAndCall() throws {
    let runtime = try LuaRuntime()
    #expect(try runtime.evaluate("return 1 + 2, 'x', nil, true") == [3, "x", nil, true])
    let function = try runtime.load("return function(a, b) return a .. b, #a end")
    let made = try #require(try runtime.call(function).first)
    #expect(made == .opaque("function"))
    let concat = try runtime.load("local a, b = ...; return a .. b")
    #expect(try runtime.call(concat, with: ["ab", "cd"]) == ["abcd"])
    #expect(runtime.stack.top == 0)
  }

  @Test("a script file over 16 MiB is refused from its size, before it is read")
  func hugeFile() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ss-huge-\(UUID().uuidString).lua").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 1 << 32)  // 4 GiB, sparse: reading it would take seconds and gigabytes
    try handle.close()
    let error = #expect(throws: ScriptError.self) { try LuaRuntime().loadFile(path) }
    #expect(error?.message == "cannot read '\(path)': it is 4294967296 bytes, more than a script may be (16777216)")
  }

  @Test("binary chunks are refused: text mode only")
  func textOnly() throws {
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    let bytecode = try trusted.evaluate("return string.dump(function() return 1 end)")[0]
    guard case .string(let binary) = bytecode else {
      Issue.record("no bytecode")
      return
    }
    #expect(throws: ScriptError.self) { try trusted.load(binary, chunkName: "binary") }
    do {
      _ = try trusted.load(binary, chunkName: "binary")
    } catch {
      #expect(error.kind == .syntax)
      #expect(error.message.contains("binary chunk"))
    }
  }

  @Test("host chunks (\"=name\") are compiled once per name and text, two texts under one name included")
  @MainActor
  func hostChunkCache() throws {
    let name = "=host-cache-test-\(UUID().uuidString)"
    let runtime = try LuaRuntime()
    #expect(try runtime.call(runtime.load("return 'first'", chunkName: name)) == ["first"])
    // Loaded again from the cache in a fresh state, and still the same code.
    let fresh = try LuaRuntime()
    #expect(try fresh.call(fresh.load("return 'first'", chunkName: name)) == ["first"])
    // Same name, other text: never the cached bytecode.
    #expect(try runtime.call(runtime.load("return 'second'", chunkName: name)) == ["second"])
    #expect(try runtime.call(runtime.load("return 'first'", chunkName: name)) == ["first"])
    #expect(HostChunkCache.isCached("return 'first'", chunkName: name))
    #expect(HostChunkCache.isCached("return 'second'", chunkName: name))
    #expect(!HostChunkCache.isCached("return 'third'", chunkName: name))
    // The screen kernel's two chunks and the sandbox's prelude are kept (opening a screen
    // compiles only the screen's own files).
    _ = try LuaScreen(path: examplePath("counter/counter.lua"))
    #expect(HostChunkCache.isCached(KernelEngineSource.source, chunkName: "=kernel.engine"))
    #expect(HostChunkCache.isCached(KernelStateSource.source, chunkName: "=kernel.state"))
    #expect(HostChunkCache.isCached(LuaSandbox.prelude, chunkName: "=sandbox"))
    // A binary chunk handed to a host name is still refused (the cache only loads its own bytes).
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    guard case .string(let binary) = try trusted.evaluate("return string.dump(function() return 1 end)")[0] else {
      Issue.record("no bytecode")
      return
    }
    #expect(throws: ScriptError.self) { try trusted.load(binary, chunkName: "=binary-\(UUID().uuidString)") }
  }

  @Test("the kernel's chunks load without their debug information; other host chunks and scripts keep theirs")
  @MainActor
  func kernelChunksStripped() throws {
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    let lines = "return debug.getinfo(1, 'l').currentline, debug.getinfo(1, 'S').source"
    // The first load (compiled from text) and a later one (the cached bytecode) alike.
    for _ in 0..<2 {
      #expect(try trusted.call(trusted.load(lines, chunkName: "=kernel.stripped-test")) == [-1, "=?"])
      #expect(try trusted.call(trusted.load(lines, chunkName: "=kept-test")) == [1, "=kept-test"])
    }
    #expect(try trusted.evaluate("\nreturn debug.getinfo(1, 'l').currentline", chunkName: "lines.lua") == [2])
    // An error raised in a stripped chunk ("?:-1: …") names the script's line instead.
    try trusted.call(trusted.load("function kernelFails() local t; return t.x end", chunkName: "=kernel.fails-test"))
    let failure = #expect(throws: ScriptError.self) { try trusted.evaluate("\nkernelFails()", chunkName: "caller.lua") }
    #expect(failure?.line == 2)
    #expect(failure?.message.hasPrefix("attempt to index a nil value") == true, "\(String(describing: failure?.message))")
    #expect(failure?.description.contains("?:-1") == false, "\(String(describing: failure?.description))")
  }

  @Test("Swift functions: arguments, results, and errors that name the function")
  func swiftFunctions() throws {
    let runtime = try LuaRuntime()
    runtime.register("add") { call in
      try call.push(.integer(try call.integer(1) + call.integer(2)))
      return 1
    }
    #expect(try runtime.evaluate("return add(2, 40)") == [42])
    do {
      try runtime.evaluate("\nreturn add('x', 1)", chunkName: "args.lua")
      Issue.record("expected a type mismatch")
    } catch {
      #expect(error.kind == .typeMismatch)
      #expect(error.chunk == "args.lua" && error.line == 2)
      #expect(error.message == "bad argument #1 to 'add' (integer expected, got string)")
    }
    #expect(runtime.stack.top == 0)
  }

  @Test("a Swift function's error that a script caught with pcall does not colour a later call's error")
  func caughtCallbackErrorsDoNotLinger() throws {
    let runtime = try LuaRuntime()
    runtime.register("picky") { call in
      _ = try call.integer(1)
      return 0
    }
    // The callback's typed error (a type mismatch) is caught by the script itself…
    #expect(try runtime.evaluate("return (pcall(picky, 'x'))") == [false])
    // …so a later call's own error with the same words is the later call's: a runtime error.
    do {
      try runtime.evaluate("error(\"bad argument #1 to 'picky' (integer expected, got string)\")", chunkName: "later.lua")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .runtime)
      #expect(error.chunk == "later.lua" && error.line == 1)
    }
  }

  @Test("a Swift function's error keeps its kind while a __close handler calls Swift again during the unwinding")
  func callbackErrorSurvivesNestedCalls() throws {
    let runtime = try LuaRuntime()
    runtime.register("picky") { call in
      _ = try call.integer(1)
      return 0
    }
    runtime.register("nest") { call in
      // A whole protected call of its own, which succeeds. (Through `call.runtime`: a closure
      // holding a LuaRef would keep the runtime alive for ever.)
      _ = try call.runtime.evaluate("return 1")
      return 0
    }
    do {
      try runtime.evaluate(
        "local guard <close> = setmetatable({}, { __close = function() nest() end })\npicky('x')", chunkName: "close.lua")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .typeMismatch)
      #expect(error.chunk == "close.lua" && error.line == 2)
    }
  }

  @Test("references keep values alive and release their registry slot on deinit")
  func referencesRelease() throws {
    let runtime = try LuaRuntime()
    // luaL_unref turns a slot into a free-list integer, so count the function slots.
    let countRefs = try runtime.load(
      "local n = 0; for _, v in pairs(...) do if type(v) == 'function' then n = n + 1 end end; return n")
    func registrySize() throws -> Int64 {
      runtime.stack.push(reference: countRefs.reference)
      lua_pushvalue(runtime.L, SSLUA_REGISTRYINDEX)
      try runtime.protectedCall(arguments: 1, results: 1, context: nil)
      defer { runtime.stack.pop() }
      return lua_tointegerx(runtime.L, -1, nil)
    }
    let before = try registrySize()
    var refs: [LuaRef] = (0..<50).map { _ in runtime.makeFunction("f") { _ in 0 } }
    #expect(try registrySize() == before + 50)
    refs.removeAll()
    #expect(try registrySize() == before)
  }

  @Test("table fields are read and written raw through references")
  func referenceFields() throws {
    let runtime = try LuaRuntime()
    let table = try runtime.load("return { name = 'x', nested = { 1, 2 } }")
    let value = try #require(try runtime.call(table).first)
    #expect(value["name"] == "x")
    #expect(value["nested"][2] == 2)
    let env = try runtime.newEnvironment()
    try env.setField("answer", to: 42)
    #expect(try runtime.call(runtime.load("return answer", environment: env)) == [42])
    #expect(env.field("answer")?.typeName == "number")
    #expect(env.field("missing") == nil)
  }
}
