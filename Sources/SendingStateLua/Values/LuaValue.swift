/// A Lua value as plain Swift data: what crosses the boundary for tooling and dynamic state.
///
/// Tables are split into a sequence part (keys 1…n) and string-keyed fields; functions and
/// userdata are not data and read as ``opaque(_:)``. Hot paths use typed plans instead
/// (``LuaTablePlan``); this is the general, dynamic form:
///
/// ```swift
/// let state: LuaValue = ["title": "Tea", "count": 1, "tags": ["green", "hot"]]
/// state["count"]   // .integer(1)
/// ```
public enum LuaValue: Hashable, Sendable {
  /// `nil`.
  case `nil`
  /// A boolean.
  case boolean(Bool)
  /// An integer (Lua's integer subtype).
  case integer(Int64)
  /// A float (Lua's float subtype).
  case number(Double)
  /// A string.
  case string(String)
  /// A table: a sequence part and string-keyed fields.
  case table(LuaTable)
  /// A value that is not data (a function, userdata, thread), by type name.
  case opaque(String)

  /// Lua's type name of the value (`"nil"`, `"boolean"`, `"number"`, `"string"`, `"table"`…).
  public var typeName: String {
    switch self {
    case .nil: "nil"
    case .boolean: "boolean"
    case .integer, .number: "number"
    case .string: "string"
    case .table: "table"
    case .opaque(let name): name
    }
  }

  /// The field `key` of a table, or `.nil`.
  public subscript(key: String) -> LuaValue {
    get {
      guard case .table(let table) = self else { return .nil }
      return table.fields[key] ?? .nil
    }
    set {
      guard case .table(var table) = self else { return }
      table.fields[key] = newValue == .nil ? nil : newValue
      self = .table(table)
    }
  }

  /// The sequence element at the 1-based `index` of a table, or `.nil`.
  public subscript(index: Int) -> LuaValue {
    guard case .table(let table) = self, index >= 1, index <= table.sequence.count else { return .nil }
    return table.sequence[index - 1]
  }

  /// The string, if the value is one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number as a Double, if the value is a number.
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The number as an Int, if it is an integer or an integral float that fits.
  public var intValue: Int? {
    switch self {
    case .integer(let value): Int(exactly: value)
    case .number(let value): Int(exactly: value)
    default: nil
    }
  }

  /// The boolean, if the value is one.
  public var boolValue: Bool? {
    if case .boolean(let flag) = self { return flag }
    return nil
  }

  /// The table, if the value is one.
  public var tableValue: LuaTable? {
    if case .table(let table) = self { return table }
    return nil
  }

  /// Lua truthiness: everything but `nil` and `false` is true.
  public var isTruthy: Bool {
    switch self {
    case .nil, .boolean(false): false
    default: true
    }
  }
}

/// The data of a Lua table: a sequence (keys 1…n) and string-keyed fields.
///
/// ```swift
/// LuaTable(sequence: [.integer(1)], fields: ["name": .string("x")])
/// ```
public struct LuaTable: Hashable, Sendable {
  /// Values at keys 1…n, in order.
  public var sequence: [LuaValue]
  /// Values at string keys.
  public var fields: [String: LuaValue]

  /// Creates a table.
  public init(sequence: [LuaValue] = [], fields: [String: LuaValue] = [:]) {
    self.sequence = sequence
    self.fields = fields
  }

  /// Whether the table has neither sequence elements nor fields.
  public var isEmpty: Bool { sequence.isEmpty && fields.isEmpty }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  /// `nil`.
  public init(nilLiteral: ()) { self = .nil }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
  /// An integer.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A float.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A sequence table.
  public init(arrayLiteral elements: LuaValue...) { self = .table(LuaTable(sequence: elements)) }
  /// A table of fields.
  public init(dictionaryLiteral elements: (String, LuaValue)...) {
    self = .table(LuaTable(fields: Dictionary(elements.filter { $0.1 != .nil }, uniquingKeysWith: { $1 })))
  }
}

extension LuaValue {
  /// About how many bytes the value holds in Swift: its strings' bytes, and 16 a value (for
  /// budgets of what the host keeps; a string shared by two fields counts twice).
  public var estimatedBytes: Int {
    switch self {
    case .string(let text): 16 + text.utf8.count
    case .table(let table):
      table.sequence.reduce(16) { $0 + $1.estimatedBytes }
        + table.fields.reduce(0) { $0 + 16 + $1.key.utf8.count + $1.value.estimatedBytes }
    case .opaque(let name): 16 + name.utf8.count
    default: 16
    }
  }
}
