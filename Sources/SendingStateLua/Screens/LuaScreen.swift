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

    /// Creates options.
    public init(
      state: LuaValue? = nil, scriptRoots: [String] = [], limits: LuaRuntime.Limits = .init(), data: ServerPayload? = nil,
      swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View] = [:]
    ) {
      self.state = state
      self.scriptRoots = scriptRoots
      self.limits = limits
      self.data = data
      self.swiftUnits = swiftUnits
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
  public private(set) var warnings: [String] = []
  /// Whether ``close()`` was called.
  public private(set) var isClosed = false

  let bridge: LuaViewBridge
  var gate: ViewWriteGate { bridge.gate }
  var schema: ScreenSchema?
  private var configureFunction: LuaRef!
  private var handleFunction: LuaRef?
  private var uiTable: LuaRef!
  private var viewsTable: LuaRef!
  private var storeProxy: LuaRef?
  private var options = Options()
  private var unitModules: [String: LuaRef] = [:]
  private var unitHosts: [LuaUnitHost] = []
  var effects: [Int: Task<Void, Never>] = [:]
  var nextEffectIDValue = 0
  /// Errors raised while handling effect results (nobody was there to catch them).
  public private(set) var asyncErrors: [ScriptError] = []
  /// Called with every error raised while handling an effect result.
  public var onAsyncError: ((ScriptError) -> Void)?
  private(set) var viewsByID: [String: View] = [:]
  private var bindings: [ObjectIdentifier: LuaListBinding] = [:]
  private var preparedWrites: [ViewWriteGate.Write]?
  private let queue = ActionQueue()
  /// The first script error of the current interaction (callbacks cannot throw through the core).
  private var pendingError: ScriptError?
  private lazy var handler = LuaScreenHandler(screen: self)

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
    store = BindingStore(state: .nil, identifier: path)
    bridge = try LuaViewBridge(runtime: runtime)
    host.screen = self
    try installHelpers()
    let module = try loadModule()
    try build(from: module, options: options)
  }

  // MARK: - Loading

  private func installHelpers() throws {
    runtime.preload("sendingstate", runtime.makeValue(["version": .string(LuaScreen.apiVersion)]))
    uiTable = runtime.makeValue(.table(LuaTable()))
    for kind in ScreenViewTypes.kinds {
      uiTable.setField(kind, to: runtime.makeFunction("ui.\(kind)") { [unowned self] call in
        try MainActor.assumeIsolated { try self.buildView(kind: kind, call: call) }
      })
    }
  }

  /// The version of the host API scripts see as `require("sendingstate").version`.
  nonisolated public static let apiVersion = "0.1.0"

  private func loadModule() throws -> LuaRef {
    let chunk = try runtime.loadFile(path)
    let results = try runtime.callReturningReferences(chunk, with: [], context: "loading the screen")
    guard let module = results.first, module.typeName == "table" else {
      throw contractError("the screen script must return a table (got \(results.first?.typeName ?? "nothing"))")
    }
    return module
  }

  private func contractError(_ message: String) -> ScriptError {
    ScriptError(kind: .runtime, message: message, chunk: path)
  }

  private func requireFunction(_ module: LuaRef, _ field: String, required: Bool) throws -> LuaRef? {
    guard let value = module.field(field) else {
      if required { throw contractError("screen field '\(field)' must be a function (got nil)") }
      return nil
    }
    guard value.typeName == "function" else {
      throw contractError("screen field '\(field)' must be a function (got \(value.typeName))")
    }
    return value
  }

  private func build(from module: LuaRef, options: Options) throws {
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

  private func throwPending() throws {
    if let error = pendingError {
      pendingError = nil
      throw error
    }
  }

  // MARK: - Views

  private func buildView(kind: String, call: LuaCall) throws -> Int {
    guard call.typeName(1) == "table" else {
      throw ScriptError(kind: .typeMismatch, message: "ui.\(kind) takes a table ({ id = …, properties…, children… }), got \(call.typeName(1))")
    }
    guard let view = kind == "sections" ? SectionsView() : ScreenViewTypes.make(kind) else {
      throw ScriptError(kind: .runtime, message: "unknown view kind '\(kind)'")
    }
    let L = call.stack.L
    var children: [Int64: View] = [:]
    var listFunctions: [String: LuaRef] = [:]
    var deferred: [(String, LuaRef)] = []
    lua_pushnil(L)
    while lua_next(L, 1) != 0 {
      defer { sslua_pop(L, 1) }
      let valueIndex = lua_gettop(L)
      if lua_type(L, -2) == LUA_TNUMBER {
        let position = lua_tointegerx(L, -2, nil)
        guard let child = bridge.view(atStackIndex: valueIndex) else {
          throw ScriptError(
            kind: .typeMismatch, message: "ui.\(kind): child #\(position) must be a view built with ui.<kind>{…}, got \(call.typeName(Int(valueIndex)))")
        }
        children[position] = child
        continue
      }
      guard let key = call.stack.string(at: -2) else {
        throw ScriptError(kind: .typeMismatch, message: "ui.\(kind): keys are property names or child positions")
      }
      if key == "id" {
        guard let id = call.stack.string(at: valueIndex) else {
          throw ScriptError(kind: .typeMismatch, message: "ui.\(kind).id: expected string, got \(call.typeName(Int(valueIndex)))")
        }
        view.id = id
      } else if kind == "list", ["row", "configure", "events"].contains(key) {
        guard lua_type(L, valueIndex) == LUA_TFUNCTION else {
          throw ScriptError(kind: .typeMismatch, message: "ui.list.\(key): expected function, got \(call.typeName(Int(valueIndex)))")
        }
        listFunctions[key] = call.reference(Int(valueIndex))
      } else if ["value", "selectedIndex"].contains(key) {
        // Applied after the bounds (min, max, segments), whatever the table's order.
        deferred.append((key, call.reference(Int(valueIndex))))
      } else {
        try bridge.set(key, of: view, from: LuaValueReader(stack: call.stack, index: valueIndex, path: LuaPath(root: "ui.\(kind).\(key)")))
      }
    }
    for (key, value) in deferred {
      call.stack.push(reference: value.reference)
      defer { call.stack.pop() }
      try bridge.set(key, of: view, from: LuaValueReader(stack: call.stack, index: call.stack.top, path: LuaPath(root: "ui.\(kind).\(key)")))
    }
    for position in children.keys.sorted() {
      view.addSubview(children[position]!)
    }
    if let sections = view as? SectionsView {
      try renderSections(into: sections)
    }
    if let list = view as? ListView {
      guard let rowBuilder = listFunctions["row"] else {
        throw ScriptError(kind: .runtime, message: "ui.list needs row = function(ui) … end (it builds one row)")
      }
      let binding = LuaListBinding(
        list: list, rowBuilder: rowBuilder, rowConfigure: listFunctions["configure"], rowEvents: listFunctions["events"])
      binding.screen = self
      bindings[ObjectIdentifier(list)] = binding
      list.dataSource = binding
      list.register(forReuseIdentifier: "row") { [unowned self, unowned binding] in
        self.makeRow(for: binding)
      }
    }
    bridge.keepUntilAttached(view)
    call.push(reference(for: view))
    return 1
  }

  func reference(for view: View) -> LuaRef { bridge.reference(for: view) }

  func view(for reference: LuaRef) -> View? { bridge.view(for: reference) }

  // MARK: - Server-driven units

  /// Fills `ui.sections` with the payload: one stack per section, one host per unit.
  private func renderSections(into container: SectionsView) throws {
    container.axis = .vertical
    var counters: [String: Int] = [:]
    for (sectionIndex, section) in (options.data?.sections ?? []).enumerated() {
      let stack = StackView(id: section.sectionId ?? "section\(sectionIndex + 1)", axis: .vertical)
      container.addSubview(stack)
      for (unitIndex, unit) in section.serverUnits.enumerated() {
        counters[unit.unitType, default: 0] += 1
        let id = unit.data["id"].stringValue ?? "\(unit.unitType)\(counters[unit.unitType]!)"
        let host = LuaUnitHost(unit: unit, id: id)
        host.screen = self
        let where_ = "section \(sectionIndex + 1), unit \(unitIndex + 1)"
        if let module = unitModules[unit.unitType] {
          try buildUnit(host, module: module)
        } else if let render = options.swiftUnits[unit.unitType] {
          host.addSubview(render(unit))
        } else {
          let known = (Array(unitModules.keys) + Array(options.swiftUnits.keys)).sorted().joined(separator: ", ")
          host.addSubview(Label(id: "placeholder", text: "unsupported unit '\(unit.unitType)'"))
          warnings.append("payload \(where_): unknown unit type '\(unit.unitType)' (known: \(known)); rendered a placeholder")
        }
        stack.addSubview(host)
        unitHosts.append(host)
        host.ss.configure(unit.data)
        host.ss.addActionHandler(to: handler)
      }
    }
  }

  private func buildUnit(_ host: LuaUnitHost, module: LuaRef) throws {
    guard let layout = module.field("layout") else { return }
    let label = "unit '\(host.id ?? "")' (\(host.unit.unitType))"
    (host.viewsByID, host.views) = try buildContent(
      into: host, builder: layout, events: module.field("events"), label: label
    ) { [unowned host] registration in host.registrations.append(registration) }
    host.configure = module.field("configure")?.unretainingRuntime()
  }

  /// Builds the content of a row or a unit: runs its builder, attaches the view, collects its
  /// ids, makes its `view` table and runs its `events`.
  ///
  /// NB: rows and units are kept alive through their list's or sections' userdata, so the views
  /// table does not retain the runtime.
  private func buildContent(
    into host: View, builder: LuaRef, events: LuaRef?, label: String,
    register: @escaping (LuaEventRegistration) -> Void
  ) throws -> ([String: View], LuaRef) {
    let built = try gate.direct { try runtime.callReturningReferences(builder, with: [uiTable], context: label + " layout") }
    guard let ref = built.first, let content = view(for: ref) else {
      throw ScriptError(kind: .runtime, message: "\(label): layout must return a view built with ui.<kind>{…}")
    }
    host.addSubview(content)
    bridge.attached(content)
    let viewsByID = try bridge.collectIDs(in: content, owner: label, chunk: path)
    let views = try bridge.viewsTable(viewsByID, owner: label).unretainingRuntime()
    if let events {
      try gate.closed("views are read-only in events (declare mappings with on(); views change in configure)") {
        _ = try runtime.callReturningReferences(events, with: [views, makeOnFunction(register)], context: label + " events")
      }
    }
    return (viewsByID, views)
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

  private func configureTransaction(_ state: LuaValue) throws -> [ViewWriteGate.Write] {
    try gate.transaction {
      try bridge.callWithReadOnly(configureFunction, views: viewsTable, message: "state is read-only in configure", context: "configure") {
        $0.push(state)
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

  private func readonly(_ value: LuaValue, _ message: String) throws -> LuaRef {
    try bridge.readonly(value, message)
  }

  func record(_ error: any Error) {
    guard pendingError == nil else { return }
    pendingError = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
  }

  // MARK: - Rows

  /// Dry-runs the row `configure` of every row a prepared `rows` write will show (writes are
  /// discarded), so a failing row stops the commit before anything changes.
  private func preflightRows(_ writes: [ViewWriteGate.Write]) throws {
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
          try bridge.callWithReadOnly(configure, views: views, message: "the item is read-only in configure", context: label) {
            $0.push(table.sequence[index])
          }
        }
      }
    }
  }

  private func makeRow(for binding: LuaListBinding) -> ListRow {
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
        try bridge.callWithReadOnly(configure, views: views, message: "the item is read-only in configure", context: label) {
          $0.push(item)
        }
      }.forEach { $0.apply() }
    } catch {
      record(error)
    }
  }

  // MARK: - Events

  private func makeOnFunction(_ register: @escaping (EventRegistration) -> Void) -> LuaRef {
    bridge.makeOnFunction(register)
  }

  /// The forwarding tree of a set of registrations (state-aware: state read at event time).
  static func forwardingTree(for registrations: [EventRegistration], screen: LuaScreen?) -> any EventForwardable {
    LuaViewBridge.forwardingTree(registrations) { [weak screen] (registration: EventRegistration, state: LuaValue) -> [LuaValue] in
      screen?.invoke(registration, state: state) ?? []
    }
  }

  /// Calls an event callback with read-only state and the sender; returns its actions.
  private func invoke(_ registration: EventRegistration, state: LuaValue) -> [LuaValue] {
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

  private func handle(_ action: LuaValue) throws {
    guard let handleFunction, !isClosed else { return }
    let type = action["type"].stringValue ?? "?"
    try gate.closed("views are read-only in handle (change state with store:update; views follow in configure)") {
      _ = try runtime.callReturningReferences(
        handleFunction, with: [runtime.makeValue(action), try storeReference()], context: "handle (action '\(type)')")
    }
  }

  private func storeReference() throws -> LuaRef {
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
  private func commit(_ new: LuaValue) throws {
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

  // MARK: - Driving

  /// The view with `id`, or a usage error listing the ids.
  public func view(_ id: String) throws -> View {
    guard let view = viewsByID[id] else { throw ScreenUsageError.unknownView(id, known: ids) }
    return view
  }

  /// Runs one interaction and reports what it did; throws the first script error it caused.
  func step(_ interaction: () throws -> Void) throws -> Step {
    let before = state
    let firstAction = actionLog.count
    pendingError = nil
    try interaction()
    try throwPending()
    return Step(actions: Array(actionLog[firstAction...]), before: before, after: state)
  }

  /// Dispatches `action` to the screen's `handle` as if a sender had produced it.
  ///
  /// A bare string is shorthand for `{ type = s }`.
  @discardableResult
  public func perform(action: LuaValue) throws -> Step {
    let actions = try ScreenEvents.actions(from: action, context: "perform")
    return try step { actions.forEach(dispatch) }
  }

  /// Taps `id`: `touchUpInside` (a real tap) on a control, a tap gesture on another view.
  @discardableResult
  public func tap(_ id: String) throws -> Step { try ScreenDriver(screen: self, views: viewsByID).tap(id) }

  /// Fires the event `eventName` (a control event or a gesture name) on `id`.
  @discardableResult
  public func send(_ id: String, _ eventName: String) throws -> Step {
    try ScreenDriver(screen: self, views: viewsByID).send(id, eventName)
  }

  /// Sets the value of `id` as a user would (switch on/off, slider/stepper value, segment
  /// 1-based, text field text); fires `valueChanged` only when the value changes.
  @discardableResult
  public func set(_ id: String, _ value: LuaValue) throws -> Step {
    try ScreenDriver(screen: self, views: viewsByID).set(id, value)
  }

  /// Types `text` into the text field `id` (editing events).
  @discardableResult
  public func type(_ id: String, _ text: String) throws -> Step {
    try ScreenDriver(screen: self, views: viewsByID).type(id, text)
  }

  /// Performs the gesture `kind` on `id` with parameters (`taps`, `touches`, `direction`, `edge`,
  /// `duration`, `scale`, `rotation`, `x`, `y`).
  @discardableResult
  public func gesture(_ id: String, _ kind: String, _ parameters: [String: LuaValue] = [:]) throws -> Step {
    try ScreenDriver(screen: self, views: viewsByID).gesture(id, kind, parameters)
  }

  /// A driver for row `index` (1-based) of the list `listID`, scrolling it into view if needed.
  public func row(_ listID: String, _ index: Int) throws -> ScreenDriver {
    guard let list = viewsByID[listID] as? ListView else {
      if viewsByID[listID] != nil { throw ScreenUsageError.notAList(listID) }
      throw ScreenUsageError.unknownView(listID, known: ids)
    }
    guard index >= 1, index <= list.numberOfRows else {
      throw ScreenUsageError.rowOutOfRange(listID, index: index, count: list.numberOfRows)
    }
    if list.row(at: index - 1) == nil { list.simulateScroll(toRow: index - 1) }
    guard let row = list.row(at: index - 1) as? LuaListRow else {
      throw ScreenUsageError.rowOutOfRange(listID, index: index, count: list.numberOfRows)
    }
    return ScreenDriver(screen: self, views: row.viewsByID, owner: "row \(index) of '\(listID)'")
  }

  /// The methods of the `store` scripts get in `handle`, as installed (tools check them
  /// against the stubs).
  public var installedStoreMethods: [String] {
    _ = try? storeReference()
    return bridge.installedStoreMethods
  }

  /// The `ui.<kind>` builders, as installed.
  public var installedBuilders: [String] {
    (try? uiTable.value(path: "ui"))?.tableValue?.fields.keys.sorted() ?? []
  }

  /// The current value of property `name` of view `id` (in row `index` of list `list` when
  /// given), as scripts see it.
  ///
  /// - Throws: ``ScreenUsageError`` for an unknown id or property.
  public func property(_ name: String, of id: String, inRow row: (list: String, index: Int)? = nil) throws -> LuaValue {
    let target = try row.map { try self.row($0.list, $0.index).view(id) } ?? view(id)
    let names = ScreenViewTypes.properties(of: target.kind).map(\.name)
    guard names.contains(name) else {
      throw ScreenUsageError.badValue("\(target.kind) '\(id)' has no property '\(name)' (properties: \(names.sorted().joined(separator: ", ")))")
    }
    return ScreenViewTypes.get(target, name)
  }

  /// Stops the screen: handlers are removed, effects are cancelled, and no callback of it runs
  /// again.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    effects.values.forEach { $0.cancel() }
    effects.removeAll()
    host.ss.removeAllActionHandlers()
    host.registrations.removeAll()
    queue.clear()
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
