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
  private var viewTypes: [String: LuaObjectType<ViewHandle>] = [:]
  private var viewTags: Set<UInt32> = []
  private var viewRefs: [ObjectIdentifier: (view: WeakView, reference: LuaRef)] = [:]
  private var pruneThreshold = 64
  /// Views built by scripts that are not attached to a tree yet (userdata do not own views).
  private var unattached: [View] = []
  /// The method names of the last store proxy made, as installed.
  var installedStoreMethods: [String] = []

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
    for kind in ScreenViewTypes.kinds + ScreenViewTypes.hostKinds {
      let type = ScreenViewTypes.objectType(for: kind)
      viewTypes[kind] = type
      viewTags.insert(runtime.registration(of: type).tag)
    }
  }

  /// Runs the script at `path`, which must return a function (the role scripts' shape).
  ///
  /// - Parameter shape: the expected signature, for the error (`"function(view, model)"`).
  func loadFunction(_ path: String, shape: String) throws -> LuaRef {
    let results = try runtime.callReturningReferences(try runtime.loadFile(path), with: [], context: "loading \(path)")
    guard let function = results.first, function.typeName == "function" else {
      throw ScriptError(
        kind: .runtime, message: "the script must return \(shape) (got \(results.first?.typeName ?? "nothing"))", chunk: path)
    }
    return function
  }

  /// Sets property `name` of `view` from the value a reader points at (builders use it).
  func set(_ name: String, of view: View, from reader: LuaValueReader) throws {
    guard let type = viewTypes[view.kind] ?? viewTypes["view"] else { return }
    try type.set(name, of: ViewHandle(view), from: reader)
  }

  /// The userdata of `view` (one per view, so identity comparisons work in Lua).
  ///
  /// The userdata refers to the view weakly: Swift owns views.
  func reference(for view: View) -> LuaRef {
    let key = ObjectIdentifier(view)
    if let existing = viewRefs[key], existing.view.view === view { return existing.reference }
    if viewRefs.count > pruneThreshold {
      // Drop entries of released views; the threshold doubles so pruning stays amortized O(1).
      viewRefs = viewRefs.filter { $0.value.view.view != nil }
      pruneThreshold = max(64, viewRefs.count * 2)
    }
    let type = viewTypes[view.kind] ?? viewTypes["view"]!
    let made = runtime.makeObject(ViewHandle(view), as: type)
    viewRefs[key] = (WeakView(view: view), made)
    return made
  }

  /// Keeps a view a script just built alive until ``attached()`` (it belongs to no tree yet).
  func keepUntilAttached(_ view: View) {
    unattached.append(view)
  }

  /// The views of `tree` are attached now (owned by their parents); stop keeping them. Views
  /// built elsewhere (e.g. siblings still waiting for their parent) stay kept.
  func attached(_ tree: View) {
    let owned = Set(tree.allViews.map(ObjectIdentifier.init))
    unattached.removeAll { owned.contains(ObjectIdentifier($0)) }
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
    return Unmanaged<ViewHandle>.fromOpaque(pointer).takeUnretainedValue().view
  }

  /// The views under `root` by id (the insides of list rows and units excluded); duplicates are errors.
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
      if !(view is ListView || view is LuaUnitHost) { pending.append(contentsOf: view.subviews.reversed()) }
    }
    return found
  }

  /// A `view.<id>` table for `views`; an unknown id is an error listing the ids.
  func viewsTable(_ views: [String: View], owner: String) throws -> LuaRef {
    let map = try runtime.makeValue(.table(LuaTable()))
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
    try runtime.callReturningReferences(
      readonlyFunction, with: [runtime.makeValue(value, path: "state"), runtime.makeValue(.string(message))], context: nil)[0]
  }

  /// A deep read-only view of a referenced table.
  func readonly(_ reference: LuaRef, _ message: String) throws -> LuaRef {
    try runtime.callReturningReferences(readonlyFunction, with: [reference, runtime.makeValue(.string(message))], context: nil)[0]
  }

  /// Calls `function(views, readonly(data))` with the data pushed by `push` — one protected call.
  func callWithReadOnly(
    _ function: LuaRef, views: LuaRef, message: String, context: String,
    push: (LuaStack) throws(LuaBridgeError) -> Void
  ) throws {
    try runtime.call(configureWrapper, context: context, pushArguments: { stack throws(LuaBridgeError) in
      stack.push(reference: function.reference)
      stack.push(reference: views.reference)
      try push(stack)
      stack.push(message)
      return 4
    }) { _, _ throws(LuaBridgeError) in () }
  }
}

/// One `on(sender, event, fn)` registration made by a script.
///
/// NB: registrations live on views (rows, units) that Lua keeps alive, so `callback` does not
/// retain the runtime (see ``LuaRef/unretainingRuntime()``).
struct LuaEventRegistration {
  let sender: View
  let senderName: String
  let event: SenderEvent
  let eventName: String
  let callback: LuaRef
}

extension LuaViewBridge {
  /// The forwarding tree of script registrations: state-aware mappings that call `invoke` with
  /// the sender's state at event time (screens pass ``LuaValue``; roles their Swift model).
  static func forwardingTree<State, Action>(
    _ registrations: [LuaEventRegistration], invoke: @escaping @MainActor (LuaEventRegistration, State) -> [Action]
  ) -> any EventForwardable {
    SenderGroup {
      for registration in registrations {
        EventForwarder(registration.sender) { _, ctx in
          switch registration.event {
          case .control(let control):
            ctx.control(control.value) { (state: State) in invoke(registration, state) }
          case .gesture(let gesture):
            ctx.gesture(gesture) { (state: State) in invoke(registration, state) }
          }
        }
      }
    }
  }

  /// The `on(sender, event, fn)` function scripts declare their mappings with.
  func makeOnFunction(_ register: @escaping (LuaEventRegistration) -> Void) -> LuaRef {
    runtime.makeFunction("on") { [unowned self] call in
      try MainActor.assumeIsolated {
        guard let sender = self.view(for: call.reference(1)) else {
          throw ScriptError(kind: .typeMismatch, message: "bad argument #1 to 'on' (a view expected, got \(call.typeName(1)))")
        }
        let (event, eventName) = try ScreenEvents.parse(try call.value(2), sender: sender)
        guard call.isFunction(3) else {
          throw ScriptError(kind: .typeMismatch, message: "bad argument #3 to 'on' (function expected, got \(call.typeName(3)))")
        }
        register(
          LuaEventRegistration(
            sender: sender, senderName: sender.id ?? sender.kind, event: event, eventName: eventName,
            callback: call.reference(3).unretainingRuntime()))
        return 0
      }
    }
  }

  /// The `store` scripts get in `handle`: `store.state` (read-only), `store:update(fn)`,
  /// `store:set(t)`, `store:dispatch(action)`. Commits go through `commit`, which validates.
  func makeStoreProxy(
    state: @escaping @MainActor () -> LuaValue, commit: @escaping @MainActor (LuaValue) throws -> Void,
    dispatch: @escaping @MainActor (LuaValue) throws -> Void, extra: [String: LuaFunctionBody] = [:]
  ) throws -> LuaRef {
    let methods = try runtime.makeValue(.table(LuaTable()))
    for (name, body) in extra {
      methods.setField(name, to: runtime.makeFunction(name, body))
    }
    methods.setField("update", to: runtime.makeFunction("update") { [unowned self] call in
      try MainActor.assumeIsolated {
        let index = call.isFunction(1) ? 1 : 2
        guard call.isFunction(index) else {
          throw ScriptError(
            kind: .typeMismatch, message: "store:update takes a function (state) → nil or new state, got \(call.typeName(index))")
        }
        let copy = try self.runtime.makeValue(state(), path: "state")
        let results = try self.runtime.callReturningReferences(call.reference(index), with: [copy], context: "store:update")
        let updated = try (results.first.map { $0.typeName == "table" ? $0 : copy } ?? copy).value(path: "state")
        try commit(updated)
        return 0
      }
    })
    methods.setField("set", to: runtime.makeFunction("set") { call in
      try MainActor.assumeIsolated {
        let index = call.count >= 2 ? 2 : 1
        let value = try call.value(index)
        guard value.tableValue != nil else {
          throw ScriptError(
            kind: .typeMismatch, message: "bad argument #\(index) to 'set' (a state table expected, got \(describe(value)))")
        }
        try commit(value)
        return 0
      }
    })
    methods.setField("dispatch", to: runtime.makeFunction("dispatch") { call in
      try MainActor.assumeIsolated {
        let value = try call.value(call.count >= 2 ? 2 : 1)
        for action in try ScreenEvents.actions(from: value, context: nil) { try dispatch(action) }
        return 0
      }
    })
    let getState = runtime.makeFunction("state") { [unowned self] call in
      try MainActor.assumeIsolated {
        call.push(try self.readonly(state(), "store.state is read-only; change it with store:update(fn) or store:set(t)"))
      }
      return 1
    }
    let maker = try runtime.load(
      """
      local methods, getState = ...
      return setmetatable({}, {
        __index = function(_, key)
          if key == "state" then return getState() end
          return methods[key]
        end,
        __newindex = function() error("the store is read-only; change state with store:update(fn) or store:set(t)", 2) end,
        __metatable = false,
      })
      """, chunkName: "=store", environment: runtime.globalsReference())
    installedStoreMethods = (try? methods.value(path: "store"))?.tableValue?.fields.keys.sorted() ?? []
    return try runtime.callReturningReferences(maker, with: [methods, getState], context: nil)[0]
  }
}
