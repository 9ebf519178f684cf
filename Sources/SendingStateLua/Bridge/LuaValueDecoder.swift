/// Decodes `Decodable` Swift values from ``LuaValue`` data, with field-path errors.
///
/// The mirror of ``LuaValueEncoder``. Every mismatch names where it is and what was expected:
///
/// ```swift
/// try LuaValueDecoder(rootName: "state").decode(Cart.self, from: value)
/// // throws "state.items[3].price: expected number, got string"
/// ```
///
/// Integral floats decode as integers (`3.0` → `3`); a fractional one does not. Integers must fit
/// the target type. A list where fields are expected (or the reverse), and a table that mixes
/// both, are errors.
///
/// **Enums with associated values** decode from Lua's action shape, with no hand-written
/// `init(from:)`: the `type` field names the case, the other fields are its labelled values and
/// list items its unlabelled ones; a bare string names a case without values. Swift's own keyed
/// shape (`{ card = { number = "4242" } }`, what ``LuaValueEncoder`` writes) decodes too.
///
/// ```swift
/// enum CartAction: Decodable { case clear, add(title: String, count: Int), remove(Int) }
/// // { type = "add", title = "Tea", count = 2 } → .add(title: "Tea", count: 2)
/// // { type = "remove", 3 } → .remove(3);  "clear" → .clear
/// // { type = "ad" } throws "action.type: no case 'ad' in CartAction (…)"
/// ```
public struct LuaValueDecoder: Sendable {
  /// The name of the root value in error paths.
  public var rootName: String

  /// Creates a decoder.
  public init(rootName: String = "value") {
    self.rootName = rootName
  }

  /// Decodes a `T` from `value`.
  ///
  /// - Throws: ``LuaBridgeError`` naming the field path of the first mismatch.
  public func decode<T: Decodable>(_ type: T.Type, from value: LuaValue) throws(LuaBridgeError) -> T {
    let unmatched = UnmatchedCases()
    do {
      if T.self == LuaValue.self, let same = value as? T { return same }
      return try T(from: LuaDecoding(value: value, path: LuaPath(root: rootName), unmatched: unmatched))
    } catch let error as LuaBridgeError {
      throw error
    } catch let DecodingError.typeMismatch(enumType, _) where unmatched.note(for: enumType) != nil {
      // Swift's synthesized enum decoding found no case key: say which `type` named no case.
      let note = unmatched.note(for: enumType)!
      throw LuaBridgeError(
        path: note.path.appending(field: "type"),
        problem: "no case '\(note.name)' in \(enumType) (the action's type must name one of its cases, spelt as in Swift)")
    } catch let DecodingError.dataCorrupted(context) {
      throw LuaBridgeError(path: LuaPath(root: rootName), problem: context.debugDescription)
    } catch {
      throw LuaBridgeError(path: LuaPath(root: rootName), problem: "\(error)")
    }
  }
}

/// Describes a value for "got …" messages.
func describe(_ value: LuaValue) -> String {
  switch value {
  case .integer(let integer): "integer \(integer)"
  case .number(let number): "number \(number)"
  case .string(let text): text.count <= 20 ? "string \"\(text)\"" : "string"
  case .table(let table) where !table.sequence.isEmpty && table.fields.isEmpty: "a list"
  case .table: "table"
  default: value.typeName
  }
}

/// The tables of one decoding whose `type` named no key of the keys they were read with, so a
/// synthesized enum's "no case key" error can name the case it was given.
final class UnmatchedCases {
  struct Note {
    let keys: Any.Type
    let name: String
    let path: LuaPath
  }
  private var notes: [Note] = []

  func record<Key: CodingKey>(_ keys: Key.Type, name: String, path: LuaPath) {
    // (The last few: the error they explain comes right after its table; a long list of
    // structs with a `type` field must not pile them up.)
    if notes.count == 16 { notes.removeFirst() }
    notes.append(Note(keys: keys, name: name, path: path))
  }

  /// The last note made with `enumType`'s own coding keys: `App.Action.CodingKeys`, or
  /// `App.Action.(unknown context at $…).CodingKeys` as Swift names the synthesized (private) ones.
  func note(for enumType: Any.Type) -> Note? {
    let owner = String(reflecting: enumType) + "."
    return notes.last { note in
      let name = String(reflecting: note.keys)
      guard name.hasPrefix(owner), name.hasSuffix("CodingKeys") else { return false }
      let between = name.dropFirst(owner.count).dropLast("CodingKeys".count)
      return between.isEmpty
        || (between.hasPrefix("(unknown context at ") && between.hasSuffix(").") && !between.dropLast().contains("."))
    }
  }
}

struct LuaDecoding: Decoder {
  let value: LuaValue
  let path: LuaPath
  let unmatched: UnmatchedCases
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    // An enum case in Lua's action shape: `{ type = "add", title = "Tea" }`, `{ type = "remove", 3 }`
    // or "clear", read with the enum's keys (its case names; a type with a `type` key is not one).
    if Key(stringValue: "type") == nil {
      switch value {
      case .string(let name) where Key(stringValue: name) != nil:
        // (Read as a struct's fields instead, it is the error it always was.)
        return KeyedDecodingContainer(
          LuaKeyedDecoding<Key>(
            fields: [:], path: path, unmatched: unmatched, enumCase: (name, [:]),
            notFields: LuaBridgeError(path: path, problem: "expected table, got \(describe(value))")))
      case .table(let table):
        if case .string(let name)? = table.fields["type"] {
          if Key(stringValue: name) != nil {
            var payload = table.fields
            payload["type"] = nil
            for (offset, element) in table.sequence.enumerated() { payload["_\(offset)"] = element }
            let mixed = table.sequence.isEmpty ? nil : LuaBridgeError(
              path: path, problem: "table mixes a list (\(table.sequence.count) items) with named fields")
            return KeyedDecodingContainer(
              LuaKeyedDecoding<Key>(
                fields: table.fields, path: path, unmatched: unmatched, enumCase: (name, payload), notFields: mixed))
          }
          unmatched.record(Key.self, name: name, path: path)
        }
      default: break
      }
    }
    guard case .table(let table) = value else {
      throw LuaBridgeError(path: path, problem: "expected table, got \(describe(value))")
    }
    if !table.sequence.isEmpty {
      throw LuaBridgeError(
        path: path,
        problem: table.fields.isEmpty
          ? "expected a table with named fields, got a list"
          : "table mixes a list (\(table.sequence.count) items) with named fields")
    }
    return KeyedDecodingContainer(LuaKeyedDecoding<Key>(fields: table.fields, path: path, unmatched: unmatched))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .table(let table) = value else {
      throw LuaBridgeError(path: path, problem: "expected a list, got \(describe(value))")
    }
    guard table.fields.isEmpty else {
      let names = Self.names(table.fields)
      throw LuaBridgeError(
        path: path,
        problem: table.sequence.isEmpty
          ? "expected a list, got a table with named fields (\(names))"
          : "table mixes a list (\(table.sequence.count) items) with named fields (\(names))")
    }
    return LuaUnkeyedDecoding(elements: table.sequence, path: path, unmatched: unmatched)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    LuaSingleDecoding(value: value, path: path, unmatched: unmatched)
  }

  /// The first few field names, for messages.
  static func names(_ fields: [String: LuaValue]) -> String {
    fields.keys.sorted().prefix(3).joined(separator: ", ")
  }
}

struct LuaSingleDecoding: SingleValueDecodingContainer {
  let value: LuaValue
  let path: LuaPath
  let unmatched: UnmatchedCases
  var codingPath: [any CodingKey] { [] }

  func mismatch(_ expected: String) -> LuaBridgeError {
    LuaBridgeError(path: path, problem: value == .nil ? "missing (expected \(expected))" : "expected \(expected), got \(describe(value))")
  }

  func decodeNil() -> Bool { value == .nil }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .boolean(let flag) = value else { throw mismatch("boolean") }
    return flag
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let text) = value else { throw mismatch("string") }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double {
    guard let number = value.doubleValue else { throw mismatch("number") }
    return number
  }

  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

  func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let wide: Int64
    switch value {
    case .integer(let integer): wide = integer
    case .number(let number):
      guard let exact = Int64(exactly: number) else { throw mismatch("integer") }
      wide = exact
    default: throw mismatch("integer")
    }
    guard let fitted = T(exactly: wide) else {
      throw LuaBridgeError(path: path, problem: "integer \(wide) does not fit in \(T.self) (\(T.min)…\(T.max))")
    }
    return fitted
  }

  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    if T.self == LuaValue.self, let same = value as? T { return same }
    return try T(from: LuaDecoding(value: value, path: path, unmatched: unmatched))
  }
}

struct LuaKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let fields: [String: LuaValue]
  let path: LuaPath
  let unmatched: UnmatchedCases
  /// Set when the table is an enum case in Lua's action shape: the case's name and its values
  /// (named fields, and list items as `_0`, `_1`, … as Swift names unlabelled values).
  var enumCase: (name: String, payload: [String: LuaValue])?
  /// Set when such a case could not be a struct's fields (a bare string, a table with list
  /// items): the error reading a field throws, as it would have without the enum reading.
  var notFields: LuaBridgeError?
  var codingPath: [any CodingKey] { [] }

  var allKeys: [Key] {
    if let enumCase { return Key(stringValue: enumCase.name).map { [$0] } ?? [] }
    return fields.keys.sorted().compactMap { Key(stringValue: $0) }
  }

  // (With `notFields`, every key "is there", so decodeIfPresent goes on to decodeNil, which throws.)
  func contains(_ key: Key) -> Bool { notFields != nil || fields[key.stringValue] != nil }

  private func single(_ key: Key) throws -> LuaSingleDecoding {
    if let notFields { throw notFields }
    return LuaSingleDecoding(
      value: fields[key.stringValue] ?? .nil, path: path.appending(field: key.stringValue), unmatched: unmatched)
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    if let notFields { throw notFields }
    return (fields[key.stringValue] ?? .nil) == .nil
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let slot = try single(key)
    if slot.value == .nil, !(T.self is any ExpressibleByNilLiteral.Type) {
      throw LuaBridgeError(path: slot.path, problem: "missing (expected \(expectedName(T.self)))")
    }
    return try slot.decode(type)
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try single(key).decode(type) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try single(key).decode(type) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try single(key).decode(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try single(key).decode(type) }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    if let enumCase, key.stringValue == enumCase.name {
      // The case's values sit beside `type`, at the action's own path.
      return KeyedDecodingContainer(LuaKeyedDecoding<NestedKey>(fields: enumCase.payload, path: path, unmatched: unmatched))
    }
    if let notFields { throw notFields }
    return try LuaDecoding(
      value: fields[key.stringValue] ?? .nil, path: path.appending(field: key.stringValue), unmatched: unmatched
    ).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    if let notFields { throw notFields }
    return try LuaDecoding(
      value: fields[key.stringValue] ?? .nil, path: path.appending(field: key.stringValue), unmatched: unmatched
    ).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    LuaDecoding(value: .table(LuaTable(fields: fields)), path: path, unmatched: unmatched)
  }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    LuaDecoding(value: fields[key.stringValue] ?? .nil, path: path.appending(field: key.stringValue), unmatched: unmatched)
  }
}

/// A readable name of the Lua type a Swift type expects.
func expectedName(_ type: Any.Type) -> String {
  switch type {
  case is String.Type: "string"
  case is Bool.Type: "boolean"
  case is Double.Type, is Float.Type: "number"
  case is any FixedWidthInteger.Type: "integer"
  default: "\(type)"
  }
}

struct LuaUnkeyedDecoding: UnkeyedDecodingContainer {
  let elements: [LuaValue]
  let path: LuaPath
  let unmatched: UnmatchedCases
  var currentIndex = 0
  var codingPath: [any CodingKey] { [] }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private mutating func next() throws -> LuaSingleDecoding {
    guard !isAtEnd else {
      throw LuaBridgeError(path: path.appending(index: currentIndex + 1), problem: "missing (the list is shorter)")
    }
    defer { currentIndex += 1 }
    return LuaSingleDecoding(value: elements[currentIndex], path: path.appending(index: currentIndex + 1), unmatched: unmatched)
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd else { return true }
    if elements[currentIndex] == .nil {
      currentIndex += 1
      return true
    }
    return false
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let slot = try next()
    return try LuaDecoding(value: slot.value, path: slot.path, unmatched: unmatched).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let slot = try next()
    return try LuaDecoding(value: slot.value, path: slot.path, unmatched: unmatched).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let slot = try next()
    return LuaDecoding(value: slot.value, path: slot.path, unmatched: unmatched)
  }
}

extension LuaValue: Codable {
  /// Decodes any JSON-like value (objects, arrays, strings, numbers, booleans, null).
  ///
  /// For JSON text use ``init(json:root:limits:)``: it applies the host's limits and reads in
  /// one linear pass, where this conformance tries each type in turn at every value.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer() {
      if single.decodeNil() {
        self = .nil
        return
      }
      if let flag = try? single.decode(Bool.self) {
        self = .boolean(flag)
        return
      }
      if let integer = try? single.decode(Int64.self) {
        self = .integer(integer)
        return
      }
      if let number = try? single.decode(Double.self) {
        guard number.isFinite else {
          throw LuaBridgeError(path: Self.path(decoder.codingPath), problem: LuaStack.nonFinite(number))
        }
        self = .number(number)
        return
      }
      if let text = try? single.decode(String.self) {
        self = .string(text)
        return
      }
    }
    // Containers.
    if var list = try? decoder.unkeyedContainer() {
      var sequence: [LuaValue] = []
      while !list.isAtEnd {
        sequence.append(try list.decode(LuaValue.self))
      }
      self = .table(LuaTable(sequence: sequence))
      return
    }
    let object = try decoder.container(keyedBy: LuaJSONKey.self)
    var fields: [String: LuaValue] = [:]
    for key in object.allKeys {
      let value = try object.decode(LuaValue.self, forKey: key)
      if value != .nil { fields[key.stringValue] = value }
    }
    self = .table(LuaTable(fields: fields))
  }

  /// A coding path as a script author reads it: `value.sections[2].units[1]` (1-based).
  private static func path(_ codingPath: [any CodingKey]) -> LuaPath {
    LuaPath(
      root: "value",
      components: codingPath.map { key in
        if let index = key.intValue { return .index(index + 1) }
        return .field(key.stringValue)
      })
  }

  /// Encodes as JSON-like data: a list table as an array, a table with fields as an object.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .nil, .opaque: try container.encodeNil()
    case .boolean(let flag): try container.encode(flag)
    case .integer(let integer): try container.encode(integer)
    case .number(let number): try container.encode(number)
    case .string(let text): try container.encode(text)
    case .table(let table):
      if table.fields.isEmpty, !table.sequence.isEmpty {
        try container.encode(table.sequence)
      } else if table.sequence.isEmpty {
        try container.encode(table.fields)
      } else {
        var merged = table.fields
        for (offset, element) in table.sequence.enumerated() { merged[String(offset + 1)] = element }
        try container.encode(merged)
      }
    }
  }
}
