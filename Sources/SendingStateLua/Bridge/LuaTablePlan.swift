import CLua
import CLuaShim
import Foundation
import Synchronization

/// A model whose Lua table form is described by a typed plan: the fast path for hot models.
///
/// Conform the models that cross the boundary on every configure or event:
///
/// ```swift
/// struct Counter: LuaTableRepresentable {
///   var title: String
///   var count: Int
///   static let luaPlan = LuaTablePlan<Counter> {
///     LuaField("title", \.title)
///     LuaField("count", \.count)
///   }
/// }
/// ```
public protocol LuaTableRepresentable {
  /// How the model maps to a table, field by field.
  static var luaPlan: LuaTablePlan<Self> { get }
}

/// One field of a plan: a key and typed push/read closures over a key path.
///
/// ```swift
/// LuaField("price", \Product.price)
/// LuaField(nested: "seller", \Product.seller)   // a LuaTableRepresentable value
/// ```
public struct LuaField<Root> {
  @usableFromInline let key: String
  @usableFromInline let push: (Root, LuaStackAccess) -> Void
  /// Reads the value at the index into the root; the path is the parent's (the key is appended
  /// only when an error is reported).
  @usableFromInline let read: (inout Root, LuaStackAccess, Int32, LuaPath) throws(LuaBridgeError) -> Void
  /// Whether the field is read and written through its stored property's offset (else through
  /// its key path, or its nested plan).
  @usableFromInline let direct: Bool

  /// A scalar field (numbers, strings, booleans, optionals and lists of them).
  ///
  /// A key path to a stored property of a struct (`\.count`, `\.seller.name`) is turned into
  /// the property's offset once, here, and the field is read and written through it: projecting
  /// a key path at run time costs ~500 instructions, more than pushing the value. Other key paths
  /// (computed properties, classes) are projected.
  @inlinable
  public init<Value: LuaScalar>(_ key: String, _ keyPath: WritableKeyPath<Root, Value>) {
    self.key = key
    let offset = MemoryLayout<Root>.offset(of: keyPath)
    self.direct = offset != nil
    if let offset {
      // The documented use of `offset(of:)`: the stored property lies at `offset` in the
      // struct's memory, bound to its own type.
      self.push = { root, stack in
        withUnsafePointer(to: root) { pointer in
          Value.push(UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee, on: stack)
        }
      }
      self.read = { (root: inout Root, stack, index, parent) throws(LuaBridgeError) in
        let value = try Value.read(from: stack, at: index, path: parent.appending(field: key))
        withUnsafeMutablePointer(to: &root) { pointer in
          UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value
        }
      }
    } else {
      self.push = { root, stack in Value.push(root[keyPath: keyPath], on: stack) }
      self.read = { (root: inout Root, stack, index, parent) throws(LuaBridgeError) in
        root[keyPath: keyPath] = try Value.read(from: stack, at: index, path: parent.appending(field: key))
      }
    }
  }

  /// A nested model field.
  public init<Value: LuaTableRepresentable>(nested key: String, _ keyPath: WritableKeyPath<Root, Value>) {
    self.key = key
    self.direct = false
    self.push = { root, stack in Value.luaPlan.push(root[keyPath: keyPath], on: stack.stack) }
    self.read = { (root: inout Root, stack, index, parent) throws(LuaBridgeError) in
      try Value.luaPlan.read(into: &root[keyPath: keyPath], from: stack.stack, at: index, path: parent.appending(field: key))
    }
  }

  /// A list-of-models field.
  public init<Value: LuaTableRepresentable>(list key: String, _ keyPath: WritableKeyPath<Root, [Value]>, element: @escaping @Sendable () -> Value) {
    self.key = key
    self.direct = false
    self.push = { root, stack in
      let L = stack.stack.L
      let list = root[keyPath: keyPath]
      lua_createtable(L, Int32(clamping: list.count), 0)
      for (offset, item) in list.enumerated() {
        Value.luaPlan.push(item, on: stack.stack)
        lua_rawseti(L, -2, lua_Integer(offset + 1))
      }
    }
    self.read = { (root: inout Root, stack, index, parent) throws(LuaBridgeError) in
      let L = stack.stack.L
      let path = parent.appending(field: key)
      guard stack.stack.type(at: index) == LUA_TTABLE else {
        throw stack.mismatch(at: index, expected: "a list", path: { path })
      }
      let table = lua_absindex(L, index)
      var items: [Value] = []
      for position in 0..<Int(lua_rawlen(L, table)) {
        lua_rawgeti(L, table, lua_Integer(position + 1))
        defer { sslua_pop(L, 1) }
        var item = element()
        try Value.luaPlan.read(into: &item, from: stack.stack, at: -1, path: path.appending(index: position + 1))
        items.append(item)
      }
      root[keyPath: keyPath] = items
    }
  }
}

/// Collects the fields of a plan.
@resultBuilder
public enum LuaFieldBuilder<Root> {
  /// One field (gives each field its root type from the plan).
  public static func buildExpression(_ field: LuaField<Root>) -> LuaField<Root> { field }

  /// The fields, in order.
  public static func buildBlock(_ fields: LuaField<Root>...) -> [LuaField<Root>] { fields }
}

/// A per-type push/read plan: keys interned once per runtime, typed closures per field.
///
/// Pushing builds a fresh table with raw sets; reading fetches each key raw and assigns through
/// the key path, so a failing field leaves the model unchanged (reads go into a copy first).
public final class LuaTablePlan<Root>: @unchecked Sendable {
  let fields: [LuaField<Root>]
  /// A small number unique to this plan, indexing each runtime's interned key lists.
  let id: Int

  /// Creates a plan from its fields.
  public init(@LuaFieldBuilder<Root> _ fields: () -> [LuaField<Root>]) {
    self.fields = fields()
    self.id = nextPlanID.add(1, ordering: .relaxed).newValue
  }

  /// The keys, in order.
  public var keys: [String] { fields.map(\.key) }

  /// Pushes `value` as a new table.
  ///
  /// NB: plain index loops: this code runs unspecialized, where `enumerated()` and friends
  /// instantiate generic metadata on every step.
  func push(_ value: Root, on stack: LuaStack) {
    let L = stack.L
    let count = fields.count
    lua_createtable(L, 0, Int32(count))
    let table = lua_gettop(L)
    let keys = pushKeys(on: stack)
    let access = LuaStackAccess(stack: stack)
    fields.withUnsafeBufferPointer { fields in
      var index = 0
      while index < count {
        lua_rawgeti(L, keys, lua_Integer(index + 1))
        fields[index].push(value, access)
        lua_rawset(L, table)
        index += 1
      }
    }
    sslua_pop(L, 1)  // keys
  }

  /// Reads the table at `index` into `value`; all or nothing.
  func read(into value: inout Root, from stack: LuaStack, at index: Int32, path: LuaPath) throws(LuaBridgeError) {
    let L = stack.L
    guard stack.type(at: index) == LUA_TTABLE else {
      throw LuaStackAccess(stack: stack).mismatch(at: index, expected: "table", path: { path })
    }
    let table = lua_absindex(L, index)
    let keys = pushKeys(on: stack)
    defer { sslua_pop(L, 1) }
    let access = LuaStackAccess(stack: stack)
    var copy = value
    let count = fields.count
    try fields.withUnsafeBufferPointer { (fields) throws(LuaBridgeError) in
      var index = 0
      while index < count {
        lua_rawgeti(L, keys, lua_Integer(index + 1))
        lua_rawget(L, table)
        defer { sslua_pop(L, 1) }  // the value, at the end of each turn (a failing read too)
        try fields[index].read(&copy, access, -1, path)
        index += 1
      }
    }
    value = copy
  }

  /// Pushes a new list of the keys.
  private func pushKeyList(on stack: LuaStack) {
    lua_createtable(stack.L, Int32(fields.count), 0)
    for (offset, field) in fields.enumerated() {
      stack.push(field.key)
      lua_rawseti(stack.L, -2, lua_Integer(offset + 1))
    }
  }

  /// Pushes this plan's interned key list (created once per runtime).
  private func pushKeys(on stack: LuaStack) -> Int32 {
    guard let host = sslua_host_context(stack.L) else {
      pushKeyList(on: stack)
      return lua_gettop(stack.L)
    }
    let runtime = Unmanaged<LuaRuntime>.fromOpaque(host).takeUnretainedValue()
    if id < runtime.internedKeys.count, runtime.internedKeys[id] != 0 {
      stack.push(reference: runtime.internedKeys[id])
    } else {
      pushKeyList(on: stack)
      lua_pushvalue(stack.L, -1)
      if id >= runtime.internedKeys.count {
        runtime.internedKeys += Array(repeating: 0, count: id + 1 - runtime.internedKeys.count)
      }
      runtime.internedKeys[id] = stack.ref()
    }
    return lua_gettop(stack.L)
  }
}

/// Plan ids are never reused, so a runtime's interned keys can never belong to another plan.
private let nextPlanID = Atomic<Int>(0)

extension LuaRuntime {
  /// A reference to a new table holding `value`, built by its plan.
  public func makeTable<Model: LuaTableRepresentable>(_ value: Model) -> LuaRef {
    Model.luaPlan.push(value, on: stack)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// Reads the referenced table into `value` through its plan (all or nothing).
  public func read<Model: LuaTableRepresentable>(_ reference: LuaRef, into value: inout Model, path: String = "value")
    throws(LuaBridgeError)
  {
    stack.push(reference: reference.reference)
    defer { stack.pop() }
    try Model.luaPlan.read(into: &value, from: stack, at: -1, path: LuaPath(root: path))
  }

  /// Calls `function` with `model` pushed through its plan (the fast path configurers use).
  ///
  /// - Returns: the function's first result as data (`.nil` if none).
  @discardableResult
  public func call<Model: LuaTableRepresentable>(_ function: LuaRef, with model: Model, context: String? = nil)
    throws(ScriptError) -> LuaValue
  {
    try call(function, context: context, pushArguments: { stack in
      Model.luaPlan.push(model, on: stack)
      return 1
    }) { stack, count throws(LuaBridgeError) in
      count == 0 ? .nil : try stack.value(at: stack.top - count + 1, path: LuaPath(root: "result"))
    }
  }
}
