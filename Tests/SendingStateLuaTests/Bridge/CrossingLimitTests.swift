import Foundation
import Testing

@testable import SendingStateLua

/// Depth, size and number limits on every crossing: at the limit and one past it, both ways.
@Suite("Crossings: depth, size and finite numbers, at the limit and one past it")
struct CrossingLimitTests {
  /// `{ {{…}} }` nested `depth` tables deep (the outermost table is level 1).
  static func nested(_ depth: Int) -> LuaValue {
    var value: LuaValue = .table(LuaTable())
    for _ in 1..<depth { value = .table(LuaTable(sequence: [value])) }
    return value
  }

  /// Lua source building the same nesting (`t = {t}` repeated).
  static func nestedSource(_ depth: Int) -> String {
    "local t = {} for _ = 2, \(depth) do t = { t } end return t"
  }

  @Test("Swift → Lua: 64 nested tables push; 65 are an error naming the path, and the stack is clean")
  func pushDepth() throws {
    let runtime = try LuaRuntime()
    let top = runtime.stack.top
    let atLimit = try runtime.makeValue(Self.nested(64), path: "state")
    #expect(try atLimit.value(path: "state") == Self.nested(64))
    let error = #expect(throws: LuaBridgeError.self) { try runtime.makeValue(Self.nested(65), path: "state") }
    #expect(error?.kind == .tooLarge)
    #expect(error?.description == "state[1][1][1][1]…: nested deeper than 64")
    #expect(runtime.stack.top == top)
  }

  /// The resident memory of this process, in bytes (Linux: /proc/self/statm).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  @Test("Lua → Swift: a long string named a thousand times (as a value and as a key) is copied once, not a thousand times")
  func sharedStringsCopiedOnce() throws {
    let runtime = try LuaRuntime()
    let before = Self.residentBytes()
    // 1 MiB inside the script's 64 MiB heap; without sharing, the copy takes 2 GiB (the bound
    // leaves room for other tests running beside this one).
    let values = try runtime.evaluate(
      """
      local big = string.rep("x", 1 << 20)
      local list, keyed = {}, {}
      for i = 1, 1000 do list[i] = big; keyed[i] = { [big] = i } end
      return { list = list, keyed = keyed }
      """)
    let grown = Self.residentBytes() - before
    #expect(grown < 768 << 20, "the read grew the process by \(grown >> 20) MiB")
    guard case .table(let table)? = values.first, case .table(let list) = table.fields["list"]!,
      case .table(let keyed) = table.fields["keyed"]!
    else {
      Issue.record("not the value built")
      return
    }
    #expect(list.sequence.count == 1000)
    #expect(list.sequence.allSatisfy { $0.stringValue?.utf8.count == 1 << 20 })
    #expect(keyed.sequence.count == 1000)
    #expect(keyed.sequence[999]["x" + String(repeating: "x", count: (1 << 20) - 1)] == .integer(1000))
  }

  @Test("Lua → Swift: 64 nested tables read; 65 are an error naming the path")
  func readDepth() throws {
    let runtime = try LuaRuntime()
    #expect(try runtime.evaluate(Self.nestedSource(64)) == [Self.nested(64)])
    let error = #expect(throws: ScriptError.self) { try runtime.evaluate(Self.nestedSource(65)) }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message == "result #1[1][1][1][1]…: nested deeper than 64")
  }

  @Test("deep data does not corrupt the stack: 60 levels through arguments, results and references")
  func deepButLegal() throws {
    // Before the limits, about 20 levels wrote past the Lua stack (no lua_checkstack).
    let runtime = try LuaRuntime()
    let identity = try runtime.load("return ...")
    let deep = Self.nested(60)
    for _ in 0..<50 {
      #expect(try runtime.call(identity, with: [deep, deep, deep]) == [deep, deep, deep])
    }
  }

  @Test("tables that share subtables are counted per visit: the node limit stops a 2^N copy")
  func sharedSubtables() throws {
    var limits = LuaRuntime.Limits()
    limits.maxNodes = 10_000
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    // 12 levels of sharing: 8,191 visits, under the limit.
    let small = try runtime.evaluate("local t = {} for _ = 1, 12 do t = { a = t, b = t } end return t")
    #expect(small.count == 1)
    // 40 levels would be 2^41 visits: stopped at 10,000.
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate("local t = {} for _ = 1, 40 do t = { a = t, b = t } end return t")
    }
    #expect(error?.kind == .tooLarge)
    #expect(error?.message.hasSuffix("more than 10000 values in one crossing (a table shared by several fields counts each time)") == true)
  }

  @Test("the node limit holds for pushes too: exactly the limit passes, one more fails")
  func pushNodes() throws {
    var limits = LuaRuntime.Limits()
    limits.maxNodes = 101
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    let hundred = LuaValue.table(LuaTable(sequence: Array(repeating: .integer(1), count: 100)))
    _ = try runtime.makeValue(hundred)  // 1 table + 100 values
    let more = LuaValue.table(LuaTable(sequence: Array(repeating: .integer(1), count: 101)))
    #expect(throws: LuaBridgeError.self) { try runtime.makeValue(more) }
  }

  @Test("non-finite numbers are rejected both ways, with the path")
  func nonFinite() throws {
    let runtime = try LuaRuntime()
    let read = #expect(throws: ScriptError.self) { try runtime.evaluate("return { list = { 1, math.huge } }") }
    #expect(read?.message == "result #1.list[2]: infinity is not a valid value (numbers must be finite)")
    let negative = #expect(throws: ScriptError.self) { try runtime.evaluate("return -math.huge") }
    #expect(negative?.message == "result #1: -infinity is not a valid value (numbers must be finite)")
    let nan = #expect(throws: ScriptError.self) { try runtime.evaluate("return 0/0") }
    #expect(nan?.message == "result #1: NaN is not a valid value")
    let pushed = #expect(throws: LuaBridgeError.self) {
      try runtime.makeValue(["price": .number(.infinity)], path: "state")
    }
    #expect(pushed?.description == "state.price: infinity is not a valid value (numbers must be finite)")
  }

  @Test("a pushed value that does not fit in the memory left is refused, and nothing stays behind")
  func pushMemory() throws {
    let runtime = try LuaRuntime(configuration: .init(limits: .init(memoryLimit: 1 << 20)))
    let top = runtime.stack.top
    // Two thousand different 1 KB strings (one string named 2,000 times would be pushed once).
    let big = LuaValue.table(LuaTable(sequence: (0..<2_000).map { .string(String(repeating: "x", count: 1_000) + "\($0)") }))
    let error = #expect(throws: LuaBridgeError.self) { try runtime.makeValue(big, path: "payload") }
    #expect(error?.kind == .memory)
    #expect(runtime.stack.top == top)
    runtime.collectGarbage()
    #expect(runtime.memoryUsed < 1 << 20)
  }

  // MARK: - JSON

  static func nestedJSON(_ depth: Int) -> Data {
    Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
  }

  @Test("JSON: 64 nested arrays decode; 65 are an error naming the path")
  func jsonDepth() throws {
    #expect(try LuaValue(json: Self.nestedJSON(64), root: "payload") == Self.nested(64))
    let error = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Self.nestedJSON(65), root: "payload") }
    #expect(error?.kind == .tooLarge)
    #expect(error?.description == "payload[1][1][1][1]…: nested deeper than 64")
    // Foundation's own parser gives up at 512; that is an error too, not a crash.
    #expect(throws: LuaBridgeError.self) { try LuaValue(json: Self.nestedJSON(100_000), root: "payload") }
  }

  @Test("JSON: node, size and number limits; malformed text names line and column")
  func jsonLimits() throws {
    var limits = LuaRuntime.Limits()
    limits.maxNodes = 5
    #expect(try LuaValue(json: Data("[1,2,3,4]".utf8), limits: limits) == [1, 2, 3, 4])
    #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data("[1,2,3,4,5]".utf8), limits: limits) }
    limits = .init()
    limits.maxStringBytes = 10
    let size = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data("[1,2,3,4,5,6]".utf8), limits: limits) }
    #expect(size?.description == "value: the JSON is 13 bytes; at most 10 are accepted")
    let huge = #expect(throws: LuaBridgeError.self) { try LuaValue(json: Data(#"{"a": 1e400}"#.utf8), root: "state") }
    #expect(huge?.path.description.hasPrefix("state") == true)
    let malformed = #expect(throws: LuaBridgeError.self) {
      try LuaValue(json: Data("{\n  \"a\": 1,\n  \"b\": x\n}".utf8), root: "--state")
    }
    #expect(malformed?.description.contains("line 3") == true)
    #expect(malformed?.description.contains("column") == true)
    #expect(try LuaValue(json: Data(#"{"a": [1, {"b": null}], "c": "d"}"#.utf8)) == ["a": [1, .table(LuaTable())], "c": "d"])
  }

  @Test("a script's `__readonly` metatable field is followed one hop at most: a loop or a chain of them reads as plain data")
  func readOnlyLoop() throws {
    // Before: the reader followed `__readonly` at the same depth and before the cycle check, so
    // a table whose `__readonly` is itself recursed until the C stack overflowed.
    let runtime = try LuaRuntime()
    let loop = try runtime.evaluate("local t = { a = 1 } setmetatable(t, { __readonly = t }) return t")
    #expect(loop == [["a": 1]])
    let chain = try runtime.evaluate("""
      local a, b, c = { x = 1 }, { y = 2 }, { z = 3 }
      setmetatable(a, { __readonly = b }) setmetatable(b, { __readonly = c }) setmetatable(c, { __readonly = a })
      return a
      """)
    #expect(chain == [["y": 2]])
  }

  @Test("a call's deadline ends with the call: a big push after it is not refused for time")
  func staleDeadline() throws {
    // Before: the outermost call left its deadline behind, so every push or read of 4,096+
    // values made after it, outside any call, failed once that deadline had passed.
    var limits = LuaRuntime.Limits()
    limits.timeLimit = .microseconds(1)
    let runtime = try LuaRuntime(configuration: .init(limits: limits))
    do {
      _ = try runtime.evaluate("return 1")
    } catch {
      // It may time out itself (1 µs is shorter than the watch's signal takes to arrive).
      #expect(error.kind == .timeout, "\(error)")
    }
    let list = LuaValue.table(LuaTable(sequence: (0..<5_000).map { LuaValue.integer(Int64($0)) }))
    let pushed = try runtime.makeValue(list, path: "value")
    #expect(try pushed.value(path: "value") == list)
  }

  @Test("a Lua table with two keys that are one text to Swift is refused, not collapsed")
  func canonicalKeys() throws {
    let runtime = try LuaRuntime()
    let error = #expect(throws: ScriptError.self) {
      try runtime.evaluate(#"return { cart = { ["\u{E9}"] = 1, ["e\u{301}"] = 2 } }"#)
    }
    #expect(error?.message.hasPrefix("result #1.cart.") == true, "\(String(describing: error))")
    #expect(error?.message.contains("two keys of this table read as the same text") == true)
  }
}
