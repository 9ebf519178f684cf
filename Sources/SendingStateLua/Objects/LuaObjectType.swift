import CLua
import CLuaShim

/// The type-erased dispatch side of a ``LuaObjectType``: what the runtime registers (a tag and
/// a metatable per runtime) and what the C field accessors call.
package class LuaObjectTypeBase {
  /// The type name scripts see in messages (`"Label"`).
  package let name: String
  /// Property names in declaration order.
  package internal(set) var propertyNames: [String] = []

  init(name: String) {
    self.name = name
  }

  func dispatch(_ stack: LuaStack, object: UnsafeMutableRawPointer, field: Int32, isSet: Bool) throws -> Int32 {
    0
  }
}

/// Exposes a Swift class to Lua as userdata with typed properties.
///
/// The userdata retains the object; `__gc` releases it exactly once (so does closing the
/// runtime). Declare every property before the type is first registered or used — from then on
/// it is read-only, which is what makes sharing it (for example as a `static let`) safe. One type
/// can serve several runtimes. Property access is dispatched by an integer id from a per-type key table and a type
/// tag stored in the userdata block — no registry lookup by name per call. An unknown property,
/// a read-only one, or a value of the wrong type is an error naming the type and the property:
///
/// ```swift
/// let labelType = LuaObjectType<Label>("Label")
///   .property("text", \.text)
///   .property("id", get: { label, out in out.push(label.id.map(LuaValue.string) ?? .nil) })
/// runtime.register(labelType)
/// let handle = runtime.makeObject(label, as: labelType)   // label.text = "x" in Lua sets it
/// ```
public final class LuaObjectType<Object: AnyObject>: @unchecked Sendable {
  /// Pushes one property value.
  public typealias Getter = (Object, LuaValueWriter) throws -> Void
  /// Reads a new property value and applies it.
  public typealias Setter = (Object, LuaValueReader) throws -> Void

  let dispatcher: LuaObjectDispatcher<Object>

  /// Creates an empty type called `name`.
  public init(_ name: String) {
    dispatcher = LuaObjectDispatcher(name: name)
  }

  /// The type name scripts see in messages (`"Label"`).
  public var name: String { dispatcher.name }

  /// Property names in declaration order.
  public var propertyNames: [String] { dispatcher.propertyNames }

  /// Adds a property with a getter and an optional setter (read-only without one).
  @discardableResult
  public func property(_ name: String, get: @escaping Getter, set: Setter? = nil) -> Self {
    dispatcher.add(name, get: get, set: set)
    return self
  }

  /// Adds a read-write string property backed by a key path.
  @discardableResult
  public func property(_ name: String, _ keyPath: ReferenceWritableKeyPath<Object, String>) -> Self {
    property(name, get: { object, out in out.push(object[keyPath: keyPath]) }) { object, value in
      object[keyPath: keyPath] = try value.string()
    }
  }

  /// Adds a read-write number property backed by a key path.
  @discardableResult
  public func property(_ name: String, _ keyPath: ReferenceWritableKeyPath<Object, Double>) -> Self {
    property(name, get: { object, out in out.push(object[keyPath: keyPath]) }) { object, value in
      object[keyPath: keyPath] = try value.number()
    }
  }

  /// Adds a read-write integer property backed by a key path.
  @discardableResult
  public func property(_ name: String, _ keyPath: ReferenceWritableKeyPath<Object, Int>) -> Self {
    property(name, get: { object, out in out.push(Int64(object[keyPath: keyPath])) }) { object, value in
      object[keyPath: keyPath] = try value.integer()
    }
  }

  /// Adds a read-write boolean property backed by a key path.
  @discardableResult
  public func property(_ name: String, _ keyPath: ReferenceWritableKeyPath<Object, Bool>) -> Self {
    property(name, get: { object, out in out.push(object[keyPath: keyPath]) }) { object, value in
      object[keyPath: keyPath] = try value.boolean()
    }
  }

  /// Whether the property `name` has a setter.
  public func isWritable(_ name: String) -> Bool {
    dispatcher.isWritable(name)
  }
}

/// The getters and setters of one ``LuaObjectType``, dispatched by field id.
final class LuaObjectDispatcher<Object: AnyObject>: LuaObjectTypeBase, @unchecked Sendable {
  private var getters: [LuaObjectType<Object>.Getter?] = []
  private var setters: [LuaObjectType<Object>.Setter?] = []

  override init(name: String) {
    super.init(name: name)
  }

  func add(_ name: String, get: @escaping LuaObjectType<Object>.Getter, set: LuaObjectType<Object>.Setter?) {
    if let existing = propertyNames.firstIndex(of: name) {
      getters[existing] = get
      setters[existing] = set
    } else {
      propertyNames.append(name)
      getters.append(get)
      setters.append(set)
    }
  }

  func isWritable(_ name: String) -> Bool {
    propertyNames.firstIndex(of: name).map { setters[$0] != nil } ?? false
  }

  /// Sets the property `name` of `object` from the value at the reader's index (builders use it).
  func set(_ name: String, of object: Object, from reader: LuaValueReader) throws {
    guard let index = propertyNames.firstIndex(of: name) else {
      throw ScriptError(
        kind: .runtime,
        message: "\(self.name) has no property '\(name)' (properties: \(propertyNames.sorted().joined(separator: ", ")))")
    }
    guard let setter = setters[index] else {
      throw ScriptError(kind: .runtime, message: "property '\(name)' of \(self.name) is read-only")
    }
    try setter(object, reader)
  }

  override func dispatch(_ stack: LuaStack, object: UnsafeMutableRawPointer, field: Int32, isSet: Bool) throws -> Int32 {
    guard field >= 0, Int(field) < getters.count else {
      let key = stack.string(at: 2) ?? "(\(stack.typeName(at: 2)))"
      throw ScriptError(
        kind: .runtime,
        message: "\(name) has no property '\(key)' (properties: \(propertyNames.sorted().joined(separator: ", ")))")
    }
    let target = Unmanaged<Object>.fromOpaque(object).takeUnretainedValue()
    let property = propertyNames[Int(field)]
    if isSet {
      guard let setter = setters[Int(field)] else {
        throw ScriptError(kind: .runtime, message: "property '\(property)' of \(name) is read-only")
      }
      try setter(target, LuaValueReader(stack: stack, index: 3, path: LuaPath(root: "\(name).\(property)")))
      return 0
    }
    guard let getter = getters[Int(field)] else {
      throw ScriptError(kind: .runtime, message: "property '\(property)' of \(name) is write-only")
    }
    try getter(target, LuaValueWriter(stack: stack))
    return 1
  }
}

/// The C-convention entry of property access: never raises, returns a status.
func dispatchObjectField(
  _ state: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ field: Int32, _ isSet: Int32,
  _ typeContext: UnsafeMutableRawPointer?
) -> Int32 {
  guard let state, let object, let typeContext else { return SSLUA_CALLBACK_ERROR }
  let stack = LuaStack(L: state)
  let type = Unmanaged<LuaObjectTypeBase>.fromOpaque(typeContext).takeUnretainedValue()
  do {
    return try type.dispatch(stack, object: object, field: field, isSet: isSet != 0)
  } catch {
    let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
    if let host = sslua_host_context(state) {
      Unmanaged<LuaRuntime>.fromOpaque(host).takeUnretainedValue().lastCallbackError = failure
    }
    stack.push(failure.message)
    return SSLUA_CALLBACK_ERROR
  }
}

/// Pushes one value from a property getter.
///
/// ```swift
/// .property("title", get: { button, out in out.push(button.title) })
/// ```
public struct LuaValueWriter {
  let stack: LuaStack
  /// Pushes a string.
  public func push(_ text: String) { stack.push(text) }
  /// Pushes an integer.
  public func push(_ value: Int64) { stack.push(value) }
  /// Pushes a float.
  public func push(_ value: Double) { stack.push(value) }
  /// Pushes a boolean.
  public func push(_ value: Bool) { stack.push(value) }
  /// Pushes any data value.
  ///
  /// - Throws: ``ScriptError`` when the value is past a limit (depth, size, non-finite).
  public func push(_ value: LuaValue) throws {
    do {
      try stack.push(value)
    } catch {
      throw error.scriptError
    }
  }
  /// Pushes a referenced Lua value.
  public func push(_ reference: LuaRef) { stack.push(reference: reference.reference) }

  /// The runtime the value goes to.
  var runtime: LuaRuntime? {
    sslua_host_context(stack.L).map { Unmanaged<LuaRuntime>.fromOpaque($0).takeUnretainedValue() }
  }
}

/// Reads the value a script assigns to a property, with errors naming the property.
///
/// ```swift
/// .property("title", get: { … }) { button, value in button.title = try value.string() }
/// ```
public struct LuaValueReader {
  let stack: LuaStack
  let index: Int32
  /// `Type.property`, for messages.
  public let path: LuaPath

  /// Lua's type name of the value.
  public var typeName: String { stack.typeName(at: index) }

  /// The value as a string (numbers are not converted).
  public func string() throws -> String {
    guard let text = stack.string(at: index) else { throw mismatch("string") }
    return text
  }

  /// The value as a number.
  public func number() throws -> Double {
    guard stack.type(at: index) == LUA_TNUMBER else { throw mismatch("number") }
    return lua_tonumberx(stack.L, index, nil)
  }

  /// The value as an integer that fits an `Int` (integral floats accepted).
  public func integer() throws -> Int {
    var ok: Int32 = 0
    let value = lua_tointegerx(stack.L, index, &ok)
    guard stack.type(at: index) == LUA_TNUMBER, ok != 0, let result = Int(exactly: value) else {
      throw mismatch("integer")
    }
    return result
  }

  /// The value as a boolean (strictly `true` or `false`).
  public func boolean() throws -> Bool {
    guard stack.type(at: index) == LUA_TBOOLEAN else { throw mismatch("boolean") }
    return lua_toboolean(stack.L, index) != 0
  }

  /// The value as data.
  public func value() throws -> LuaValue {
    do {
      return try stack.value(at: index, path: path)
    } catch {
      throw error.scriptError
    }
  }

  /// Whether the value is nil.
  public var isNil: Bool { stack.type(at: index) <= LUA_TNIL }

  /// The runtime the value lives in.
  var runtime: LuaRuntime? {
    sslua_host_context(stack.L).map { Unmanaged<LuaRuntime>.fromOpaque($0).takeUnretainedValue() }
  }

  /// An error for the value not being `expected`.
  public func mismatch(_ expected: String) -> ScriptError {
    ScriptError(kind: .typeMismatch, message: "\(path): expected \(expected), got \(typeName)")
  }
}

extension LuaRuntime {
  /// Registers `type` with this runtime (builds its metatable once). Registering twice does nothing.
  public func register<Object>(_ type: LuaObjectType<Object>) {
    _ = registration(of: type.dispatcher)
  }

  /// The tag and metatable of `type` in this runtime, registering it first if needed.
  func registration(of type: LuaObjectTypeBase) -> (tag: UInt32, metatable: Int32) {
    if let known = objectTypes[ObjectIdentifier(type)] { return (known.tag, known.metatable) }
    let tag = nextObjectTag
    nextObjectTag += 1
    let context = Unmanaged.passUnretained(type as LuaObjectTypeBase).toOpaque()
    lua_createtable(L, 0, 6)
    for (key, isSet) in [("__index", 0), ("__newindex", 1)] as [(String, Int32)] {
      stack.push(key)
      pushFieldTable(type)
      sslua_push_field_access(L, dispatchObjectField, context, tag, isSet)
      lua_rawset(L, -3)
    }
    setObjectMetatableFields()
    stack.push("__name")
    stack.push(type.name)
    lua_rawset(L, -3)
    let name = type.name
    stack.push("__tostring")
    pushFunction(named: "tostring") { call in
      call.push(name)
      return 1
    }
    lua_rawset(L, -3)
    let metatable = stack.ref()
    objectTypes[ObjectIdentifier(type)] = (type, tag, metatable)
    return (tag, metatable)
  }

  private func pushFieldTable(_ type: LuaObjectTypeBase) {
    lua_createtable(L, 0, Int32(type.propertyNames.count))
    for (id, name) in type.propertyNames.enumerated() {
      stack.push(name)
      stack.push(Int64(id))
      lua_rawset(L, -3)
    }
  }

  /// Pushes `object` as userdata of `type` (registering the type if needed).
  func push<Object>(_ object: Object, as type: LuaObjectType<Object>) {
    let (tag, metatable) = registration(of: type.dispatcher)
    _ = sslua_push_object(L, tag, Unmanaged.passRetained(object as AnyObject).toOpaque())
    stack.push(reference: metatable)
    lua_setmetatable(L, -2)
  }

  /// A reference to a new userdata for `object` (which it retains until collected).
  public func makeObject<Object>(_ object: Object, as type: LuaObjectType<Object>) -> LuaRef {
    push(object, as: type)
    return LuaRef(runtime: self, reference: stack.ref())
  }
}
