import CLua
import CLuaShim
import SendingState
import SendingStateHeadless

/// What screens and script roles share: headless views as typed userdata, the write gate, and
/// read-only views of data.
///
/// One bridge per runtime (it is the runtime's owner, so view property accessors find the gate).
///
/// ```swift
/// let bridge = try LuaViewBridge(runtime: runtime)
/// let views = try bridge.viewsTable(for: card, owner: "ProductCard")   // view.<id> in Lua
/// ```
@MainActor
public final class LuaViewBridge {
  /// The runtime the bridge serves.
  public let runtime: LuaRuntime
  let gate = ViewWriteGate()
  private var readonlyFunction: LuaRef
  private var viewsFunction: LuaRef
  private var configureWrapper: LuaRef
  private var viewTypes: [String: LuaObjectType<View>] = [:]
  private var viewTags: Set<UInt32> = []
  private var viewRefs: [ObjectIdentifier: LuaRef] = [:]

  /// Creates the bridge for `runtime` and becomes its owner.
  public init(runtime: LuaRuntime) throws {
    self.runtime = runtime
    let prelude = try runtime.load(ScreenPrelude.source, chunkName: "=views", environment: runtime.globalsReference())
    guard let helpers = try runtime.callReturningReferences(prelude, with: [], context: "view helpers").first,
      let readonly = helpers.field("readonly"), let views = helpers.field("views"), let wrapper = helpers.field("call")
    else { throw ScriptError(kind: .runtime, message: "view helpers failed to load") }
    readonlyFunction = readonly
    viewsFunction = views
    configureWrapper = wrapper
    runtime.owner = self
    for kind in ScreenViewTypes.kinds {
      let type = ScreenViewTypes.objectType(for: kind)
      viewTypes[kind] = type
      viewTags.insert(runtime.registration(of: type).tag)
    }
  }

  /// The object type of a view kind.
  func objectType(_ kind: String) -> LuaObjectType<View>? { viewTypes[kind] }

  /// The userdata of `view` (one per view, so identity comparisons work in Lua).
  func reference(for view: View) -> LuaRef {
    if let existing = viewRefs[ObjectIdentifier(view)] { return existing }
    let type = viewTypes[view.kind] ?? viewTypes["view"]!
    let made = runtime.makeObject(view, as: type)
    viewRefs[ObjectIdentifier(view)] = made
    return made
  }

  /// The view a userdata reference holds, if it is one of ours.
  func view(for reference: LuaRef) -> View? {
    let stack = runtime.stack
    stack.push(reference: reference.reference)
    defer { stack.pop() }
    return view(atStackIndex: -1)
  }

  /// The view of the userdata at a stack index, if it is one of ours.
  func view(atStackIndex index: Int32) -> View? {
    guard let object = sslua_to_object(runtime.L, index, 0), viewTags.contains(object.pointee.tag),
      let pointer = object.pointee.object
    else { return nil }
    return Unmanaged<View>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The views under `root` by id (rows' insides excluded); duplicates are errors.
  func collectIDs(in root: View, owner: String, chunk: String? = nil) throws -> [String: View] {
    var found: [String: View] = [:]
    var pending = [root]
    while let view = pending.popLast() {
      if let id = view.id {
        if found[id] != nil {
          throw ScriptError(kind: .runtime, message: "duplicate view id '\(id)' in \(owner) (ids must be unique)", chunk: chunk)
        }
        found[id] = view
      }
      if !(view is ListView) { pending.append(contentsOf: view.subviews.reversed()) }
    }
    return found
  }

  /// A `view.<id>` table for `views`; an unknown id is an error listing the ids.
  func viewsTable(_ views: [String: View], owner: String) throws -> LuaRef {
    let map = runtime.makeValue(.table(LuaTable()))
    for (id, view) in views {
      map.setField(id, to: reference(for: view))
    }
    return try runtime.callReturningReferences(viewsFunction, with: [map, runtime.makeValue(.string(owner))], context: nil)[0]
  }

  /// A `view.<id>` table for every view with an id under `root` (the root itself included).
  public func viewsTable(for root: View, owner: String) throws -> LuaRef {
    try viewsTable(try collectIDs(in: root, owner: owner), owner: owner)
  }

  /// A deep read-only view of `value`; writes raise `message`.
  func readonly(_ value: LuaValue, _ message: String) throws -> LuaRef {
    try runtime.callReturningReferences(readonlyFunction, with: [runtime.makeValue(value), runtime.makeValue(.string(message))], context: nil)[0]
  }

  /// Calls `function(views, readonly(data))` with the data pushed by `push` — one protected call.
  func callWithReadOnly(
    _ function: LuaRef, views: LuaRef, message: String, context: String, push: (LuaStack) -> Void
  ) throws {
    try runtime.call(configureWrapper, context: context, pushArguments: { stack in
      stack.push(reference: function.reference)
      stack.push(reference: views.reference)
      push(stack)
      stack.push(message)
      return 4
    }) { _, _ throws(LuaBridgeError) in () }
  }
}
