// Fuzz target: the value bridge (Swift data ⇄ Lua tables).
//
// The first byte picks a mode:
// - data: bytes → a LuaValue tree (deep, wide, repeated subtrees, nils, non-finite numbers) →
//   `makeValue` under fuzzed limits → read back. The push fails exactly when the value is past a
//   limit, with the kind and path of the first problem in push order; otherwise it reads back
//   as the same data (nils and opaque values dropped, a nil inside a list refused as a hole),
//   and a read under lower limits fails exactly when the data is past them.
// - program: bytes → a small Lua program building shared, cyclic, deep, wide, holed tables,
//   odd keys and metatables → `evaluate` → every result is data within the limits and pushes
//   and reads back to itself.
// - source: the bytes are Lua source for `evaluate`; the same checks on its results.
import Foundation
import SendingStateLua

@_cdecl("LLVMFuzzerTestOneInput")
public func valueBridgeFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  let mode = input.byte() % 4
  var limits = LuaRuntime.Limits()
  limits.maxDepth = input.pick([1, 2, 8, 20, 63, 64, 65, 100])
  // Small value limits: the limit logic is the same as at the default million, and an input
  // stays cheap enough for a million executions.
  limits.maxNodes = input.pick([1, 10, 100, 1_000, 5_000, 20_000])
  limits.memoryLimit = input.pick([nil, nil, nil, 512 << 10, 16 << 20])
  limits.instructionBudget = 300_000
  // A short time limit sometimes: the deadline of one call must not refuse pushes made after it
  // (was: findings/stale-deadline.bin, now a seed).
  limits.timeLimit = input.below(4) == 0 ? .milliseconds(1) : .seconds(2)
  limits.maxStringBytes = 1 << 20
  let runtime: LuaRuntime
  do {
    // With the default limits: its setup is a call into Lua, whose deadline must not outlive it.
    let setup = LuaRuntime.Limits()
    runtime = try LuaRuntime(configuration: .init(limits: setup))
  } catch {
    fuzzFail("a runtime with default limits cannot be created: \(error)")
  }
  runtime.limits = limits
  runtime.output = { _ in }
  if fuzzVerbose { fuzzLog("limits: depth \(limits.maxDepth), values \(limits.maxNodes), memory \(limits.memoryLimit.map(String.init) ?? "-")") }
  switch mode {
  case 0, 1:
    var generator = ValueGenerator()
    let generated = generator.value(&input)
    if fuzzVerbose { fuzzLog("value (\(generated.nodes) values, depth \(generated.depth)): \(brief(generated.value, limit: 2_000))") }
    if input.below(4) == 0 {
      // A host calls into Lua, then pushes data later (a role's next call, say): the push is no
      // part of the earlier call and must not inherit its deadline.
      do {
        _ = try runtime.evaluate("return 1", chunkName: "earlier.lua")
      } catch {
        fuzzFail("'return 1' failed: \(error)")
      }
      if let limit = limits.timeLimit, limit < .milliseconds(10) { usleep(3_000) }
    }
    checkRoundTrip(generated.value, in: runtime, input: &input)
  case 2:
    let program = LuaProgram.make(&input)
    if fuzzVerbose { fuzzLog("program:\n\(program)") }
    checkEvaluation(program, in: runtime, input: &input)
  default:
    let source = String(decoding: input.rest(), as: UTF8.self)
    checkEvaluation(source, in: runtime, input: &input)
  }
  return 0
}

/// Pushes `value`, reads it back, and reads it again under other limits.
func checkRoundTrip(_ value: LuaValue, in runtime: LuaRuntime, input: inout FuzzBytes) {
  let limits = runtime.limits
  var oracle = PushOracle(maxDepth: limits.maxDepth, maxNodes: limits.maxNodes)
  let problem = oracle.check(value, root: "value")
  let reference: LuaRef
  do {
    reference = try runtime.makeValue(value, path: "value")
  } catch {
    if let problem {
      fuzzCheck(
        error.kind == problem.kind && error.path.description == problem.path,
        "push failed with \(error.kind) at '\(error.path)' (\(error.problem)); expected \(problem.kind) at '\(problem.path)'")
    } else {
      fuzzCheck(
        error.kind == .memory && limits.memoryLimit != nil,
        "a value within the limits was refused: \(error) [kind \(error.kind)] value \(brief(value))")
      fuzzCheck(error.path.description == "value", "a memory error names the value's root: \(error)")
    }
    return
  }
  if let problem {
    fuzzFail("a value past the limits was pushed: expected \(problem.kind) at \(problem.path); value \(brief(value))")
  }
  let expected = readBack(of: value)
  let read: LuaValue
  do {
    read = try reference.value(path: "value")
  } catch {
    fuzzCheck(
      expected == .hole && error.kind == .typeMismatch && error.problem.contains("hole"),
      "reading a pushed value failed: \(error); expected \(expected)")
    return
  }
  guard case .value(let data) = expected else {
    fuzzFail("a list with a hole read back as \(brief(read))")
  }
  fuzzCheck(read == data, "round trip changed the value:\n  in:  \(brief(data))\n  out: \(brief(read))")

  // The other direction: the same Lua value read under other limits.
  let cost = readCost(of: data)
  var lower = limits
  lower.maxDepth = max(1, cost.depth - input.below(3))
  lower.maxNodes = max(1, cost.nodes - input.below(3))
  runtime.limits = lower
  let past = cost.depth > lower.maxDepth || cost.nodes > lower.maxNodes
  do {
    let again = try reference.value(path: "state")
    fuzzCheck(!past, "a read past the limits (depth \(cost.depth) > \(lower.maxDepth) or \(cost.nodes) > \(lower.maxNodes) values) succeeded")
    fuzzCheck(again == data, "a second read differs")
  } catch {
    fuzzCheck(past, "a read within the limits failed: \(error)")
    fuzzCheck(error.kind == .tooLarge, "a read past a limit failed with kind \(error.kind): \(error)")
    fuzzCheck(error.path.root.hasPrefix("state"), "a read error names another root: \(error)")
  }
  runtime.limits = limits

  // Pushing what was read is idempotent.
  do {
    let copy = try runtime.makeValue(read, path: "copy")
    let reread = try copy.value(path: "copy")
    fuzzCheck(reread == read, "pushing the read value again changed it")
  } catch {
    fuzzCheck(error.kind == .memory, "pushing a value that was just read failed: \(error)")
  }
}

/// Runs `source` and checks every result crosses back and forth unchanged.
func checkEvaluation(_ source: String, in runtime: LuaRuntime, input: inout FuzzBytes) {
  let limits = runtime.limits
  let results: [LuaValue]
  do {
    results = try runtime.evaluate(source, chunkName: "fuzz.lua")
  } catch {
    fuzzCheck(!error.message.isEmpty || error.kind == .runtime, "an error without a message: \(error)")
    if error.chunk == nil, error.kind == .tooLarge {
      fuzzCheck(error.message.hasPrefix("result #"), "a limit error on the results names no result: \(error)")
    }
    return
  }
  for (offset, result) in results.enumerated() {
    let cost = readCost(of: result)
    fuzzCheck(
      cost.depth <= limits.maxDepth && cost.nodes <= limits.maxNodes,
      "result #\(offset + 1) was read past the limits: depth \(cost.depth), \(cost.nodes) values")
    fuzzCheck(!hasNonFinite(result), "result #\(offset + 1) holds a non-finite number")
    checkRoundTrip(result, in: runtime, input: &input)
  }
}

/// Small Lua programs that build the table shapes the bridge must survive.
enum LuaProgram {
  static let literals = [
    "0/0", "1/0", "-1/0", "math.huge", "math.mininteger", "math.maxinteger", "2^63", "0.1", "-0.0", "3.0",
    #""\0\255\xC3""#, #""é""#, "true", "false", "nil", #"string.rep("ab", 300)"#, "7", "-1",
  ]
  static let keys = [
    #""a""#, #""b""#, "1", "2", "3", "0", "-1", "1.5", "2^53", "true", #""1""#, "math.maxinteger", "0/0 == 0/0 and 1 or 2",
  ]

  static func make(_ input: inout FuzzBytes) -> String {
    var lines = ["local r = { {}, {}, {}, {} }"]
    for _ in 0..<(1 + input.below(24)) {
      let i = 1 + input.below(4)
      let j = 1 + input.below(4)
      switch input.byte() % 11 {
      case 0: lines.append("r[\(i)] = {}")
      case 1: lines.append("r[\(i)] = \(input.pick(literals))")
      case 2: lines.append("if type(r[\(i)]) == 'table' then rawset(r[\(i)], \(input.pick(keys)), r[\(j)]) end")
      case 3: lines.append("for _ = 1, \(input.pick([2, 10, 25, 40])) do r[\(i)] = { r[\(i)], r[\(i)] } end")
      case 4: lines.append("for _ = 1, \(input.pick([10, 63, 64, 65, 200])) do r[\(i)] = { a = r[\(i)] } end")
      case 5: lines.append("if type(r[\(i)]) == 'table' then for n = 1, \(input.pick([100, 5_000, 200_000])) do r[\(i)][n] = n end end")
      case 6:
        // `__readonly` loops once overflowed the host's stack (was:
        // findings/readonly-metatable-cycle.bin, now a seed).
        let field = input.pick(["__index", "__readonly", "__len", "__pairs", "__metatable"])
        lines.append("if type(r[\(i)]) == 'table' then pcall(setmetatable, r[\(i)], { \(field) = r[\(j)] }) end")
      case 7: lines.append("r[\(i)] = r[\(j)]")
      case 8: lines.append(input.bool() ? "r[\(i)] = function() end" : "r[\(i)] = coroutine.create(function() end)")
      case 9: lines.append("if type(r[\(i)]) == 'table' then r[\(i)][#r[\(i)] + 2] = 1 end")
      default: lines.append("if type(r[\(i)]) == 'table' then r[\(i)].\(input.pick(["x", "y", "self"])) = r[\(j)] end")
      }
    }
    let count = 1 + input.below(3)
    lines.append("return " + (1...count).map { _ in "r[\(1 + input.below(4))]" }.joined(separator: ", "))
    return lines.joined(separator: "\n")
  }
}
