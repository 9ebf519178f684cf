/// A screen's optional `schema`: the shape every new state must have.
///
/// Field types are `"string"`, `"number"`, `"integer"`, `"boolean"`, `"table"`, `"list"` or
/// `"any"`, with a `?` suffix for optional fields; a nested table is a nested schema; a list
/// of one entry describes list items (`{ { name = "string" } }`). Fields not in the schema are
/// errors, so a typo in an update is caught:
///
/// ```lua
/// schema = { title = "string", count = "integer", items = { { name = "string", price = "number" } } }
/// ```
struct ScreenSchema {
  indirect enum Rule {
    case type(String, optional: Bool)
    case object([String: Rule], optional: Bool)
    case list(Rule, optional: Bool)
  }

  let root: [String: Rule]

  /// Parses the schema table; errors name the schema field.
  init(_ value: LuaValue) throws(LuaBridgeError) {
    guard case .table(let table) = value, table.sequence.isEmpty else {
      throw LuaBridgeError(path: LuaPath(root: "schema"), problem: "expected a table of field types")
    }
    root = try Self.fields(table.fields, path: LuaPath(root: "schema"))
  }

  private static let typeNames: Set<String> = ["string", "number", "integer", "boolean", "table", "list", "any"]

  private static func fields(_ fields: [String: LuaValue], path: LuaPath) throws(LuaBridgeError) -> [String: Rule] {
    var rules: [String: Rule] = [:]
    for (name, spec) in fields {
      rules[name] = try rule(spec, path: path.appending(field: name))
    }
    return rules
  }

  private static func rule(_ spec: LuaValue, path: LuaPath) throws(LuaBridgeError) -> Rule {
    switch spec {
    case .string(var name):
      let optional = name.hasSuffix("?")
      if optional { name.removeLast() }
      guard typeNames.contains(name) else {
        throw LuaBridgeError(
          path: path, problem: "unknown type '\(name)' (use \(typeNames.sorted().joined(separator: ", ")), with ? for optional)")
      }
      return .type(name, optional: optional)
    case .table(let table) where table.sequence.count == 1 && table.fields.isEmpty:
      return .list(try rule(table.sequence[0], path: path.appending(index: 1)), optional: false)
    case .table(let table) where table.sequence.isEmpty:
      return .object(try fields(table.fields, path: path), optional: false)
    default:
      throw LuaBridgeError(path: path, problem: "expected a type name, a nested schema, or a one-item list schema")
    }
  }

  /// Checks `state`; the error names the first field that does not fit.
  func validate(_ state: LuaValue) throws(LuaBridgeError) {
    try check(state, against: .object(root, optional: false), path: LuaPath(root: "state"))
  }

  private func check(_ value: LuaValue, against rule: Rule, path: LuaPath) throws(LuaBridgeError) {
    func fail(_ expected: String) -> LuaBridgeError {
      LuaBridgeError(path: path, problem: value == .nil ? "missing (schema: \(expected))" : "expected \(expected), got \(describe(value)) (schema)")
    }
    switch rule {
    case .type(let name, let optional):
      if value == .nil {
        if optional { return }
        throw fail(name)
      }
      let fits =
        switch name {
        case "string": value.stringValue != nil
        case "number": value.doubleValue != nil
        case "integer": value.intValue != nil
        case "boolean": value.boolValue != nil
        case "table": value.tableValue != nil
        case "list": value.tableValue.map { $0.fields.isEmpty } ?? false
        default: true
        }
      if !fits { throw fail(name) }
    case .object(let fields, let optional):
      if value == .nil, optional { return }
      guard case .table(let table) = value, table.sequence.isEmpty || table.fields.isEmpty && table.sequence.isEmpty else {
        throw fail("a table with fields")
      }
      for key in table.fields.keys.sorted() where fields[key] == nil {
        throw LuaBridgeError(
          path: path.appending(field: key), problem: "not in the schema (fields: \(fields.keys.sorted().joined(separator: ", ")))")
      }
      for (key, fieldRule) in fields.sorted(by: { $0.key < $1.key }) {
        try check(table.fields[key] ?? .nil, against: fieldRule, path: path.appending(field: key))
      }
    case .list(let itemRule, let optional):
      if value == .nil, optional { return }
      guard case .table(let table) = value, table.fields.isEmpty else { throw fail("a list") }
      for (offset, item) in table.sequence.enumerated() {
        try check(item, against: itemRule, path: path.appending(index: offset + 1))
      }
    }
  }
}
