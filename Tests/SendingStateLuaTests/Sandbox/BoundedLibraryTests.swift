import Foundation
import Testing

@testable import SendingStateLua

/// The sandbox's bounded functions: the same answers as Lua's own (a trusted runtime, which
/// has the standard library untouched, is the oracle), and no way past the limits.
// NB: serialized: the attacks keep a core busy until their deadline, and the main actor shares
// the cooperative pool with them (effect tests elsewhere would starve).
@Suite("Sandbox: bounded library functions", .serialized)
struct BoundedLibraryTests {
  /// Runs `source` and returns its results, or the error message without its position.
  static func outcome(_ runtime: LuaRuntime, _ source: String) -> String {
    do {
      return "\(try runtime.evaluate(source, chunkName: "case"))"
    } catch {
      return "error: \(error.message)"
    }
  }

  static let cases: [String] = [
    // table.insert / remove
    "local t = {1, 2, 3} table.insert(t, 4) return t",
    "local t = {1, 2, 3} table.insert(t, 1, 0) return t",
    "local t = {1, 2, 3} table.insert(t, 4, 9) return t",
    "local t = {1, 2, 3} table.insert(t, 5, 9) return t",
    "local t = {1, 2, 3} table.insert(t, 0, 9) return t",
    "local t = {} table.insert(t, 1, 'a') return t",
    "table.insert({}, 1, 2, 3)",
    "table.insert(1, 2)",
    "local t = {1, 2, 3} return table.remove(t), t",
    "local t = {1, 2, 3} return table.remove(t, 1), t",
    "local t = {} return table.remove(t), t",
    "local t = {} return table.remove(t, 0), t",
    "local t = {1, 2} return table.remove(t, 3), t",
    "local t = {1, 2} return table.remove(t, 4)",
    "local t = {n = 1} return table.remove(t, 1)",
    "local log = {} local p = setmetatable({}, { __len = function() return 2 end, __index = function(_, k) return k * 10 end, __newindex = function(_, k, v) log[#log + 1] = k .. '=' .. tostring(v) end }) table.insert(p, 1, 5) return log",
    // table.sort (distinct keys: sorts need not be stable)
    "local t = {5, 2, 8, 1, 9, 3} table.sort(t) return t",
    "local t = {5, 2, 8, 1, 9, 3} table.sort(t, function(a, b) return a > b end) return t",
    "local t = {'pear', 'apple', 'fig'} table.sort(t) return t",
    "local t = {} for i = 1, 200 do t[i] = (i * 7919) % 1009 end table.sort(t) return t",
    "table.sort({3, 2}, 'no')",
    "local t = {1} table.sort(t) return t",
    "local t = {} table.sort(t) return t",
    // table.concat / unpack / move
    "return table.concat({1, 2, 3}, ', ')",
    "return table.concat({1, 2, 3}, '-', 2)",
    "return table.concat({1, 2, 3}, '-', 2, 3)",
    "return table.concat({}, 'x')",
    "return table.concat({1, {}, 3})",
    "return table.unpack({1, 2, 3})",
    "return table.unpack({1, 2, 3}, 2)",
    "return table.unpack({1, 2, 3}, 2, 5)",
    "return table.unpack({}, 1, 0)",
    "return table.move({1, 2, 3}, 1, 3, 2)",
    "return table.move({1, 2, 3}, 1, 3, 1, {})",
    "return table.move({1, 2, 3}, 2, 1, 1)",
    // string.rep / byte
    "return string.rep('ab', 3)",
    "return string.rep('ab', 3, ',')",
    "return string.rep('ab', 0), string.rep('ab', -1)",
    "return ('x'):rep(4)",
    "return string.byte('hello')",
    "return string.byte('hello', 2, 4)",
    "return string.byte('hello', -2, -1)",
    "return string.byte('hello', 10)",
    "return ('abc'):byte(1, -1)",
    // utf8
    "return utf8.len('héllo')",
    "return utf8.len('\\xff')",
    "return utf8.codepoint('héllo', 1, -1)",
    "return utf8.offset('héllo', 3)",
    "return utf8.char(72, 233)",
  ]

  @Test("the bounded functions answer exactly as Lua's own do", arguments: cases)
  func sameAnswers(source: String) throws {
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    let sandboxed = try LuaRuntime()
    #expect(Self.outcome(sandboxed, source) == Self.outcome(trusted, source))
  }

  /// Attacks that loop in C, and what must stop them.
  static let attacks: [(name: String, source: String)] = [
    ("string.rep of empty pieces", "local s = string.rep('', 1e15)"),
    ("a method call of rep", "local s = (''):rep(1e15, '')"),
    ("concat over a huge range", "table.concat(setmetatable({}, { __index = table.concat }), '', 1, 1e15)"),
    ("unpack over a huge range", "table.unpack({}, 1, 1e7)"),
    ("move over a huge range", "table.move(setmetatable({}, { __index = table.concat }), 1, 1e15, 1)"),
    ("sort of a lying __len", "table.sort(setmetatable({}, { __len = function() return 2^30 end, __index = function() return 1 end, __newindex = rawset }))"),
    ("insert into a lying __len", "table.insert(setmetatable({}, { __len = function() return 1e15 end, __index = rawget, __newindex = rawset }), 1, 'x')"),
    ("remove from a lying __len", "table.remove(setmetatable({}, { __len = function() return 1e15 end, __index = rawget, __newindex = rawset }), 1)"),
    ("load with an endless reader", "load(function() return '--[[' .. ('x'):rep(60000) end)"),
    ("load of a huge comment, again and again", "local s = '--' .. ('x'):rep(1e6) while true do load(s) end"),
    ("utf8.len of a long string, again and again", "local s = ('x'):rep(1e6) while true do utf8.len(s) end"),
    ("string.byte pushing a million values", "local s = ('x'):rep(999000) while true do s:byte(1, -1) end"),
    ("an xpcall handler that loops", "xpcall(error, function() while true do end end)"),
    ("pcall around a loop", "while true do pcall(function() while true do end end) end"),
    ("a coroutine that loops", "while true do coroutine.resume(coroutine.create(function() while true do end end)) end"),
  ]

  @Test("attacks that loop in C stop at the budget or the deadline, naming the script line",
        arguments: attacks.map(\.name))
  func attacksStop(name: String) throws {
    let source = try #require(Self.attacks.first { $0.name == name }?.source)
    var limits = LuaRuntime.Limits()
    limits.instructionBudget = 10_000_000
    limits.timeLimit = .milliseconds(150)
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    let clock = ContinuousClock()
    let start = clock.now
    let error = #expect(throws: ScriptError.self) { try runtime.evaluate(source, chunkName: "attack.lua") }
    // Not a timing assertion: a hang would never get here. The bound is recorded for the note.
    _ = clock.now - start
    #expect(error?.kind == .budgetExceeded || error?.kind == .timeout)
    #expect(error?.chunk == "attack.lua")
    #expect(error?.line == 1)
    // The runtime is usable afterwards, with a fresh budget.
    #expect(try runtime.evaluate("return 1 + 1") == [2])
  }

  @Test("sorting values that cannot be compared is an error naming the line")
  func sortMixed() throws {
    let error = #expect(throws: ScriptError.self) {
      try LuaRuntime().evaluate("local t = {3, 'a'}\ntable.sort(t)", chunkName: "sort.lua")
    }
    // Which pair is compared first depends on the algorithm; the message names both types.
    #expect(error?.message.hasPrefix("attempt to compare ") == true)
    #expect(error?.line == 2)
  }

  @Test("__gc finalizers are refused: they would run with hooks off, even at close")
  func noFinalizers() throws {
    let runtime = try LuaRuntime()
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("setmetatable({}, { __gc = function() while true do end end })", chunkName: "gc.lua")
    }
    #expect(error?.kind == .sandboxViolation)
    #expect(error?.message == "sandbox violation: __gc finalizers are not available to scripts (release resources explicitly)")
    #expect(error?.line == 1)
    // Everything else about setmetatable still works, protection included.
    #expect(try runtime.evaluate("local t = setmetatable({}, { __index = function() return 7 end }) return t.x") == [7])
    let locked = #expect(throws: ScriptError.self) {
      try runtime.evaluate("local t = setmetatable({}, { __metatable = 'no' }) setmetatable(t, {})")
    }
    #expect(locked?.message == "cannot change a protected metatable")
    // Setting __gc later does not register a finalizer (Lua's rule), so it is harmless.
    #expect(try runtime.evaluate("local m = {} setmetatable({}, m) m.__gc = function() end return 1") == [1])
  }

  @Test("an error in an xpcall handler replaces the message; handlers still see ordinary errors")
  func xpcallHandlers() throws {
    let runtime = try LuaRuntime()
    #expect(try runtime.evaluate("return xpcall(error, function(m) return 'handled: ' .. m end, 'boom')") == [false, "handled: boom"])
    #expect(try runtime.evaluate("return xpcall(function(a, b) return a + b end, print, 2, 3)") == [true, 5])
    #expect(try runtime.evaluate("return select(2, xpcall(error, function() error('again', 0) end, 'boom'))") == ["again"])
    // Yields across xpcall work inside coroutines, as with Lua's own.
    let yielded = try runtime.evaluate("""
      local co = coroutine.wrap(function() return xpcall(function() coroutine.yield(1) return 2 end, print) end)
      return co(), co()
      """)
    #expect(yielded == [1, true, 2])
  }

  @Test("coroutines: resume and wrap keep Lua's answers")
  func coroutines() throws {
    let trusted = try LuaRuntime(configuration: .init(mode: .trusted))
    let sandboxed = try LuaRuntime()
    let sources = [
      "local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end) return coroutine.resume(co, 1), coroutine.resume(co, 5)",
      "local co = coroutine.create(function() end) coroutine.resume(co) return coroutine.resume(co)",
      "local co = coroutine.create(function() error('x', 0) end) return coroutine.resume(co)",
      "local co = coroutine.create(function() error('x', 0) end) coroutine.resume(co) return coroutine.resume(co)",
      "return coroutine.resume(coroutine.running())",
      "return pcall(function() return coroutine.resume(42) end)",
      "local co co = coroutine.create(function() return coroutine.resume(co) end) return coroutine.resume(co)",
      "local f = coroutine.wrap(function(...) coroutine.yield(...) return 'done' end) return f(1, 2), f()",
    ]
    for source in sources {
      #expect(Self.outcome(sandboxed, source) == Self.outcome(trusted, source), "\(source)")
    }
  }

  @Test("a memory error inside a coroutine names the coroutine's line")
  func memoryInCoroutine() throws {
    let runtime = try LuaRuntime(configuration: .init(limits: .init(memoryLimit: 2 << 20)))
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("""
        local co = coroutine.wrap(function()
          local t = {}
          for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end
        end)
        co()
        """, chunkName: "co.lua")
    }
    #expect(error?.kind == .memory)
    #expect(error?.chunk == "co.lua")
    #expect(error?.line == 3)
  }

  @Test("a limit that runs out inside a coroutine is raised in the resumer, naming the coroutine's line")
  func limitInResumedCoroutine() throws {
    var limits = LuaRuntime.Limits()
    limits.instructionBudget = 1_000_000
    limits.timeLimit = nil
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    // resume used to return false and the message, and a resumer that ended within the hook's
    // step (a thousand instructions) finished the episode as if nothing had happened.
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("""
        local co = coroutine.create(function()
          while true do end
        end)
        local ok = coroutine.resume(co)
        return ok
        """, chunkName: "resume.lua")
    }
    #expect(error?.kind == .budgetExceeded)
    #expect(error?.chunk == "resume.lua")
    #expect(error?.line == 2)
    // A pcall around the resume catches it, but the next instruction raises again.
    let caught = #expect(throws: ScriptError.self) {
      try runtime.evaluate("""
        local co = coroutine.create(function() while true do end end)
        local ok = pcall(coroutine.resume, co)
        return ok
        """, chunkName: "caught.lua")
    }
    #expect(caught?.kind == .budgetExceeded)
    // Ordinary errors inside a coroutine are still returned by resume.
    #expect(try runtime.evaluate("return coroutine.resume(coroutine.create(function() error('x', 0) end))") == [false, "x"])
  }

  @Test("an error object's __tostring runs under the memory cap (the message handler used to lift it)")
  func errorObjectToStringCapped() throws {
    // No time limit: on a loaded machine the deadline could win the race against the cap.
    let runtime = try LuaRuntime(configuration: .init(limits: .init(memoryLimit: 4 << 20, timeLimit: nil)))
    // 100 MB if the cap were lifted: the error must be the cap's, at the __tostring's line.
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("""
        local grow = function()
          local t = {}
          for i = 1, 100000 do t[i] = ('x'):rep(1000) .. i end
          return "never"
        end
        error(setmetatable({}, { __tostring = grow }))
        """, chunkName: "tostring.lua")
    }
    #expect(error?.kind == .memory)
    #expect(error?.chunk == "tostring.lua", "\(String(describing: error?.fullDescription))")
    #expect(error?.line == 3)
    #expect(runtime.memoryUsed < 4 << 20)
    // An error object whose __tostring stays small is still described, and the next call works.
    let small = #expect(throws: ScriptError.self) {
      try runtime.evaluate("error(setmetatable({}, { __tostring = function() return 'custom' end }))", chunkName: "small.lua")
    }
    #expect(small?.kind == .runtime)
    #expect(small?.message.contains("custom") == true)
    #expect(try runtime.evaluate("return 1 + 1") == [2])
  }

  @Test("strings longer than the limit are memory errors naming the line")
  func stringLimit() throws {
    var limits = LuaRuntime.Limits()
    limits.maxStringBytes = 1 << 20
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    #expect(try runtime.evaluate("return #('x'):rep(1000000)") == [1_000_000])
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("local s = ('x'):rep(600000)\nlocal t = s .. s", chunkName: "big.lua")
    }
    #expect(error?.kind == .memory)
    #expect(error?.line == 2)
    #expect(error?.message == "not enough memory (a string longer than the 1024 KiB scripts may build)")
  }

  @Test("yields across the host boundary name the script line")
  func boundaryYield() throws {
    let runtime = try LuaRuntime()
    runtime.register("call") { call in
      _ = try call.runtime.call(call.reference(1), context: "call")
      return 0
    }
    let outside = #expect(throws: ScriptError.self) { try runtime.evaluate("\ncoroutine.yield(1)", chunkName: "y.lua") }
    #expect(outside?.message == "attempt to yield from outside a coroutine")
    #expect(outside?.line == 2)
    let across = #expect(throws: ScriptError.self) {
      try runtime.evaluate("""
        local co = coroutine.wrap(function()
          call(function() coroutine.yield(1) end)
        end)
        co()
        """, chunkName: "y.lua")
    }
    // Swift calls back into Lua on the main thread, so the yield has no coroutine to leave.
    #expect(across?.message == "attempt to yield from outside a coroutine")
    #expect(across?.line == 2)
  }

  @Test("Swift and Lua calling each other without end stop at the nesting limit")
  func nestingLimit() throws {
    let runtime = try LuaRuntime(configuration: .init(limits: .init(instructionBudget: nil, timeLimit: nil)))
    runtime.register("again") { call in
      _ = try call.runtime.call(call.reference(1), context: "again", arguments: [call.reference(1)])
      return 0
    }
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("local function f(self) again(self) end\nf(f)", chunkName: "nest.lua")
    }
    #expect(error?.kind == .stackOverflow)
    #expect(error?.message.contains("calls between scripts and the host nested deeper than 48") == true)
    #expect(error?.chunk == "nest.lua")
  }

  @Test("coroutines whose __close closes the next, 10,000 deep, fail as a C stack overflow instead of crashing")
  func closeChains() throws {
    // Lua 5.4.4 does not count a reset's __close handlers as C calls: stock Lua crashes here.
    let runtime = try LuaRuntime()
    let result = try runtime.evaluate(
      """
      local previous
      for _ = 1, 10000 do
        local inner = previous
        local co = coroutine.create(function()
          local _ <close> = setmetatable({}, { __close = function()
            if inner then
              local ok, problem = coroutine.close(inner)
              if not ok then error(problem, 0) end
            end
          end })
          coroutine.yield()
        end)
        coroutine.resume(co)
        previous = co
      end
      return coroutine.close(previous)
      """, chunkName: "chain.lua")
    #expect(result == [false, "chain.lua:7: C stack overflow (coroutines closing one another nest deeper than 100)"])
    #expect(try runtime.evaluate("return 1") == [1])
  }
}
