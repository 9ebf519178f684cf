// Fuzz target: the JSON decoders (`LuaValue(json:root:limits:)`, `ServerPayload(json:limits:)`).
//
// The input is JSON text (or, after a 0xFF byte, bytes for the value generator whose output is
// encoded as JSON). Under the default limits and under tight ones:
// - decoding either succeeds or throws a LuaBridgeError (ScriptError for payloads) whose path
//   starts at the given root;
// - a decoded value is within the limits (size, depth, values) and holds only finite numbers;
// - it re-encodes with JSONEncoder and decodes again to the same value;
// - it crosses into Lua (makeValue) and reads back as the same data (JSON nulls inside a list
//   make a hole, which the read must refuse);
// - `ServerPayload` agrees with the documented reading of the same value (sections, units,
//   types, data).
import Foundation
import SendingStateLua

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonPayloadFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  var text = Data(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
  if size > 0, data?[0] == 0xFF {
    _ = input.byte()
    var generator = ValueGenerator(budget: 400)
    let generated = generator.value(&input)
    guard generated.nodes < 2_000, generated.depth <= 80, let encoded = try? JSONEncoder().encode(generated.value), encoded.count <= 2_048 else { return 0 }
    text = encoded
  }
  if fuzzVerbose { fuzzLog("json: \(String(decoding: text.prefix(2_000), as: UTF8.self))") }
  let tight = LuaRuntime.Limits(maxStringBytes: 2_048, maxDepth: 6, maxNodes: 60)
  for limits in [LuaRuntime.Limits(), tight] {
    let value = checkValue(text, limits: limits)
    checkPayload(text, decoded: value, limits: limits)
  }
  return 0
}

/// Checks the generic decoder; returns the value it decoded, if any.
func checkValue(_ text: Data, limits: LuaRuntime.Limits) -> LuaValue? {
  let value: LuaValue
  do {
    value = try LuaValue(json: text, root: "body", limits: limits)
  } catch {
    if fuzzVerbose { fuzzLog("decode error (depth \(limits.maxDepth)): \(error)") }
    fuzzCheck(error.path.root.hasPrefix("body"), "a JSON error names another root: \(error)")
    fuzzCheck(!error.problem.isEmpty, "a JSON error without a problem: \(error)")
    return nil
  }
  if fuzzVerbose { fuzzLog("decoded (depth \(limits.maxDepth)): \(brief(value, limit: 1_000))") }
  if let cap = limits.maxStringBytes { fuzzCheck(text.count <= cap, "\(text.count) bytes of JSON were accepted past \(cap)") }
  let cost = readCost(of: value)
  fuzzCheck(cost.depth <= limits.maxDepth, "decoded JSON nests \(cost.depth) deep, past \(limits.maxDepth)")
  fuzzCheck(cost.nodes <= limits.maxNodes, "decoded JSON has \(cost.nodes) values, past \(limits.maxNodes)")
  fuzzCheck(!hasNonFinite(value), "decoded JSON holds a non-finite number: \(brief(value))")
  fuzzCheck(!hasMixedTable(value), "decoded JSON made a table with both a list and fields: \(brief(value))")

  // Re-encoding and decoding again gives the same value.
  let encoded: Data
  do {
    encoded = try JSONEncoder().encode(value)
  } catch {
    fuzzFail("a decoded value does not encode: \(error); value \(brief(value))")
  }
  var relaxed = limits
  relaxed.maxStringBytes = nil
  do {
    let again = try LuaValue(json: encoded, root: "body", limits: relaxed)
    fuzzCheck(
      again == value,
      "JSON → value → JSON → value changed it:\n  first:  \(brief(value))\n  second: \(brief(again))\n  text: \(String(decoding: encoded.prefix(300), as: UTF8.self))")
  } catch {
    fuzzFail("re-encoded JSON does not decode: \(error); text \(String(decoding: encoded.prefix(300), as: UTF8.self))")
  }

  // Into Lua and back.
  let runtime = sharedRuntime
  runtime.limits = limits
  let reference: LuaRef
  do {
    reference = try runtime.makeValue(value, path: "body")
  } catch {
    fuzzFail("a decoded JSON value does not cross into Lua: \(error)")
  }
  switch readBack(of: value) {
  case .hole:
    do {
      let read = try reference.value(path: "body")
      fuzzFail("a list with a hole (a JSON null) read back as \(brief(read))")
    } catch {
      fuzzCheck(error.problem.contains("hole"), "a list with a null failed to read with another error: \(error)")
    }
  case .value(let expected):
    do {
      let read = try reference.value(path: "body")
      fuzzCheck(read == expected, "JSON → Lua → Swift changed the value:\n  in:  \(brief(expected))\n  out: \(brief(read))")
    } catch {
      fuzzFail("a decoded JSON value does not read back from Lua: \(error)")
    }
  }
  return value
}

/// Checks the payload decoder against the documented format, read from `decoded` (the same text
/// through the generic decoder).
func checkPayload(_ text: Data, decoded: LuaValue?, limits: LuaRuntime.Limits) {
  let payload: ServerPayload
  do {
    payload = try ServerPayload(json: text, limits: limits)
  } catch let error as ScriptError {
    fuzzCheck(error.message.hasPrefix("payload"), "a payload error that names no path in the payload: \(error)")
    fuzzCheck([.typeMismatch, .tooLarge].contains(error.kind), "a payload error of kind \(error.kind): \(error)")
    return
  } catch {
    fuzzFail("ServerPayload threw \(type(of: error)): \(error)")
  }
  guard let value = decoded else {
    fuzzFail("a payload decoded but its JSON does not")
  }
  guard let expected = documentedSections(of: value) else {
    fuzzFail("a payload decoded that the documented format refuses: \(brief(value))")
  }
  fuzzCheck(
    payload.sections.count == expected.count, "payload has \(payload.sections.count) sections, expected \(expected.count)")
  for (section, model) in zip(payload.sections, expected) {
    fuzzCheck(section.sectionId == model.id, "section id \(section.sectionId ?? "nil") != \(model.id ?? "nil")")
    fuzzCheck(section.serverUnits == model.units, "section units differ: \(section.serverUnits) vs \(model.units)")
  }
}

/// The payload format as the documentation states it, read from the decoded value.
func documentedSections(of value: LuaValue) -> [(id: String?, units: [ServerUnit])]? {
  guard case .table(let root) = value else { return nil }
  let list: [LuaValue]
  if let sections = root.fields["sections"]?.tableValue {
    list = sections.sequence
  } else if root.fields.isEmpty {
    list = root.sequence
  } else {
    return nil
  }
  var result: [(id: String?, units: [ServerUnit])] = []
  for item in list {
    guard case .table(let section) = item else { return nil }
    let isBareList = section.fields.isEmpty
    let unitValues = isBareList ? section.sequence : section.fields["units"]?.tableValue?.sequence ?? []
    let id = isBareList ? nil : section.fields["sectionId"]?.stringValue ?? section.fields["id"]?.stringValue
    var units: [ServerUnit] = []
    for unitValue in unitValues {
      guard case .table(var unit) = unitValue, let type = (unit.fields["unitType"] ?? unit.fields["type"])?.stringValue else {
        return nil
      }
      if let data = unit.fields["data"] {
        units.append(ServerUnit(unitType: type, data: data))
      } else {
        unit.fields["unitType"] = nil
        unit.fields["type"] = nil
        units.append(ServerUnit(unitType: type, data: .table(unit)))
      }
    }
    result.append((id, units))
  }
  return result
}

func hasMixedTable(_ value: LuaValue) -> Bool {
  guard case .table(let table) = value else { return false }
  if !table.sequence.isEmpty, !table.fields.isEmpty { return true }
  return table.sequence.contains(where: hasMixedTable) || table.fields.values.contains(where: hasMixedTable)
}

/// One runtime for every input (the JSON crossing does not run scripts, so inputs cannot
/// affect each other through it).
nonisolated(unsafe) let sharedRuntime: LuaRuntime = {
  do {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = nil
    return try LuaRuntime(configuration: .init(limits: limits))
  } catch {
    fuzzFail("cannot create a runtime: \(error)")
  }
}()
