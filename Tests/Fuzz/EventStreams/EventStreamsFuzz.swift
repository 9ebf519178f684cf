// Fuzz target: event streams on the examples (counter, products, shop with its payload, tasks).
//
// The first byte picks the example; a quarter of the inputs open it with a mutated start state.
// The rest of the bytes are a sequence of interactions chosen from the screen's ids (taps,
// control events, values, typing, gestures, list rows, performed actions from the example's
// vocabulary or arbitrary data, hot reloads, re-opens).
//
// Invariants, after every step:
// - no crash; only ScriptError / ScreenUsageError come out;
// - the state is valid under the example's schema, checked by an independent Swift reading of
//   it (and a start state opens exactly when it is valid);
// - a committed step adds exactly its actions to the action log, and its state is the screen's;
//   a failed single event changes nothing (state, render tree, action log); a failed
//   multi-event interaction keeps the log's past;
// - every action is handled exactly once: for committed steps whose actions the model of the
//   example's `handle` knows, the new state is the model's (an action lost or handled twice
//   shows as a different state); a performed action appears once in the log;
// - a hot reload keeps the state; re-opening with the state as the start state succeeds and
//   shows the same state.
import Foundation
import SendingStateLua

@_cdecl("LLVMFuzzerTestOneInput")
public func eventStreamsFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  var input = FuzzBytes(data, size)
  MainActor.assumeIsolated { runStream(&input) }
  return 0
}

@MainActor
func runStream(_ input: inout FuzzBytes) {
  let example = input.pick(Example.allCases)
  var start: LuaValue?
  var startIsValid = false
  if input.below(4) == 0 {
    let raw = example.mutatedState(&input)
    // A start state of more than 20,000 values (repeated subtrees count per path) is within the
    // host's limits, but judging every step of it (reading it back, comparing it after each
    // event) costs the harness seconds per input: libFuzzer's timeout, not the host's. Such
    // inputs are skipped; the node limit itself is tested by the corpus and the unit tests.
    let judged = 20_000
    if hasMoreValues(raw, than: judged) { return }
    start = raw
    // What the state reads back as once pushed (nils dropped), and whether the host must take
    // it: plain data (finite, no holes, not too deep) that fits the schema. A state past the
    // host's value limit (repeated subtrees count per path) must be refused; it is not
    // materialized here (2^N paths would take the harness down, not the host).
    // (Within `judged` values it is within the host's limit too, unless that limit is lower.)
    let maxNodes = Example.limits.maxNodes
    if judged <= maxNodes || !hasMoreValues(raw, than: maxNodes), case .value(let data) = readBack(of: raw),
      !hasNonFinite(raw), readCost(of: data).depth <= 64
    {
      start = data
      startIsValid = example.schema.accepts(data)
    }
  }
  var screen: LuaScreen
  do {
    screen = try example.open(state: start)
  } catch {
    checkScreenError(error, during: "opening \(example)")
    if let error = error as? ScriptError, error.kind == .timeout { return }  // a loaded machine
    if let start {
      // A valid state may still make the example's own code fail (string.format("%d", 1e300)
      // in configure, say): an error of the script — a runtime error, or a library function's
      // "bad argument" (classified as a type mismatch) — not a refusal by the host.
      let kind = (error as? ScriptError)?.kind
      let scriptFault = kind == .runtime || kind == .typeMismatch
      fuzzCheck(
        !startIsValid || scriptFault, "\(example) refused a start state valid under its schema: \(error)\n  state: \(brief(start))")
    } else {
      fuzzFail("\(example) does not open: \(error)")
    }
    return
  }
  if let start {
    fuzzCheck(startIsValid, "\(example) accepted a start state its schema refuses: \(brief(start))")
    fuzzCheck(screen.state == start, "\(example) opened with another state than its start state")
  }
  if fuzzVerbose { fuzzLog("\(example): ids \(screen.ids)") }
  var steps = 0
  while !input.isAtEnd, steps < 32 {
    steps += 1
    if let next = step(&screen, example, &input) { screen = next }
    let state = screen.state
    fuzzCheck(example.schema.accepts(state), "\(example): the state left the schema after step \(steps): \(brief(state))")
  }
  screen.close()
}

/// Runs one interaction; returns the new screen after a reload.
@MainActor
func step(_ screen: inout LuaScreen, _ example: Example, _ input: inout FuzzBytes) -> LuaScreen? {
  let ids = screen.ids
  func pickID() -> String {
    input.below(16) == 0 ? input.pick(["nope", "", "items.1", "matcha.nope"]) : (ids.isEmpty ? "x" : input.pick(ids))
  }
  let screenRef = screen
  switch input.byte() % 12 {
  case 0, 1:
    let id = pickID()
    run(screenRef, example, "tap \(id)", single: false) { try screenRef.tap(id) }
  case 2:
    let id = pickID()
    let event = input.pick(eventNames)
    run(screenRef, example, "send \(id) \(event)", single: controlEvents.contains(event)) { try screenRef.send(id, event) }
  case 3:
    let id = pickID()
    let value = fuzzScalar(&input)
    let isTextField = (try? screenRef.view(id))?.kind == "textfield"
    run(screenRef, example, "set \(id) \(value)", single: !isTextField, userChangesView: true) { try screenRef.set(id, value) }
  case 4:
    let id = pickID()
    let text = input.string(maxLength: 6)
    run(screenRef, example, "type \(id) \(text.debugDescription)", single: false) { try screenRef.type(id, text) }
  case 5:
    let id = pickID()
    let kind = input.pick(gestureKinds)
    var parameters: [String: LuaValue] = [:]
    for _ in 0..<input.below(3) {
      let key = input.pick(["taps", "touches", "direction", "edge", "duration", "scale", "rotation", "x", "y", "states", "bogus"])
      parameters[key] = key == "states" ? .table(LuaTable(sequence: (0..<input.below(4)).map { _ in .string(input.pick(gestureStates)) })) : fuzzScalar(&input)
    }
    run(screenRef, example, "gesture \(id) \(kind) \(parameters)", single: false) { try screenRef.gesture(id, kind, parameters) }
  case 6, 7:
    guard let (list, rowIDs) = example.rows.first else { return nil }
    let index = input.pick([1, 2, 3, 5, 12, 13, 0, -1, Int.max])
    let driver: ScreenDriver
    do {
      // Scrolling the row into view is an event of its own.
      driver = try screenRef.row(list, index)
    } catch {
      checkScreenError(error, during: "row \(list) \(index)")
      return nil
    }
    let id = input.below(10) == 0 ? "nope" : input.pick(rowIDs)
    switch input.byte() % 3 {
    case 0: run(screenRef, example, "row \(index) tap \(id)", single: false) { try driver.tap(id) }
    case 1:
      let value = fuzzScalar(&input)
      run(screenRef, example, "row \(index) set \(id) \(value)", single: true, userChangesView: true) { try driver.set(id, value) }
    default:
      let event = input.pick(eventNames)
      run(screenRef, example, "row \(index) send \(id) \(event)", single: controlEvents.contains(event)) { try driver.send(id, event) }
    }
  case 8, 9:
    let action = input.below(4) == 0 ? fuzzAction(&input) : example.action(&input)
    let step = run(screenRef, example, "perform \(brief(action))", single: true) { try screenRef.perform(action: action) }
    if let step, action.stringValue != nil || (action["type"].stringValue != nil && action.tableValue?.sequence.isEmpty == true) {
      // One action is dispatched once (the examples dispatch nothing more); a list of actions
      // is dispatched in order.
      fuzzCheck(step.actions.count == 1, "perform \(brief(action)) dispatched \(step.actions.count) actions")
    }
  case 10:
    // A hot reload keeps the state.
    let state = screenRef.state
    do {
      let fresh = try screenRef.reloaded()
      fuzzCheck(screenRef.isClosed, "the reloaded screen is still open")
      fuzzCheck(fresh.state == state, "a reload changed the state:\n  before: \(brief(state))\n  after: \(brief(fresh.state))")
      return fresh
    } catch let error as ScriptError where error.kind == .timeout {
      return nil  // a loaded machine, not a fault
    } catch {
      fuzzFail("\(example) does not reload with its own state: \(error)\n  state: \(brief(state))")
    }
  default:
    // The state is one the screen accepts as a start state.
    let state = screenRef.state
    do {
      let other = try example.open(state: state)
      fuzzCheck(other.state == state, "re-opening with the state changed it")
      other.close()
    } catch let error as ScriptError where error.kind == .timeout {
      return nil  // a loaded machine, not a fault
    } catch {
      fuzzFail("\(example) refuses its own state as a start state: \(error)\n  state: \(brief(state))")
    }
  }
  return nil
}

/// Runs one interaction with the generic checks, then checks the model of `handle`.
@MainActor
@discardableResult
func run(
  _ screen: LuaScreen, _ example: Example, _ what: String, single: Bool, userChangesView: Bool = false,
  _ body: () throws -> LuaScreen.Step
) -> LuaScreen.Step? {
  if fuzzVerbose { fuzzLog("> \(what)") }
  let before = screen.state
  guard let step = checkEvent(screen, what, singleEvent: single, userChangesView: userChangesView, body) else { return nil }
  if fuzzVerbose, !step.actions.isEmpty { fuzzLog("  actions \(step.actions)") }
  var expected = before
  for action in step.actions {
    switch example.model(expected, action) {
    case .state(let next): expected = next
    case .unknown: return step
    case .fails:
      fuzzFail("\(example): \(what) committed actions \(brief(LuaValue.table(LuaTable(sequence: step.actions)))) though the model says \(brief(action)) fails")
    }
  }
  fuzzCheck(
    step.after == expected,
    "\(example): \(what) with actions \(brief(LuaValue.table(LuaTable(sequence: step.actions)))) made\n  \(brief(step.after))\n  where the model of handle expects\n  \(brief(expected))")
  return step
}

let controlEvents = [
  "touchDown", "touchUpInside", "touchUpOutside", "valueChanged", "editingDidBegin", "editingChanged", "editingDidEnd",
  "primaryActionTriggered",
]
let gestureKinds = ["tap", "longPress", "swipe", "pan", "pinch", "rotation", "screenEdge", "hover", "bogus"]
let gestureStates = ["possible", "began", "changed", "ended", "cancelled", "failed", "recognized", "bogus"]
let eventNames = controlEvents + gestureKinds

/// A scalar a user could give a control.
func fuzzScalar(_ input: inout FuzzBytes) -> LuaValue {
  switch input.byte() % 7 {
  case 0: return .boolean(input.bool())
  case 1: return .integer(Int64(input.below(14)) - 1)
  case 2: return .integer(input.integer())
  case 3: return .number(input.double())
  case 4: return .string(input.pick(["on", "off", "true", "false", "1", "2", "3.5", "-1", "nan", "inf", "left", "began"]))
  case 5: return .string(input.string())
  default: return .nil
  }
}

/// An arbitrary action: any data the generator makes (tables, strings, non-finite numbers…).
func fuzzAction(_ input: inout FuzzBytes) -> LuaValue {
  var generator = ValueGenerator(budget: 40)
  return generator.value(&input).value
}

// MARK: - The examples

/// What the model of an example's `handle` says one action does.
enum ModelResult {
  case state(LuaValue)
  case fails
  case unknown
}

/// A schema as the screens write it, read independently of the engine's validator.
indirect enum Schema {
  case string, integer, number, boolean, table
  case object([String: Schema])
  case list(Schema)

  func accepts(_ value: LuaValue) -> Bool {
    switch (self, value) {
    case (.string, .string), (.boolean, .boolean), (.table, .table): return true
    case (.integer, .integer), (.number, .integer): return true
    case (.integer, .number(let x)): return x.isFinite && x == x.rounded(.down)
    case (.number, .number(let x)): return x.isFinite
    case (.object(let fields), .table(let table)):
      guard table.sequence.isEmpty, Set(table.fields.keys).isSubset(of: fields.keys) else { return false }
      return fields.allSatisfy { key, rule in table.fields[key].map(rule.accepts) ?? false }
    case (.list(let item), .table(let table)):
      return table.fields.isEmpty && table.sequence.allSatisfy(item.accepts)
    default: return false
    }
  }
}

enum Example: String, CaseIterable {
  case counter, products, shop, tasks

  var path: String { FuzzScratch.repositoryRoot + "/examples/\(rawValue)/\(rawValue).lua" }

  @MainActor
  func open(state: LuaValue?) throws -> LuaScreen {
    return try LuaScreen(
      path: path, options: .init(state: state, limits: Example.limits, data: self == .shop ? FuzzScratch.shopPayload : nil, output: { _ in }))
  }

  /// The limits the examples run with: a generous time limit (the machine is shared, and these
  /// scripts are trusted), and a value limit of 20,000 per crossing instead of 1,000,000. The
  /// limit is a parameter of one check (`Crossing`); at 20,000 the fuzzer reaches the same
  /// refusals, 50 times cheaper each (an action of 1,000 × 1,000 repeated values was pushed
  /// value by value up to the million before it was refused: a quarter of the harness's time).
  static let limits: LuaRuntime.Limits = {
    var limits = LuaRuntime.Limits()
    limits.timeLimit = .seconds(5)
    limits.maxNodes = 20_000
    return limits
  }()

  var schema: Schema {
    switch self {
    case .counter: .object(["title": .string, "count": .integer])
    case .products:
      .object([
        "title": .string,
        "items": .list(.object(["id": .string, "name": .string, "price": .number, "favorite": .boolean, "quantity": .integer])),
      ])
    case .shop: .object(["cart": .table, "count": .integer, "total": .number])
    case .tasks: .object(["draft": .string, "tasks": .list(.object(["title": .string, "done": .boolean]))])
    }
  }

  /// Lists and the ids of their rows' views.
  var rows: [(String, [String])] {
    switch self {
    case .products: [("items", ["line", "name", "price", "favorite", "quantity"])]
    case .tasks: [("tasks", ["done", "title"])]
    default: []
    }
  }

  /// The example's initial state (from a fresh open, once).
  @MainActor
  var initialState: LuaValue {
    if let cached = Example.initialStates[self] { return cached }
    do {
      let screen = try open(state: nil)
      defer { screen.close() }
      Example.initialStates[self] = screen.state
      return screen.state
    } catch {
      fuzzFail("\(self) does not open: \(error)")
    }
  }

  @MainActor static var initialStates: [Example: LuaValue] = [:]

  /// The initial state with a few changes: a field set to another value (often of the right
  /// type), removed, or a stray field added; a list item added or changed.
  @MainActor
  func mutatedState(_ input: inout FuzzBytes) -> LuaValue {
    var state = initialState
    for _ in 0...input.below(3) {
      guard case .table(var table) = state else { break }
      let keys = table.fields.keys.sorted()
      // With every field removed, only a stray field can be added.
      switch keys.isEmpty ? 1 : input.byte() % 5 {
      case 0: table.fields[input.pick(keys)] = nil
      case 1: table.fields[input.string(maxLength: 4)] = fuzzScalar(&input)
      case 2: table.fields[input.pick(keys)] = fuzzScalar(&input)
      case 3: table.fields[input.pick(keys)] = fuzzAction(&input)
      default:
        // A list item in the example's own shape, with one field perhaps off.
        switch self {
        case .tasks:
          var item: LuaValue = ["title": .string(input.string(maxLength: 4)), "done": .boolean(input.bool())]
          if input.bool() { item[input.pick(["title", "done", "extra"])] = fuzzScalar(&input) }
          if case .table(var tasks)? = table.fields["tasks"] {
            tasks.sequence.append(item)
            table.fields["tasks"] = .table(tasks)
          }
        case .products:
          if case .table(var items)? = table.fields["items"], !items.sequence.isEmpty {
            let index = input.below(items.sequence.count)
            items.sequence[index][input.pick(["id", "name", "price", "favorite", "quantity"])] = fuzzScalar(&input)
            table.fields["items"] = .table(items)
          }
        case .shop:
          table.fields["cart"] = .table(LuaTable(fields: [input.string(maxLength: 4): fuzzScalar(&input)]))
        case .counter:
          table.fields["count"] = .number(input.double())
        }
      }
      state = .table(table)
    }
    return state
  }

  /// An action from the example's vocabulary, with fuzzed fields.
  func action(_ input: inout FuzzBytes) -> LuaValue {
    switch self {
    case .counter:
      return input.bool() ? .string(input.pick(["increment", "decrement", "reset", "other"])) : ["type": .string(input.pick(["increment", "decrement", "reset"]))]
    case .tasks:
      switch input.byte() % 3 {
      case 0: return ["type": "draft", "text": input.below(4) == 0 ? fuzzScalar(&input) : .string(input.string(maxLength: 5))]
      case 1: return "add"
      default:
        return ["type": "toggle", "title": .string(input.pick(["", "a", "buy tea"])), "done": input.below(4) == 0 ? fuzzScalar(&input) : .boolean(input.bool())]
      }
    case .products:
      let id: LuaValue = .string(input.pick(["green", "matcha", "puerh", "nope"]))
      if input.bool() {
        return ["type": "favorite", "id": id, "on": input.below(4) == 0 ? fuzzScalar(&input) : .boolean(input.bool())]
      }
      return ["type": "quantity", "id": id, "value": input.below(3) == 0 ? fuzzScalar(&input) : .integer(Int64(input.below(11)))]
    case .shop:
      let price: LuaValue = input.below(3) == 0 ? fuzzScalar(&input) : .number(Double(input.below(100)) / 10)
      return ["type": "add", "id": .string(input.pick(["sencha", "matcha", "oolong", ""])), "price": price]
    }
  }

  /// What the example's `handle` does with `action` (the action as dispatched: a table).
  func model(_ state: LuaValue, _ action: LuaValue) -> ModelResult {
    guard case .string(let type) = action["type"] else { return .unknown }
    var next = state
    switch (self, type) {
    case (.counter, "increment"), (.counter, "decrement"):
      guard case .integer(let count) = state["count"] else { return .unknown }
      next["count"] = .integer(type == "increment" ? count &+ 1 : count &- 1)
    case (.counter, "reset"):
      next["count"] = .integer(0)
    case (.counter, _):
      break
    case (.tasks, "draft"):
      guard case .string = action["text"] else { return action["text"].isLuaNumber ? .unknown : .fails }
      next["draft"] = action["text"]
    case (.tasks, "add"):
      guard case .table(var tasks) = state["tasks"] else { return .unknown }
      tasks.sequence.append(["title": state["draft"], "done": false])
      next["tasks"] = .table(tasks)
      next["draft"] = ""
    case (.tasks, "toggle"):
      guard case .table(var tasks) = state["tasks"] else { return .unknown }
      for index in tasks.sequence.indices where tasks.sequence[index]["title"].sameBytes(as: action["title"]) {
        guard case .boolean = action["done"] else { return .fails }
        tasks.sequence[index]["done"] = action["done"]
      }
      next["tasks"] = .table(tasks)
    case (.tasks, _):
      break
    case (.products, "favorite"), (.products, "quantity"):
      guard case .table(var items) = state["items"] else { return .unknown }
      let field = type == "favorite" ? "on" : "value"
      for index in items.sequence.indices where items.sequence[index]["id"].sameBytes(as: action["id"]) {
        let value = action[field]
        if type == "favorite" {
          guard case .boolean = value else { return .fails }
          items.sequence[index]["favorite"] = value
        } else {
          guard Schema.integer.accepts(value) else { return .fails }
          items.sequence[index]["quantity"] = value
        }
      }
      next["items"] = .table(items)
    case (.products, _):
      break
    case (.shop, "add"):
      guard case .string(let id) = action["id"], case .table(var cart) = state["cart"], case .integer(let count) = state["count"]
      else { return .unknown }
      let total = state["total"]
      let price = action["price"]
      let sum: LuaValue
      switch (total, price) {
      case (.integer(let a), .integer(let b)): sum = .integer(a &+ b)
      case (.integer(let a), .number(let b)): sum = .number(Double(a) + b)
      case (.number(let a), .integer(let b)): sum = .number(a + Double(b))
      case (.number(let a), .number(let b)): sum = .number(a + b)
      default: return .unknown  // strings coerce in Lua arithmetic, or fail
      }
      if case .number(let x) = sum, !x.isFinite { return .fails }
      guard case .integer(let inCart)? = cart.fields[id] ?? .integer(0) else { return .unknown }
      cart.fields[id] = .integer(inCart &+ 1)
      next["cart"] = .table(cart)
      next["count"] = .integer(count &+ 1)
      next["total"] = sum
    case (.shop, _):
      break
    }
    return .state(next)
  }
}

extension LuaValue {
  /// Lua's `==` on strings compares bytes (Swift's compares canonical equivalence).
  func sameBytes(as other: LuaValue) -> Bool {
    if case .string(let a) = self, case .string(let b) = other { return a.utf8.elementsEqual(b.utf8) }
    return self == other
  }

  var isLuaNumber: Bool {
    switch self {
    case .integer, .number: true
    default: false
    }
  }
}
