import CLua
import CLuaShim
import Foundation
import SendingState
import SendingStateHeadless

/// A whole screen written in Lua, hosted on the typed core.
///
/// The script returns a table with `state`, `layout`, `configure` and optionally `name`,
/// `schema`, `events` and `handle` (see the README for the contract). The screen's state is the
/// core's ``BindingStore`` of ``LuaValue``; its view tree is headless views configured through
/// the core's `configure`; its events go through the core's forwarders and handlers. The Lua
/// screen is a thin layer on the typed core, not a second engine.
///
/// ```swift
/// let screen = try LuaScreen(path: "examples/counter/counter.lua")
/// try screen.tap("plus")
/// screen.state["count"]            // 2
/// print(screen.root.renderTree().text)
/// ```
///
/// One-way rules, each enforced with an error that names the script's line:
/// - `configure` gets the state read-only ("state is read-only in configure");
/// - views are written only by `layout` and `configure`;
/// - event callbacks get read-only state and return actions;
/// - `handle` changes state only through `store:update(fn)` / `store:set(t)`; each new state is
///   validated (schema, data) before it is committed, and a store update inside `configure` is
///   an error;
/// - actions dispatched while an action is handled are queued and handled in order (FIFO).
///
/// Nothing is lost on failure: `configure` is a transaction (its view writes apply only if it
/// returns), and a commit reaches the store and its observers only after `configure` succeeded.
@MainActor
public final class LuaScreen {
  /// Options for opening a screen.
  public struct Options: Sendable {
    /// A start state that replaces the script's `state` (validated like any new state).
    public var state: LuaValue?
    /// More folders `require` may load modules from (the screen's folder is always one).
    public var scriptRoots: [String]
    /// Runtime limits.
    public var limits: LuaRuntime.Limits
    /// A server-driven payload that `ui.sections { … }` renders.
    public var data: ServerPayload?
    /// Swift renderers for unit types (used when the script's `units` has no entry).
    public var swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View]
    /// Where the screen's `print` writes, from loading on (`nil`: standard output). Tools that
    /// print a machine-readable report on standard output send script output elsewhere.
    public var output: (@Sendable (String) -> Void)?

    /// Creates options.
    public init(
      state: LuaValue? = nil, scriptRoots: [String] = [], limits: LuaRuntime.Limits = .init(), data: ServerPayload? = nil,
      swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View] = [:], output: (@Sendable (String) -> Void)? = nil
    ) {
      self.state = state
      self.scriptRoots = scriptRoots
      self.limits = limits
      self.data = data
      self.swiftUnits = swiftUnits
      self.output = output
    }
  }

  typealias EventRegistration = LuaEventRegistration

  /// What one interaction did.
  public struct Step: Sendable, Equatable {
    /// The actions dispatched, in order (queued ones included).
    public var actions: [LuaValue]
    /// The state before.
    public var before: LuaValue
    /// The state after.
    public var after: LuaValue
  }

  /// The script's path.
  public let path: String
  /// The runtime the screen's scripts run in.
  public let runtime: LuaRuntime
  /// The screen's `name`, if it has one.
  public private(set) var name: String?
  /// The root view `layout` returned.
  public private(set) var root: View = View()
  /// The binder the store applies to (the root's parent).
  public let host = LuaScreenHost()
  /// The core store holding the screen's state.
  public private(set) var store: BindingStore<LuaValue, LuaScreenHost>
  /// Every action dispatched so far, in order.
  public private(set) var actionLog: [LuaValue] = []
  /// Warnings (problems that did not stop the screen).
  public internal(set) var warnings: [String] = []
  /// Whether ``close()`` was called.
  public internal(set) var isClosed = false

  let bridge: LuaViewBridge
  var gate: ViewWriteGate { bridge.gate }
  var schema: ScreenSchema?
  var configureFunction: LuaRef!
  var handleFunction: LuaRef?
  var uiTable: LuaRef!
  var viewsTable: LuaRef!
  var storeProxy: LuaRef?
  var options = Options()
  var unitModules: [String: LuaRef] = [:]
  var unitHosts: [LuaUnitHost] = []
  var effects: [Int: Task<Void, Never>] = [:]
  var nextEffectIDValue = 0
  /// Errors raised while handling effect results (nobody was there to catch them).
  public private(set) var asyncErrors: [ScriptError] = []
  /// Called with every error raised while handling an effect result.
  public var onAsyncError: ((ScriptError) -> Void)?
  var viewsByID: [String: View] = [:]
  var bindings: [ObjectIdentifier: LuaListBinding] = [:]
  var preparedWrites: [ViewWriteGate.Write]?
  let queue = ActionQueue()
  /// The first script error of the current interaction (callbacks cannot throw through the core).
  var pendingError: ScriptError?
  lazy var handler = LuaScreenHandler(screen: self)

  /// The current state.
  public var state: LuaValue { store.state }

  /// Every view id of the screen, sorted.
  public var ids: [String] { viewsByID.keys.sorted() }

  /// Opens the screen at `path`: loads it, checks the contract, builds the layout, registers its
  /// events and configures it with its initial state.
  ///
  /// - Throws: ``ScreenUsageError`` if the file cannot be read; ``ScriptError`` (with file:line)
  ///   for any fault in the script.
  public init(path: String, options: Options = Options()) throws {
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw ScreenUsageError.missingFile(path)
    }
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    runtime = try LuaRuntime(
      configuration: .init(limits: options.limits, scriptRoots: [folder.isEmpty ? "." : folder] + options.scriptRoots))
    if let output = options.output { runtime.output = output }
    store = BindingStore(state: .nil, identifier: path)
    bridge = try LuaViewBridge(runtime: runtime)
    host.screen = self
    try installHelpers()
    let module = try loadModule()
    try build(from: module, options: options)
  }

  // MARK: - Loading

  func installHelpers() throws {
    runtime.preload("sendingstate", try runtime.makeValue(["version": .string(LuaScreen.apiVersion)]))
    uiTable = try runtime.makeValue(.table(LuaTable()))
    for kind in ScreenViewTypes.kinds {
      uiTable.setField(kind, to: runtime.makeFunction("ui.\(kind)") { [unowned self] call in
        try MainActor.assumeIsolated { try self.buildView(kind: kind, call: call) }
      })
    }
  }

  /// The version of the host API scripts see as `require("sendingstate").version`.
  nonisolated public static let apiVersion = "0.1.0"

  func loadModule() throws -> LuaRef {
    let chunk = try runtime.loadFile(path)
    let results = try runtime.callReturningReferences(chunk, with: [], context: "loading the screen")
    guard let module = results.first, module.typeName == "table" else {
      throw contractError("the screen script must return a table (got \(results.first?.typeName ?? "nothing"))")
    }
    return module
  }

  func contractError(_ message: String) -> ScriptError {
    ScriptError(kind: .runtime, message: message, chunk: path)
  }

  func requireFunction(_ module: LuaRef, _ field: String, required: Bool) throws -> LuaRef? {
    guard let value = module.field(field) else {
      if required { throw contractError("screen field '\(field)' must be a function (got nil)") }
      return nil
    }
    guard value.typeName == "function" else {
      throw contractError("screen field '\(field)' must be a function (got \(value.typeName))")
    }
    return value
  }

  func build(from module: LuaRef, options: Options) throws {
    self.options = options
    if let units = module.field("units") {
      guard units.typeName == "table", case .table(let table)? = try? units.value(path: "units") else {
        throw contractError("screen field 'units' must be a table of unit modules (got \(units.typeName))")
      }
      for name in table.fields.keys.sorted() {
        guard let unit = units.field(name), unit.typeName == "table", unit.field("layout")?.typeName == "function" else {
          throw contractError("units.\(name) must be a unit module: { layout = function(ui), configure = …, events = … }")
        }
        unitModules[name] = unit
      }
    }
    if let nameRef = module.field("name") {
      guard case .string(let text) = try nameRef.value(path: "name") else {
        throw contractError("screen field 'name' must be a string (got \(nameRef.typeName))")
      }
      name = text
    }
    guard let stateRef = module.field("state") else {
      throw contractError("screen field 'state' is required: the initial state table")
    }
    var initial: LuaValue
    do {
      initial = try stateRef.value(path: "state")
    } catch {
      throw error.scriptError.inContext("initial state")
    }
    guard case .table = initial else { throw contractError("screen field 'state' must be a table (got \(stateRef.typeName))") }
    if let schemaRef = module.field("schema") {
      do {
        schema = try ScreenSchema(try schemaRef.value(path: "schema"))
      } catch {
        throw ScriptError(kind: .typeMismatch, message: error.description, chunk: path)
      }
    }
    if let override = options.state { initial = override }
    do {
      try schema?.validate(initial)
    } catch {
      throw ScriptError(kind: .typeMismatch, message: error.description, chunk: path, context: "initial state")
    }
    let layout = try requireFunction(module, "layout", required: true)!
    configureFunction = try requireFunction(module, "configure", required: true)
    let events = try requireFunction(module, "events", required: false)
    handleFunction = try requireFunction(module, "handle", required: false)

    // Layout builds the tree once; writes apply directly.
    let built = try gate.direct { try runtime.callReturningReferences(layout, with: [uiTable], context: "layout") }
    try throwPending()
    guard let rootRef = built.first, let rootView = view(for: rootRef) else {
      throw contractError("layout must return a view built with ui.<kind>{…} (got \(built.first?.typeName ?? "nothing"))")
    }
    root = rootView
    viewsByID = try bridge.collectIDs(in: rootView, owner: "the screen", chunk: path)
    viewsTable = try bridge.viewsTable(viewsByID, owner: "the screen")
    for unit in unitHosts {
      for (id, view) in unit.viewsByID { viewsByID["\(unit.id ?? "unit").\(id)"] = view }
    }
    host.addSubview(rootView)
    bridge.attached(rootView)

    // Events declare sender → event → callback; views and state are off limits here.
    if let events {
      try gate.closed("views are read-only in events (declare mappings with on(); views change in configure)") {
        let on = makeOnFunction { [unowned self] registration in self.host.registrations.append(registration) }
        _ = try runtime.callReturningReferences(events, with: [viewsTable, on], context: "events")
      }
    }

    store = BindingStore(state: initial, identifier: name ?? path)
    pendingError = nil
    store.apply(to: host)
    try throwPending()
    host.ss.addActionHandler(to: handler)
  }

  func throwPending() throws {
    if let error = pendingError {
      pendingError = nil
      throw error
    }
  }

  // MARK: - Configure

  /// The host's configurer: applies prepared writes, or runs `configure` as a transaction.
  func runConfigure(_ state: LuaValue) {
    if let prepared = preparedWrites {
      preparedWrites = nil
      prepared.forEach { $0.apply() }
      return
    }
    do {
      try configureTransaction(state).forEach { $0.apply() }
    } catch {
      record(error)
    }
  }

  func configureTransaction(_ state: LuaValue) throws -> [ViewWriteGate.Write] {
    try gate.transaction {
      try bridge.callWithReadOnly(configureFunction, views: viewsTable, message: "state is read-only in configure", context: "configure") { stack throws(LuaBridgeError) in
        try stack.push(state, path: LuaPath(root: "state"))
      }
      for unit in unitHosts {
        guard let configure = unit.configure, let views = unit.views else { continue }
        let data = try readonly(unit.unit.data, "unit data is read-only in configure")
        let proxy = try readonly(state, "state is read-only in configure")
        _ = try runtime.callReturningReferences(
          configure, with: [views, data, proxy], context: "configure unit '\(unit.id ?? "")' (\(unit.unit.unitType))")
      }
    }
  }

  func readonly(_ value: LuaValue, _ message: String) throws -> LuaRef {
    try bridge.readonly(value, message)
  }

  func record(_ error: any Error) {
    guard pendingError == nil else { return }
    pendingError = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
  }

  // MARK: - Rows

  /// Dry-runs the row `configure` of every row a prepared `rows` write will show (writes are
  /// discarded), so a failing row stops the commit before anything changes.
  func preflightRows(_ writes: [ViewWriteGate.Write]) throws {
    for write in writes where write.property == "rows" {
      guard let binding = bindings[write.view], let configure = binding.rowConfigure,
        case .table(let table) = write.value
      else { continue }
      let list = binding.list
      guard let template = (list.visibleRows.first as? LuaListRow), let views = template.views else { continue }
      let count = table.sequence.count
      let first = max(0, min(list.firstVisibleIndex, count - list.visibleRowLimit))
      for index in first..<min(first + list.visibleRowLimit, count) {
        let label = "configure row \(index + 1) of '\(list.id ?? "list")'"
        _ = try gate.transaction {
          try bridge.callWithReadOnly(configure, views: views, message: "the item is read-only in configure", context: label) { stack throws(LuaBridgeError) in
            try stack.push(table.sequence[index], path: LuaPath(root: "item"))
          }
        }
      }
    }
  }

  func makeRow(for binding: LuaListBinding) -> ListRow {
    let row = LuaListRow()
    row.screen = self
    row.binding = binding
    let label = "row of '\(binding.list.id ?? "list")'"
    do {
      let (viewsByID, views) = try buildContent(
        into: row, builder: binding.rowBuilder, events: binding.rowEvents, label: label
      ) { [unowned row] registration in row.registrations.append(registration) }
      row.viewsByID = viewsByID
      row.views = views
    } catch {
      record(error)
    }
    row.ss.addActionHandler(to: handler)
    return row
  }

  /// A row's configurer: the list's `configure(row, item)` as a transaction.
  func configureRow(_ row: LuaListRow, item: LuaValue) {
    guard let binding = row.binding, let configure = binding.rowConfigure, let views = row.views else { return }
    let label = "configure row \((row.index ?? 0) + 1) of '\(binding.list.id ?? "list")'"
    do {
      try gate.transaction {
        try bridge.callWithReadOnly(configure, views: views, message: "the item is read-only in configure", context: label) { stack throws(LuaBridgeError) in
          try stack.push(item, path: LuaPath(root: "item"))
        }
      }.forEach { $0.apply() }
    } catch {
      record(error)
    }
  }

  // MARK: - Events

  func makeOnFunction(_ register: @escaping (EventRegistration) -> Void) -> LuaRef {
    bridge.makeOnFunction(register)
  }

  /// The forwarding tree of a set of registrations (state-aware: state read at event time).
  static func forwardingTree(for registrations: [EventRegistration], screen: LuaScreen?) -> any EventForwardable {
    LuaViewBridge.forwardingTree(registrations) { [weak screen] (registration: EventRegistration, state: LuaValue) -> [LuaValue] in
      screen?.invoke(registration, state: state) ?? []
    }
  }

  /// Calls an event callback with read-only state and the sender; returns its actions.
  func invoke(_ registration: EventRegistration, state: LuaValue) -> [LuaValue] {
    guard !isClosed else { return [] }
    let context = "event '\(registration.eventName)' on '\(registration.senderName)'"
    do {
      return try gate.closed("views are read-only in event callbacks (return actions; views change in configure)") {
        let proxy = try readonly(state, "state is read-only in event callbacks (return actions instead)")
        let results = try runtime.callReturningReferences(
          registration.callback, with: [proxy, reference(for: registration.sender)], context: context)
        let value: LuaValue
        do {
          value = try results.first?.value(path: "result") ?? .nil
        } catch let error as LuaBridgeError {
          throw error.scriptError.inContext(context)
        }
        return try ScreenEvents.actions(from: value, context: context)
      }
    } catch {
      record(error)
      return []
    }
  }

  // MARK: - Actions

  /// Queues `action`; handles the queue in order unless an action is being handled already.
  func dispatch(_ action: LuaValue) {
    actionLog.append(action)
    do {
      try queue.run(action, handle: handle)
    } catch {
      record(error)
    }
  }

  func handle(_ action: LuaValue) throws {
    guard let handleFunction, !isClosed else { return }
    let type = action["type"].stringValue ?? "?"
    try gate.closed("views are read-only in handle (change state with store:update; views follow in configure)") {
      _ = try runtime.callReturningReferences(
        handleFunction, with: [try runtime.makeValue(action, path: "action"), try storeReference()],
        context: "handle (action '\(type)')")
    }
  }

  func storeReference() throws -> LuaRef {
    if let storeProxy { return storeProxy }
    let proxy = try bridge.makeStoreProxy(
      state: { [unowned self] in self.state },
      commit: { [unowned self] new in try self.commit(new) },
      dispatch: { [unowned self] action in self.dispatch(action) },
      extra: effectMethods())
    storeProxy = proxy
    return proxy
  }

  /// Validates `new` and commits it through the core; all or nothing.
  func commit(_ new: LuaValue) throws {
    guard !gate.isConfiguring else {
      throw ScriptError(kind: .runtime, message: "store updates are not allowed in configure (configure only reads state)")
    }
    guard !isClosed else { return }
    do {
      try schema?.validate(new)
    } catch {
      throw error.scriptError
    }
    let writes = try configureTransaction(new)
    try preflightRows(writes)
    preparedWrites = writes
    host.ss.invalidateState { (_: LuaValue) in new }
    preparedWrites = nil
  }

  /// Dispatches the actions of a finished effect; errors go to ``asyncErrors``.
  func deliverEffectResult(_ actions: [LuaValue]) {
    pendingError = nil
    actions.forEach(dispatch)
    if let error = pendingError {
      pendingError = nil
      asyncErrors.append(error)
      onAsyncError?(error)
    }
  }

}

/// The screen's handler: every action goes to the FIFO queue.
@MainActor
final class LuaScreenHandler: @MainActor ActionHandlingProvider {
  unowned let screen: LuaScreen

  @MainActor
  init(screen: LuaScreen) {
    self.screen = screen
  }

  @MainActor
  func handle(action: LuaValue) {
    screen.dispatch(action)
  }
}
