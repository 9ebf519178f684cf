import CLua
import Foundation
import Testing

@testable import SendingStateLua

/// The watch (`Sources/CLuaShim/LuaWatch.c`): a deadline with no instruction budget runs with no
/// Lua hook at all, and a signal sets the hook when the deadline passes.
@Suite("Runtime: the wall-clock deadline without a hook (the watch)")
struct LuaWatchTests {
  /// A runtime with a deadline and no budget, and a `hookmask()` that reports the calling
  /// thread's Lua hook mask (0: Lua runs at full speed).
  static func runtime(time: Duration = .milliseconds(100), budget: Int? = nil) throws -> LuaRuntime {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = time
    limits.instructionBudget = budget
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    runtime.register("hookmask") { call in
      call.push(Int64(lua_gethookmask(call.stack.L)))
      return 1
    }
    return runtime
  }

  @Test("a deadline alone sets no hook; a budget sets the count hook")
  func noHookWithoutBudget() throws {
    let watched = try Self.runtime()
    #expect(try watched.evaluate("return hookmask()") == [0])
    // Also inside a coroutine the script runs.
    #expect(try watched.evaluate("return select(2, coroutine.resume(coroutine.create(hookmask)))") == [0])
    let counted = try Self.runtime(budget: 1_000_000)
    #expect(try counted.evaluate("return hookmask()") == [.integer(Int64(LUA_MASKCOUNT))])
  }

  @Test("an endless loop stops at the deadline, naming its line, and the runtime goes on")
  func endlessLoop() throws {
    let runtime = try Self.runtime()
    let error = #expect(throws: ScriptError.self) { try runtime.evaluate("local n = 0\nwhile true do n = n + 1 end") }
    #expect(error?.kind == .timeout)
    #expect(error?.line == 2)
    #expect(try runtime.evaluate("return hookmask(), 1 + 1") == [0, 2])
  }

  @Test("nor can a loop hide in a coroutine, or catch the limit with pcall and go on")
  func coroutinesAndPcall() throws {
    let runtime = try Self.runtime()
    let inCoroutine = #expect(throws: ScriptError.self) {
      try runtime.evaluate("local co = coroutine.wrap(function() while true do end end)\nco()")
    }
    #expect(inCoroutine?.kind == .timeout)
    let caught = #expect(throws: ScriptError.self) {
      try runtime.evaluate("while true do pcall(function() while true do end end) end")
    }
    #expect(caught?.kind == .timeout)
    // A loop that yields between slices of work: the deadline holds across resumes.
    let yielding = #expect(throws: ScriptError.self) {
      try runtime.evaluate(
        """
        local co = coroutine.create(function() while true do for _ = 1, 1000 do end coroutine.yield() end end)
        while true do coroutine.resume(co) end
        """)
    }
    #expect(yielding?.kind == .timeout)
  }

  @Test("a coroutine's __close handlers run under the deadline: after an error, and from coroutine.close")
  func closeHandlers() throws {
    let loopingClose = "local x <close> = setmetatable({}, { __close = function() while true do end end })"
    let afterError = try Self.onThread {
      try Self.kind(of: "coroutine.resume(coroutine.create(function() \(loopingClose) error('boom') end))")
    }
    #expect(afterError == ScriptError.Kind.timeout.rawValue)
    let closed = try Self.onThread {
      try Self.kind(
        of: "local co = coroutine.create(function() \(loopingClose) coroutine.yield() end)\n"
          + "coroutine.resume(co)\ncoroutine.close(co)")
    }
    #expect(closed == ScriptError.Kind.timeout.rawValue)
  }

  @Test("table.concat over a huge range of elements an __index in C makes ends at the deadline")
  func concatInC() throws {
    let outcome = try Self.onThread {
      try Self.kind(of: "table.concat(setmetatable({}, { __index = function() return '' end }), '', 1, math.maxinteger)")
    }
    #expect(outcome == ScriptError.Kind.timeout.rawValue)
    let inC = try Self.onThread {
      try Self.kind(of: "table.concat(setmetatable({}, { __index = rawlen }), '', 1, math.maxinteger)")
    }
    #expect(inC == ScriptError.Kind.timeout.rawValue)
  }

  @Test("trusted code may use Lua's own coroutines: its deadline stays with the count hook")
  func trustedMode() throws {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = .milliseconds(100)
    let runtime = try LuaRuntime(configuration: .init(limits: limits, mode: .trusted))
    runtime.register("hookmask") { call in
      call.push(Int64(lua_gethookmask(call.stack.L)))
      return 1
    }
    #expect(try runtime.evaluate("return hookmask()") == [.integer(Int64(LUA_MASKCOUNT))])
    let error = #expect(throws: ScriptError.self) { try runtime.evaluate("coroutine.wrap(function() while true do end end)()") }
    #expect(error?.kind == .timeout)
  }

  /// The kind of error `source` ends with in a fresh watched runtime ("no error" if none).
  static func kind(of source: String) throws -> String {
    let runtime = try Self.runtime()
    do {
      try runtime.evaluate(source)
      return "no error"
    } catch {
      return error.kind.rawValue
    }
  }

  @Test("a thread that blocks every signal is still stopped (a pool's threads may)")
  func blockedSignals() throws {
    let outcome = try Self.onThread {
      var all = sigset_t()
      sigfillset(&all)
      pthread_sigmask(SIG_BLOCK, &all, nil)
      let runtime = try Self.runtime()
      do {
        try runtime.evaluate("while true do end")
        return "no error"
      } catch let error as ScriptError {
        return error.kind.rawValue
      }
    }
    #expect(outcome == ScriptError.Kind.timeout.rawValue)
  }

  /// Runs `body` on a thread of its own and returns what it returned.
  static func onThread(_ body: @escaping @Sendable () throws -> String) throws -> String {
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.set(Result { try body() })
      done.signal()
    }
    thread.start()
    // A broken watch would leave the thread looping: fail instead of hanging the suite.
    guard done.wait(timeout: .now() + 60) == .success else { return "still running after 60 s" }
    return try box.get()
  }

  final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<String, any Error> = .success("")
    func set(_ value: Result<String, any Error>) { lock.withLock { result = value } }
    func get() throws -> String { try lock.withLock { try result.get() } }
  }
}
