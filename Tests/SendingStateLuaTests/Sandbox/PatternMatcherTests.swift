import CLua
import CLuaShim
import Foundation
import Testing

/// A raw Lua state (standard libraries, no runtime) for the pattern functions of the bounded
/// library. Every call into Lua goes through `sslua_pcall`, so no Lua error crosses a Swift frame.
private final class PatternState {
  let L: OpaquePointer

  init() throws {
    L = try #require(sslua_newstate(0, nil))
    luaL_openlibs(L)
  }

  deinit { sslua_close(L) }

  /// What a call returned: its results (integers and strings, as text) or its error message.
  enum Outcome: Equatable {
    case values([String])
    case failure(String)

    var failureMessage: String? {
      if case .failure(let message) = self { return message }
      return nil
    }
  }

  /// Runs `source` with the bounded library's table (from `sslua_open_bounded`) and `arguments`,
  /// under `sslua_pcall` (which starts the episode's limits), and returns `results` results.
  func run(_ source: String, chunk: String, arguments: [Argument] = [], results: Int32 = 0) -> Outcome {
    let base = lua_gettop(L)
    defer { lua_settop(L, base) }
    var text = source
    let status = text.withUTF8 { bytes in
      ("@" + chunk).withCString { name in
        sslua_loadtext(L, UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self), bytes.count, name)
      }
    }
    guard status == LUA_OK else { return .failure(message(at: -1)) }
    sslua_pushcfunction(L, sslua_open_bounded)
    guard sslua_pcall(L, 0, 1) == LUA_OK else { return .failure(message(at: -1)) }
    for argument in arguments {
      switch argument {
      case .string(let value): lua_pushstring(L, value)
      case .integer(let value): lua_pushinteger(L, value)
      }
    }
    guard sslua_pcall(L, Int32(1 + arguments.count), results) == LUA_OK else {
      return .failure(message(at: -1))
    }
    return .values((0..<results).map { message(at: -results + $0) })
  }

  enum Argument {
    case string(String)
    case integer(Int64)
  }

  /// The string or integer at `index` as text, without converting the value in place.
  private func message(at index: Int32) -> String {
    switch lua_type(L, index) {
    case LUA_TSTRING:
      var length = 0
      let bytes = sslua_tolstring(L, index, &length)!
      return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    case LUA_TNUMBER:
      var ok: Int32 = 0
      return String(lua_tointegerx(L, index, &ok))
    default:
      return "(a \(String(cString: sslua_typename_at(L, index))))"
    }
  }
}

/// The prelude of attack scripts: the pattern functions under test as locals.
private let prelude = """
  local bounded = ...
  local find, match = bounded["string.find"], bounded["string.match"]
  local gmatch, gsub = bounded["string.gmatch"], bounded["string.gsub"]
  """

@Suite("Pattern functions: Lua 5.4's semantics, every step charged")
struct PatternMatcherTests {
  /// Runs a corpus of the oracle fixture; records the first mismatches it reports.
  private func compare(corpus: String, seed: Int64 = 1, size: Int64 = 0) throws -> Int {
    let source = try String(contentsOfFile: fixturePath("pattern_oracle.lua"), encoding: .utf8)
    let outcome = try PatternState().run(
      source, chunk: "pattern_oracle.lua",
      arguments: [.string(corpus), .integer(seed), .integer(size)], results: 3)
    guard case .values(let values) = outcome else {
      Issue.record("the oracle failed: \(outcome)")
      return 0
    }
    let cases = try #require(Int(values[0]))
    let mismatches = try #require(Int(values[1]))
    #expect(mismatches == 0, "\(mismatches) of \(cases) cases differ from Lua's own functions:\n\(values[2])")
    return cases
  }

  @Test("hand-written cases for every feature and error agree with Lua's own functions")
  func handWritten() throws {
    #expect(try compare(corpus: "hand") >= 1000)
  }

  @Test("random patterns and subjects agree with Lua's own functions (seeded)")
  func random() throws {
    // 25,000 pattern/subject pairs, each through find, match, gmatch and gsub.
    #expect(try compare(corpus: "random", seed: 20_240_917, size: 25_000) == 100_000)
  }

  @Test("plain searches of near misses in long subjects agree with Lua's own find")
  func plain() throws {
    #expect(try compare(corpus: "plain", seed: 7, size: 3_000) == 3_000)
  }

  /// Work that would keep Lua's own functions in C for hours, or for ever. Those that are
  /// linear for us (a plain search, a gsub) repeat until a limit stops them.
  static let attacks: [(String, String)] = [
    ("nested quantifiers", #"find(string.rep("a", 5000), string.rep("a*", 20) .. "b")"#),
    ("thirty greedy items", #"for _ in gmatch(string.rep("a", 300), string.rep("a*", 30) .. "x") do end"#),
    ("lazy items", #"gsub(string.rep("a", 2000), string.rep("a-", 12) .. "b", "")"#),
    ("optional items", #"match(string.rep("a", 190), string.rep("a?", 190) .. "b")"#),
    ("%b over unbalanced input", #"find(string.rep("(", 1 << 20), "%b()")"#),
    ("back-references", #"find(string.rep("a", 1 << 16), "(a*)%1%1b")"#),
    ("a set of 60,000 bytes", #"find(string.rep("z", 1 << 16), "[" .. string.rep("a", 60000) .. "]*y")"#),
    ("a near miss as a pattern", #"find(string.rep("a", 1 << 20), string.rep("a", 4096) .. "b.")"#),
    (
      "gsub with empty matches over 1 MB",
      #"local s = string.rep("x", 1 << 20) while true do gsub(s, "", "") end"#
    ),
    (
      "gsub with function replacements over 1 MB",
      #"local s = string.rep("x", 1 << 20) while true do gsub(s, "x-", string.upper) end"#
    ),
    (
      "plain find of a near miss in 1 MB",
      #"local h, n = string.rep("a", 1 << 20), string.rep("a", 4096) .. "b" while true do find(h, n, 1, true) end"#
    ),
    (
      "plain find of a periodic near miss",
      #"local h, n = string.rep("ab", 1 << 19), string.rep("ab", 3000) .. "b" while true do find(h, n, 1, true) end"#
    ),
  ]

  @Test("pathological patterns stop at the instruction budget", arguments: attacks)
  func budgetStopsAttack(name: String, attack: String) throws {
    let state = try PatternState()
    sslua_set_budget(state.L, 10_000_000)
    let outcome = state.run(prelude + "\n" + attack, chunk: "attack.lua")
    let message = try #require(outcome.failureMessage, "\(name) was not stopped")
    #expect(message.hasPrefix("attack.lua:4:"), "\(message)")
    #expect(message.contains("instruction budget exceeded"), "\(name): \(message)")
    #expect(sslua_trip_reason(state.L) == SSLUA_TRIP_BUDGET)
  }

  @Test("pathological patterns stop at the deadline", arguments: attacks)
  func deadlineStopsAttack(name: String, attack: String) throws {
    let state = try PatternState()
    sslua_set_time_limit(state.L, 200_000_000)
    let outcome = state.run(prelude + "\n" + attack, chunk: "attack.lua")
    let message = try #require(outcome.failureMessage, "\(name) was not stopped")
    #expect(message.hasPrefix("attack.lua:4:"), "\(message)")
    #expect(message.contains("time limit exceeded"), "\(name): \(message)")
    #expect(sslua_trip_reason(state.L) == SSLUA_TRIP_TIME)
  }

  @Test("a plain search is linear: a near miss in 1 MB costs about a unit per byte, at worst")
  func plainSearchIsLinear() throws {
    let state = try PatternState()
    sslua_set_budget(state.L, 10_000_000)
    let outcome = state.run(
      prelude + "\n" + #"""
        local h = string.rep("a", 1 << 20)
        return find(h, string.rep("a", 4096) .. "b", 1, true), find(h .. "b", string.rep("a", 4096) .. "b", 1, true)
        """#, chunk: "plain.lua", results: 2)
    #expect(outcome == .values(["(a nil)", String((1 << 20) - 4096 + 1)]))
    // Lua's own search compares about 4 billion bytes here; the two-way search, a few million.
    #expect(sslua_instructions_used(state.L) < 3_000_000)
  }

  @Test("ordinary matching is cheap: about two units per character")
  func ordinaryCost() throws {
    let state = try PatternState()
    sslua_set_budget(state.L, 10_000_000)
    let outcome = state.run(
      prelude + "\n" + #"""
        local line = string.rep("key = value, ", 1000)
        local n = 0
        for k, v in gmatch(line, "(%w+)%s*=%s*(%w+)") do n = n + 1 end
        return n, select(2, gsub(line, "%s+", " "))
        """#, chunk: "ordinary.lua", results: 2)
    #expect(outcome == .values(["1000", "3000"]))
    #expect(sslua_instructions_used(state.L) < 80_000)  // 26,000 characters scanned, 1,000 loops
  }

  @Test("recursion through gsub ends at Lua's C-call limit on a 512 KiB thread stack")
  func recursionThroughGsub() throws {
    final class Box: @unchecked Sendable { var outcome: PatternState.Outcome? }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do {
        let state = try PatternState()
        box.outcome = state.run(
          prelude + "\n" + #"""
            local function again(s) return (gsub(s, ".", again)) end
            return again("x")
            """#, chunk: "again.lua")
      } catch {}
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    let message = try #require(box.outcome?.failureMessage)
    #expect(message.contains("stack overflow"), "\(message)")
  }
}
