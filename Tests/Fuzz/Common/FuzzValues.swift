// Shared by every fuzz target: data values made from fuzzer bytes, and what crossing into Lua
// and back must make of them.
import SendingStateLua

/// A generated value with what it costs to cross: nodes per visit and nesting, computed while it
/// is made (a subtree repeated k times counts k times without being walked k times).
struct GeneratedValue {
  var value: LuaValue
  /// Values the push visits (saturating).
  var nodes: Int
  /// Nesting of tables (0 for a scalar).
  var depth: Int
}

/// Makes LuaValue trees from bytes: scalars of every kind, wide and deep tables, subtrees
/// repeated many times (the shape that grows as 2^N when copied), non-finite numbers, nils and
/// opaque values where Lua cannot hold them.
struct ValueGenerator {
  /// Distinct nodes this generator may still build (keeps one input cheap).
  var budget: Int

  init(budget: Int = 3_000) {
    self.budget = budget
  }

  mutating func value(_ input: inout FuzzBytes, level: Int = 0) -> GeneratedValue {
    budget -= 1
    let choice = budget <= 0 || level > 40 ? input.byte() % 6 : input.byte() % 12
    switch choice {
    case 0: return scalar(.nil)
    case 1: return scalar(.boolean(input.bool()))
    case 2: return scalar(.integer(input.integer()))
    case 3: return scalar(.number(input.double()))
    case 4: return scalar(.string(input.string()))
    case 5: return input.below(4) == 0 ? scalar(.opaque("function")) : scalar(.string(input.string(maxLength: 40)))
    case 6, 7:
      // A table with a few elements and fields.
      var table = LuaTable()
      var nodes = 1
      var depth = 0
      for _ in 0..<input.below(6) {
        let child = value(&input, level: level + 1)
        table.sequence.append(child.value)
        nodes = saturating(nodes, plus: child.nodes)
        depth = max(depth, child.depth)
      }
      var fieldCosts: [String: (nodes: Int, depth: Int)] = [:]
      for _ in 0..<input.below(5) {
        let key = input.string(maxLength: 6)
        let child = value(&input, level: level + 1)
        table.fields[key] = child.value
        fieldCosts[key] = child.value == .nil ? (0, 0) : (child.nodes, child.depth)
      }
      for cost in fieldCosts.values {
        nodes = saturating(nodes, plus: cost.nodes)
        depth = max(depth, cost.depth)
      }
      return GeneratedValue(value: .table(table), nodes: nodes, depth: depth + 1)
    case 8:
      // One subtree repeated: as a list `count` times, and under a few fields.
      let child = value(&input, level: level + 1)
      let count = input.pick([2, 2, 3, 16, 100, 1_000])
      var table = LuaTable(sequence: Array(repeating: child.value, count: count))
      var nodes = saturating(1, plus: saturating(count, times: child.nodes))
      for index in 0..<input.below(3) {
        table.fields["s\(index)"] = child.value
        if child.value != .nil { nodes = saturating(nodes, plus: child.nodes) }
      }
      return GeneratedValue(value: .table(table), nodes: nodes, depth: child.depth + 1)
    case 9:
      // A chain: the child wrapped in `levels` tables, as a list element or a field.
      let child = value(&input, level: level + 1)
      let levels = input.pick([1, 8, 20, 63, 64, 65, 100])
      let asField = input.bool()
      var wrapped = child.value
      for _ in 0..<levels {
        wrapped = asField ? .table(LuaTable(fields: wrapped == .nil ? [:] : ["a": wrapped])) : .table(LuaTable(sequence: [wrapped]))
      }
      let nodes = asField && child.value == .nil ? levels : saturating(levels, plus: child.nodes)
      return GeneratedValue(value: wrapped, nodes: nodes, depth: child.depth + levels)
    case 10:
      // Wide: many scalars.
      let count = input.pick([10, 255, 1_000, 5_000])
      let element: LuaValue = input.bool() ? .integer(input.integer()) : .string(input.string(maxLength: 3))
      var table = LuaTable(sequence: Array(repeating: element, count: count))
      if input.bool() { table.sequence[input.below(count)] = .nil }
      return GeneratedValue(value: .table(table), nodes: count + 1, depth: 1)
    default:
      // Doubling: N levels of { x, x }, 2^N values when copied.
      var current = value(&input, level: level + 1)
      for _ in 0..<input.pick([1, 4, 10, 20, 40]) {
        current = GeneratedValue(
          value: .table(LuaTable(sequence: [current.value, current.value])),
          nodes: saturating(1, plus: saturating(current.nodes, times: 2)), depth: current.depth + 1)
      }
      return current
    }
  }

  private func scalar(_ value: LuaValue) -> GeneratedValue {
    GeneratedValue(value: value, nodes: 1, depth: 0)
  }
}

/// Counts that stop at Int.max instead of wrapping (a repeated subtree multiplies them).
func saturating(_ a: Int, plus b: Int) -> Int {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? .max : sum
}

func saturating(_ a: Int, times b: Int) -> Int {
  let (product, overflow) = a.multipliedReportingOverflow(by: b)
  return overflow ? .max : product
}

/// What pushing a value must do, found by walking it in the push's own order: the first problem
/// the push meets (too many values, too deep, a non-finite number), or none.
struct PushOracle {
  let maxDepth: Int
  let maxNodes: Int
  private(set) var nodes = 0
  private var trail: [LuaPath.Component] = []

  init(maxDepth: Int, maxNodes: Int) {
    self.maxDepth = maxDepth
    self.maxNodes = maxNodes
  }

  struct Problem: Error {
    var kind: ScriptError.Kind
    /// The path as the error must show it.
    var path: String
  }

  mutating func check(_ value: LuaValue, root: String) -> Problem? {
    nodes = 0
    trail = []
    do {
      try walk(value, level: 0, root: root)
      return nil
    } catch {
      return error
    }
  }

  private mutating func walk(_ value: LuaValue, level: Int, root: String) throws(Problem) {
    nodes += 1
    let path = LuaPath(root: root, components: trail)
    if nodes > maxNodes { throw Problem(kind: .tooLarge, path: PushOracle.shown(path)) }
    switch value {
    case .number(let number) where !number.isFinite:
      throw Problem(kind: .typeMismatch, path: path.description)
    case .table(let table):
      guard level + 1 <= maxDepth else { throw Problem(kind: .tooLarge, path: PushOracle.shown(path)) }
      for (offset, element) in table.sequence.enumerated() {
        trail.append(.index(offset + 1))
        try walk(element, level: level + 1, root: root)
        trail.removeLast()
      }
      for (key, element) in table.fields where element != .nil {
        trail.append(.field(key))
        try walk(element, level: level + 1, root: root)
        trail.removeLast()
      }
    default:
      break
    }
  }

  /// Limit errors shorten deep paths to their first four steps and `…`.
  static func shown(_ path: LuaPath) -> String {
    path.depth > 8 ? path.abbreviated(after: 4) : path.description
  }
}

/// What a value pushed into Lua reads back as: nils and opaque values vanish from fields and
/// from the end of lists; one in the middle of a list leaves a hole, which a read refuses.
enum ReadBack: Equatable {
  case value(LuaValue)
  case hole
}

func readBack(of value: LuaValue) -> ReadBack {
  switch value {
  case .opaque: return .value(.nil)
  case .table(let table):
    var sequence: [LuaValue] = []
    var pendingHole = false
    for element in table.sequence {
      switch element {
      case .nil, .opaque:
        pendingHole = true
      default:
        if pendingHole { return .hole }
        guard case .value(let read) = readBack(of: element) else { return .hole }
        sequence.append(read)
      }
    }
    var fields: [String: LuaValue] = [:]
    for (key, element) in table.fields {
      if case .nil = element { continue }
      if case .opaque = element { continue }
      guard case .value(let read) = readBack(of: element) else { return .hole }
      fields[key] = read
    }
    return .value(.table(LuaTable(sequence: sequence, fields: fields)))
  default:
    return .value(value)
  }
}

/// Nesting and values of a value as a read visits it (nils in tables are not there to visit).
/// Whether `value` has more than `limit` values when every path is counted (as the host counts
/// them): stops counting past the limit, so a value whose repeated subtrees make 2^N paths costs
/// no more than `limit` steps.
func hasMoreValues(_ value: LuaValue, than limit: Int) -> Bool {
  var count = 0
  func visit(_ value: LuaValue) -> Bool {
    count += 1
    if count > limit { return true }
    guard case .table(let table) = value else { return false }
    for element in table.sequence { if case .nil = element { continue }; if visit(element) { return true } }
    for element in table.fields.values { if case .nil = element { continue }; if visit(element) { return true } }
    return false
  }
  return visit(value)
}

func readCost(of value: LuaValue) -> (nodes: Int, depth: Int) {
  guard case .table(let table) = value else { return (1, 0) }
  var nodes = 1
  var depth = 0
  for element in table.sequence where element != .nil {
    let child = readCost(of: element)
    nodes += child.nodes
    depth = max(depth, child.depth)
  }
  for (_, element) in table.fields where element != .nil {
    let child = readCost(of: element)
    nodes += child.nodes
    depth = max(depth, child.depth)
  }
  return (nodes, depth + 1)
}

/// Whether a value holds a non-finite number anywhere (only for small values).
func hasNonFinite(_ value: LuaValue) -> Bool {
  switch value {
  case .number(let number): return !number.isFinite
  case .table(let table): return table.sequence.contains(where: hasNonFinite) || table.fields.values.contains(where: hasNonFinite)
  default: return false
  }
}

/// A short description for failure messages: stops writing at `limit` bytes, so a huge value
/// (a generated one with repeated subtrees is exponential when described in full) costs no more
/// than a small one.
func brief(_ value: LuaValue, limit: Int = 300) -> String {
  var text = ""
  func write(_ value: LuaValue) {
    guard text.utf8.count < limit else { return }
    switch value {
    case .table(let table):
      text += "{"
      for element in table.sequence {
        write(element)
        text += ", "
        guard text.utf8.count < limit else { return }
      }
      for (key, element) in table.fields {
        text += "\(key) = "
        write(element)
        text += ", "
        guard text.utf8.count < limit else { return }
      }
      text += "}"
    case .string(let string): text += "\"\(string.prefix(limit))\""
    case .integer(let integer): text += "\(integer)"
    case .number(let number): text += "\(number)"
    case .boolean(let flag): text += "\(flag)"
    case .nil: text += "nil"
    case .opaque(let name): text += "<\(name)>"
    }
  }
  write(value)
  return text.utf8.count > limit ? String(text.prefix(limit)) + "…" : text
}
