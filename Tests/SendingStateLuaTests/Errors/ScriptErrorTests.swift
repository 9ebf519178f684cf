import Foundation
import Testing

@testable import SendingStateLua

@Suite("Errors: one fixture per kind, with file:line, traceback and context")
struct ScriptErrorTests {
  @Test("syntax: the file and line of the mistake")
  func syntax() throws {
    let error = try #require(try Harness().failure("syntax_error.lua"))
    #expect(error.kind == .syntax)
    #expect(error.chunk?.hasSuffix("syntax_error.lua") == true)
    #expect(error.line == 3)
    #expect(error.message.contains("unexpected symbol near '='"))
  }

  @Test("runtime: reads like a compiler error, with context and traceback")
  func runtime() throws {
    let error = try #require(try Harness().failure("runtime_error.lua", context: "configure (view 'count')"))
    #expect(error.kind == .runtime)
    #expect(error.line == 4)
    #expect(error.message == "attempt to index a nil value (field 'details')")
    #expect(error.description.hasSuffix("runtime_error.lua:4: in configure (view 'count'): attempt to index a nil value (field 'details')"))
    #expect(error.traceback?.hasPrefix("stack traceback:") == true)
    #expect(error.traceback?.contains("runtime_error.lua:4: in ") == true)
    #expect(error.fullDescription.contains("stack traceback:"))
  }

  @Test("memory: the cap stops the script and the runtime stays usable")
  func memory() throws {
    let harness = try Harness(configuration: .init(limits: .init(memoryLimit: 4 << 20, instructionBudget: nil)))
    let error = try #require(harness.failure("memory_bomb.lua"))
    #expect(error.kind == .memory)
    #expect(error.message == "not enough memory (the script reached its memory cap of 4096 KiB)")
    // Lua raises memory errors without a message handler; the host still names the line.
    #expect(error.chunk?.hasSuffix("memory_bomb.lua") == true)
    #expect(error.line == 4)
    #expect(error.traceback?.contains("memory_bomb.lua:4:") == true)
    harness.runtime.collectGarbage()
    #expect(harness.runtime.memoryUsed < 4 << 20)
    #expect(try harness.runtime.evaluate("return #string.rep('a', 1000)") == [1000])
  }

  @Test("budget exceeded: an endless loop is stopped, and the next entry gets a fresh budget")
  func budget() throws {
    let harness = try Harness(configuration: .init(limits: .init(instructionBudget: 100_000)))
    let error = try #require(harness.failure("infinite_loop.lua"))
    #expect(error.kind == .budgetExceeded)
    #expect(error.message == "instruction budget exceeded (100000 instructions)")
    #expect((3...5).contains(error.line ?? 0))
    #expect(try harness.runtime.evaluate("local n = 0 for i = 1, 1000 do n = n + i end return n") == [500500])
  }

  @Test("budget exceeded: neither a coroutine nor pcall escapes it")
  func budgetCannotBeEscaped() throws {
    let harness = try Harness(configuration: .init(limits: .init(instructionBudget: 200_000)))
    let error = try #require(harness.failure("budget_in_coroutine.lua"))
    #expect(error.kind == .budgetExceeded)
  }

  @Test("stack overflow: deep Lua recursion and C-stack overflow are errors, not crashes")
  func stackOverflow() throws {
    let harness = try Harness(configuration: .init(limits: .init(instructionBudget: nil)))
    let lua = try #require(harness.failure("deep_recursion.lua"))
    #expect(lua.kind == .stackOverflow)
    #expect(lua.line == 3)
    let c = try #require(harness.failure("c_stack_overflow.lua"))
    #expect(c.kind == .stackOverflow)
    #expect(try harness.runtime.evaluate("return 1") == [1])
  }

  @Test("type mismatch and host errors keep their kind through Lua")
  func callbackErrorKinds() throws {
    let harness = try Harness()
    harness.runtime.register("explode") { call in
      _ = try call.string(1)
      return 0
    }
    let error = try #require(harness.failure("callback_error_uncaught.lua", context: "handle (action 'go')"))
    #expect(error.kind == .typeMismatch)
    #expect(error.line == 3)
    #expect(error.context == "handle (action 'go')")
    #expect(error.message == "bad argument #1 to 'explode' (string expected, got number)")
  }

  @Test("100,000 errors raised from a Swift callback leak nothing and carry file:line")
  func callbackErrorsDoNotLeak() throws {
    let harness = try Harness(configuration: .init(limits: .init(instructionBudget: nil, timeLimit: nil)))
    Tracked.alive = 0
    harness.runtime.register("explode") { call in
      let tracked = Tracked("in flight")  // must be released although the call fails
      throw ScriptError(kind: .runtime, message: "explode \(try call.integer(1)) failed (\(tracked.name))")
    }
    let results = try harness.run("callback_error_loop.lua")
    #expect(results.first == 100_000)
    let last = try #require(results.last?.stringValue)
    #expect(last.hasSuffix("callback_error_loop.lua:5: explode 100000 failed (in flight)"))
    #expect(Tracked.alive == 0)
    #expect(harness.runtime.stack.top == 0)
  }

  @Test("descriptions omit unknown parts; positions parse from Lua messages")
  func formatting() {
    #expect(ScriptError(kind: .runtime, message: "boom").description == "boom")
    #expect(ScriptError(kind: .runtime, message: "boom", context: "handle").description == "in handle: boom")
    let parsed = ScriptError(parsing: "dir/a.lua:12: bad\nstack traceback:\n\t[C]: in ?", kind: .runtime)
    #expect(parsed.chunk == "dir/a.lua" && parsed.line == 12 && parsed.message == "bad")
    #expect(parsed.traceback == "stack traceback:\n\t[C]: in ?")
    let plain = ScriptError(parsing: "no position: here", kind: .runtime)
    #expect(plain.chunk == nil && plain.message == "no position: here")
    #expect(ScriptError(kind: .runtime, message: "m").inContext("a").inContext("b").context == "a")
  }

  @Test("the script frames of a traceback leave out the kernel, the sandbox, the spec host and C; none left is nil")
  func scriptTraceback() {
    let error = ScriptError(
      parsing: """
        screen.lua:5: bad
        stack traceback:
        \t[C]: in function 'error'
        \tkernel.engine:338: in local 'on'
        \tscreen.lua:5: in local 'fn'
        \t(...tail calls...)
        \tsandbox:12: in function <sandbox:10>
        \t...ong/path/to/plugins/rating/rating.lua:9: in upvalue 'helper'
        \tsendingstate/host.lua:343: in function <sendingstate/host.lua:341>
        \tkernel.engine:1454: in function <kernel.engine:1431>
        """, kind: .runtime)
    #expect(
      error.scriptTraceback == """
        stack traceback (script frames; --verbose shows the host's too):
        \tscreen.lua:5: in local 'fn'
        \t...ong/path/to/plugins/rating/rating.lua:9: in upvalue 'helper'
        """)
    #expect(error.scriptDescription == "screen.lua:5: bad\n" + error.scriptTraceback!)
    #expect(error.fullDescription.contains("kernel.engine:338"))
    let hostOnly = ScriptError(parsing: "x.lua:1: bad\nstack traceback:\n\t[C]: in ?\n\tkernel.state:80: in upvalue 'fail'", kind: .runtime)
    #expect(hostOnly.scriptTraceback == nil)
    #expect(hostOnly.scriptDescription == "x.lua:1: bad")
  }
}
