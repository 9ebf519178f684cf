/// Encodes `Encodable` Swift values as ``LuaValue`` data (the general, reflective path).
///
/// Structs and dictionaries with string keys become tables of fields, arrays become lists,
/// optionals that are `nil` become absent fields, enums with raw values become their raw value,
/// integers stay integers and floats stay floats. Integers that do not fit Lua's 64-bit integers
/// and NaN are errors naming the path:
///
/// ```swift
/// let value = try LuaValueEncoder().encode(Product(title: "Tea", price: 3.5))
/// // ["title": "Tea", "price": 3.5]
/// ```
///
/// Enums with associated values (Swift's synthesized `Codable`) take Lua's action shape, the one
/// ``LuaValueDecoder`` reads back: `type` names the case, labelled values are fields and
/// unlabelled ones list items — `.add(title: "Tea", count: 2)` is `{ type = "add", title = "Tea",
/// count = 2 }`, `.remove(3)` is `{ type = "remove", 3 }`, `.clear` is `{ type = "clear" }`. An enum
/// with a case named `type`, or a case with a value labelled `type`, keeps Swift's keyed shape
/// (`{ setFilter = { type = "all" } }`), since `type` could not name the case.
public struct LuaValueEncoder: Sendable {
  /// The name of the root value in error paths.
  public var rootName: String

  /// Creates an encoder.
  public init(rootName: String = "value") {
    self.rootName = rootName
  }

  /// Encodes `value`.
  ///
  /// - Throws: ``LuaBridgeError`` naming the field path of an unrepresentable value.
  public func encode<T: Encodable>(_ value: T) throws(LuaBridgeError) -> LuaValue {
    let encoder = LuaEncoding(path: LuaPath(root: rootName))
    do {
      try value.encode(to: encoder)
    } catch let error as LuaBridgeError {
      throw error
    } catch {
      throw LuaBridgeError(path: LuaPath(root: rootName), problem: "\(error)")
    }
    return encoder.storage.value
  }
}

/// A slot the encoding writes into; containers share it by reference.
final class LuaEncodingSlot {
  var value: LuaValue = .nil
}

final class LuaEncoding: Encoder {
  let path: LuaPath
  let storage: LuaEncodingSlot
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]

  init(path: LuaPath, storage: LuaEncodingSlot = LuaEncodingSlot()) {
    self.path = path
    self.storage = storage
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .table = storage.value {} else { storage.value = .table(LuaTable()) }
    return KeyedEncodingContainer(LuaKeyedEncoding<Key>(path: path, storage: storage))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .table = storage.value {} else { storage.value = .table(LuaTable()) }
    return LuaUnkeyedEncoding(path: path, storage: storage)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    LuaSingleEncoding(path: path, storage: storage)
  }
}

/// Converts primitives, checking range and NaN.
enum LuaPrimitive {
  static func integer<T: BinaryInteger>(_ value: T, at path: LuaPath) throws(LuaBridgeError) -> LuaValue {
    guard let fitted = Int64(exactly: value) else {
      throw LuaBridgeError(path: path, problem: "integer \(value) does not fit in Lua's 64-bit integers")
    }
    return .integer(fitted)
  }

  static func number(_ value: Double, at path: LuaPath) throws(LuaBridgeError) -> LuaValue {
    guard !value.isNaN else { throw LuaBridgeError(path: path, problem: "NaN is not a valid value") }
    return .number(value)
  }
}

struct LuaSingleEncoding: SingleValueEncodingContainer {
  let path: LuaPath
  let storage: LuaEncodingSlot
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() throws { storage.value = .nil }
  mutating func encode(_ value: Bool) throws { storage.value = .boolean(value) }
  mutating func encode(_ value: String) throws { storage.value = .string(value) }
  mutating func encode(_ value: Double) throws { storage.value = try LuaPrimitive.number(value, at: path) }
  mutating func encode(_ value: Float) throws { storage.value = try LuaPrimitive.number(Double(value), at: path) }
  mutating func encode(_ value: Int) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: Int8) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: Int16) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: Int32) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: Int64) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: UInt) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: UInt8) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: UInt16) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: UInt32) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode(_ value: UInt64) throws { storage.value = try LuaPrimitive.integer(value, at: path) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    if let luaValue = value as? LuaValue {
      storage.value = luaValue
      return
    }
    try value.encode(to: LuaEncoding(path: path, storage: storage))
  }
}

struct LuaKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let path: LuaPath
  let storage: LuaEncodingSlot
  var codingPath: [any CodingKey] { [] }

  private func set(_ key: Key, _ value: LuaValue) {
    guard case .table(var table) = storage.value else { return }
    table.fields[key.stringValue] = value == .nil ? nil : value
    storage.value = .table(table)
  }

  private func slot(_ key: Key) -> LuaSingleEncoding {
    LuaSingleEncoding(path: path.appending(field: key.stringValue), storage: LuaEncodingSlot())
  }

  mutating func encodeNil(forKey key: Key) throws {}

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    var single = slot(key)
    try single.encode(value)
    set(key, single.storage.value)
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, .boolean(value)) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(key, .string(value)) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(key, try LuaPrimitive.number(value, at: path.appending(field: key.stringValue)))
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    set(key, try LuaPrimitive.integer(value, at: path.appending(field: key.stringValue)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    if Key(stringValue: "type") == nil, LuaEnumCase.isSynthesized(keyType, caseName: key.stringValue),
      case .table(let table) = storage.value, table.fields.isEmpty, table.sequence.isEmpty
    {
      // A synthesized enum case: `{ type = "add", title = "Tea" }` rather than `{ add = { title = "Tea" } }`.
      let enumCase = LuaEnumCase(name: key.stringValue, storage: storage)
      enumCase.commit()
      return KeyedEncodingContainer(LuaEnumCaseEncoding<NestedKey>(path: path, enumCase: enumCase))
    }
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    defer { set(key, nested.value) }
    return KeyedEncodingContainer(
      LuaDeferredKeyedEncoding<NestedKey>(path: path.appending(field: key.stringValue), storage: nested) {
        [storage] value in
        guard case .table(var table) = storage.value else { return }
        table.fields[key.stringValue] = value
        storage.value = .table(table)
      })
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    return LuaUnkeyedEncoding(path: path.appending(field: key.stringValue), storage: nested) { [storage] value in
      guard case .table(var table) = storage.value else { return }
      table.fields[key.stringValue] = value
      storage.value = .table(table)
    }
  }

  mutating func superEncoder() -> any Encoder { LuaEncoding(path: path, storage: storage) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    LuaEncoding(path: path.appending(field: key.stringValue), storage: storage)
  }
}

/// One enum case being encoded in Lua's action shape; every change rewrites the enum's slot.
final class LuaEnumCase {
  let name: String
  let storage: LuaEncodingSlot
  var values: [String: LuaValue] = [:]

  init(name: String, storage: LuaEncodingSlot) {
    self.name = name
    self.storage = storage
  }

  /// Whether `keys` are the keys Swift synthesizes for the values of case `caseName`
  /// (`AddCodingKeys` for `add`): only then is the container an enum case, not a hand-written one.
  static func isSynthesized(_ keys: any CodingKey.Type, caseName: String) -> Bool {
    guard let first = caseName.first else { return false }
    return String(describing: keys) == first.uppercased() + caseName.dropFirst() + "CodingKeys"
  }

  /// `{ type = name, label = value…, unlabelled values as items }` (an unlabelled value after a
  /// `nil` one stays a field, `_1`, as Swift names it); Swift's keyed shape when a value is
  /// labelled `type`.
  func commit() {
    if values["type"] != nil {
      storage.value = .table(LuaTable(fields: [name: .table(LuaTable(fields: values))]))
      return
    }
    var items: [LuaValue] = []
    var fields = values
    while let item = fields.removeValue(forKey: "_\(items.count)") { items.append(item) }
    fields["type"] = .string(name)
    storage.value = .table(LuaTable(sequence: items, fields: fields))
  }
}

/// The values of an enum case (see ``LuaEnumCase``), at the enum's own path.
struct LuaEnumCaseEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let path: LuaPath
  let enumCase: LuaEnumCase
  var codingPath: [any CodingKey] { [] }

  private func set(_ key: Key, _ value: LuaValue) {
    enumCase.values[key.stringValue] = value == .nil ? nil : value
    enumCase.commit()
  }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    var single = LuaSingleEncoding(path: path.appending(field: key.stringValue), storage: LuaEncodingSlot())
    try single.encode(value)
    set(key, single.storage.value)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    set(key, nested.value)
    return KeyedEncodingContainer(
      LuaDeferredKeyedEncoding<NestedKey>(path: path.appending(field: key.stringValue), storage: nested) {
        [enumCase] value in
        enumCase.values[key.stringValue] = value
        enumCase.commit()
      })
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    set(key, nested.value)
    return LuaUnkeyedEncoding(path: path.appending(field: key.stringValue), storage: nested) { [enumCase] value in
      enumCase.values[key.stringValue] = value
      enumCase.commit()
    }
  }
  mutating func superEncoder() -> any Encoder {
    let slot = LuaEncodingSlot()
    return LuaEncoding(path: path, storage: slot)
  }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    LuaEncoding(path: path.appending(field: key.stringValue), storage: LuaEncodingSlot())
  }
}

/// A keyed container whose table is written back to its parent after every change.
struct LuaDeferredKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let path: LuaPath
  let storage: LuaEncodingSlot
  let commit: (LuaValue) -> Void
  var codingPath: [any CodingKey] { [] }

  private var inner: LuaKeyedEncoding<Key> { LuaKeyedEncoding(path: path, storage: storage) }

  mutating func encodeNil(forKey key: Key) throws {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    var inner = self.inner
    try inner.encode(value, forKey: key)
    commit(storage.value)
  }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    var inner = self.inner
    defer { commit(storage.value) }
    return inner.nestedContainer(keyedBy: keyType, forKey: key)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    var inner = self.inner
    defer { commit(storage.value) }
    return inner.nestedUnkeyedContainer(forKey: key)
  }
  mutating func superEncoder() -> any Encoder { LuaEncoding(path: path, storage: storage) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { LuaEncoding(path: path, storage: storage) }
}

struct LuaUnkeyedEncoding: UnkeyedEncodingContainer {
  let path: LuaPath
  let storage: LuaEncodingSlot
  var commit: ((LuaValue) -> Void)?
  var codingPath: [any CodingKey] { [] }

  init(path: LuaPath, storage: LuaEncodingSlot, commit: ((LuaValue) -> Void)? = nil) {
    self.path = path
    self.storage = storage
    self.commit = commit
  }

  var count: Int {
    guard case .table(let table) = storage.value else { return 0 }
    return table.sequence.count
  }

  private func append(_ value: LuaValue) {
    guard case .table(var table) = storage.value else { return }
    table.sequence.append(value)
    storage.value = .table(table)
    commit?(storage.value)
  }

  private func replaceLast(_ value: LuaValue) {
    guard case .table(var table) = storage.value, !table.sequence.isEmpty else { return }
    table.sequence[table.sequence.count - 1] = value
    storage.value = .table(table)
    commit?(storage.value)
  }

  mutating func encodeNil() throws {
    throw LuaBridgeError(
      path: path.appending(index: count + 1), problem: "a list cannot hold nil (Lua lists end at the first nil)")
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    var single = LuaSingleEncoding(path: path.appending(index: count + 1), storage: LuaEncodingSlot())
    try single.encode(value)
    if single.storage.value == .nil {
      try encodeNil()
    }
    append(single.storage.value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    append(nested.value)
    let replace = replaceLast
    return KeyedEncodingContainer(
      LuaDeferredKeyedEncoding<NestedKey>(path: path.appending(index: count), storage: nested) { replace($0) })
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = LuaEncodingSlot()
    nested.value = .table(LuaTable())
    append(nested.value)
    let replace = replaceLast
    return LuaUnkeyedEncoding(path: path.appending(index: count), storage: nested) { replace($0) }
  }

  mutating func superEncoder() -> any Encoder {
    LuaEncoding(path: path.appending(index: count + 1), storage: LuaEncodingSlot())
  }
}
