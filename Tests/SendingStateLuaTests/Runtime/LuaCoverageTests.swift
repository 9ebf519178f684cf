import Foundation
import Testing

@testable import SendingStateLua

@Suite("Runtime: line coverage (sendingstate test --coverage)")
struct LuaCoverageTests {
  /// The hook mask of the running thread, as Lua's debug library reads it ("" when none).
  private static let hookMask = "local _, mask = debug.gethook() return mask or ''"

  @Test("off, no line hook runs; on, the limits' hook also takes line events")
  func hookOnlyWhenOn() throws {
    let runtime = try LuaRuntime(configuration: .init(mode: .trusted))
    #expect(runtime.isCoverageOn == false)
    let off = try runtime.evaluate(Self.hookMask)
    #expect(off.first?.stringValue?.contains("l") == false, "\(off)")
    #expect(runtime.coverageHits.isEmpty)
    try runtime.startCoverage()
    #expect(runtime.isCoverageOn)
    let on = try runtime.evaluate(Self.hookMask)
    #expect(on.first?.stringValue?.contains("l") == true, "\(on)")
    // Without any limit, the line events alone.
    let unlimited = try LuaRuntime(
      configuration: .init(limits: .init(memoryLimit: nil, instructionBudget: nil, timeLimit: nil, maxStringBytes: nil), mode: .trusted))
    #expect(try unlimited.evaluate(Self.hookMask) == [""])
    try unlimited.startCoverage()
    #expect(try unlimited.evaluate(Self.hookMask) == ["l"])
  }

  @Test("counts each line of a file chunk as it runs, in coroutines too; the host's own chunks never")
  func countsLines() throws {
    let runtime = try LuaRuntime()
    try runtime.startCoverage()
    let source = """
      local total = 0
      for i = 1, 3 do
        total = total + i
      end
      local co = coroutine.wrap(function()
        total = total + 1
      end)
      co()
      if total > 100 then
        total = 0
      end
      return total
      """
    #expect(try runtime.evaluate(source, chunkName: "sum.lua") == [7])
    _ = try runtime.evaluate("return 1", chunkName: "=host")
    let hits = runtime.coverageHits
    #expect(Array(hits.keys) == ["sum.lua"])
    let lines = try #require(hits["sum.lua"])
    #expect(lines[1] == 1)
    #expect(lines[3] == 3)
    #expect(lines[6] == 1)
    #expect(lines[10] == nil)
    #expect(lines[12] == 1)
  }

  @Test("chunks a script builds with load are not counted, nor lines past the bound; their memory stays small")
  func loadChunksAndBounds() throws {
    let runtime = try LuaRuntime()
    try runtime.startCoverage()
    let source = """
      local f = load(string.rep("\\n", 200000) .. "return 1", "generated")
      local sum = 0
      for _ = 1, 20 do sum = sum + f() end
      return sum
      """
    #expect(try runtime.evaluate(source, chunkName: "gen.lua") == [20])
    let hits = runtime.coverageHits
    #expect(Array(hits.keys) == ["gen.lua"], "\(hits.keys.sorted())")
    // A file chunk whose lines run past the bound: counted up to it, nothing beyond.
    let far = String(repeating: "\n", count: (1 << 20) + 5) + "return 2"
    #expect(try runtime.evaluate(far, chunkName: "far.lua") == [2])
    #expect(runtime.coverageHits["far.lua"] == nil)
  }

  @Test("the instruction budget still stops an endless loop while coverage counts its line")
  func budgetStillHolds() throws {
    let runtime = try LuaRuntime(configuration: .init(limits: .init(instructionBudget: 100_000, timeLimit: nil)))
    try runtime.startCoverage()
    let error = try #require(throws: ScriptError.self) {
      try runtime.evaluate("local n = 0\nwhile true do\n  n = n + 1\nend", chunkName: "loop.lua")
    }
    #expect(error.kind == .budgetExceeded)
    #expect(error.message == "instruction budget exceeded (100000 instructions)")
    #expect((runtime.coverageHits["loop.lua"]?[3] ?? 0) > 1000)
  }
}
