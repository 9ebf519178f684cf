import Foundation
import SendingState
import SendingStateHeadless

/// A whole screen written in Lua, hosted on the typed core.
///
/// The script returns a table with `state`, `layout`, `configure` and optionally `name`,
/// `schema`, `units`, `events` and `handle` (see the README for the contract). Everything that
/// happens to the screen — a tap, an action, an effect's result, a list scrolling — is one event
/// of the `ScreenEngine`: the callbacks, every action in order, the validated store updates,
/// `configure` and the rows run in one call into Lua, and either all of it is committed or none
/// of it is. The committed state reaches the core's `BindingStore` (which observers watch),
/// and the views, headless views built by `layout`, show it.
///
/// ```swift
/// let screen = try LuaScreen(path: "examples/counter/counter.lua")
/// try screen.tap("plus")
/// screen.state["count"]            // 2
/// print(screen.renderTree().text)
/// ```
///
/// One-way rules, each enforced with an error that names the script's line:
/// - `configure` gets the state read-only ("state is read-only in configure");
/// - views are written only by `layout` and `configure`;
/// - event callbacks get read-only state and return actions;
/// - `handle` changes state only through `store:update(fn)` / `store:set(t)`; each new state is
///   validated (data rules, schema) where it is made;
/// - actions dispatched while an action is handled are queued and handled in order (FIFO);
/// - `store`, `view` and `on` kept past their phase answer with an error.
///
/// Nothing is lost on failure: if anything in an event fails, its state, views, observers and
/// action log are exactly as before it.
@MainActor
public final class LuaScreen {
  /// Options for opening a screen.
  /// Async work a screen may start by name (``Options/tasks``): it gets the script's input and
  /// returns the value the `ok` action carries; what it throws becomes the `fail` action's
  /// `error`. It runs on the main actor when the event that started it commits, and is
  /// cancelled with the screen.
  public typealias HostTask = @MainActor @Sendable (_ input: LuaValue) async throws -> LuaValue

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
    /// Modules `require` finds by exact name (the modules of the plugins the screen runs with).
    public var modules: [String: String] = [:]
    /// Components `ui.<name>` builds, by name: the files of component modules (the components
    /// of the plugins the screen runs with). The screen's own `components` table wins.
    public var components: [String: PluginScript] = [:]
    /// Unit renderers by `unitType`: the files of unit modules (the unit renderers of the
    /// plugins the screen runs with). The screen's own `units` table wins; Swift renderers
    /// (``swiftUnits``) come after both.
    public var units: [String: PluginScript] = [:]
    /// Middleware around dispatch, in the order they run (the middleware of the plugins the
    /// screen runs with).
    public var middleware: [Middleware] = []
    /// The screen's own capabilities, as granted by whoever runs it. `nil` (the default): all of
    /// them, unless the screen's table declares `capabilities` (then it gets those). Given: the
    /// screen gets what it declares (all of these when it declares nothing), and declaring more
    /// is an error at load that names what was not granted.
    public var capabilities: Capabilities?
    /// The capabilities of each plugin whose scripts the screen runs, by plugin name; a plugin
    /// not listed has none. (Granting is the caller's business: `SendingStatePlugins` grants
    /// what a manifest lists and the user allowed.)
    public var pluginCapabilities: [String: Capabilities] = [:]
    /// Modules written in Swift, by the name `require` finds them under: each a table of
    /// functions, read-only to scripts (the modules of Swift plugins).
    public var hostModules: [String: [String: HostFunction]] = [:]
    /// Functions of ``hostModules`` that hand out the wall clock, by module: only code granted
    /// the `clock` capability may call them.
    public var clockGatedModules: [String: Set<String>] = [:]
    /// The folders of the plugins the screen runs with: `require` loads nothing inside them
    /// through the script roots.
    public var pluginFolders: [String] = []
    /// The text of some of ``modules`` (by name), to run instead of reading their files again
    /// (what a lockfile check hashed).
    public var moduleSources: [String: String] = [:]
    /// The time the screen's timers and `require "clock"` run on (a ``VirtualClock`` in
    /// tests and specs: see ``LuaScreen/advance(by:)``).
    public var clock: any ScreenClock = SystemScreenClock()
    /// Where `store:fetch` gets its answers (a ``FakeFetcher`` in tests and specs).
    public var fetcher: any ScreenFetcher = NetworkFetcher()
    /// Async work the screen may start by name with `store:run(name, input, { ok =, fail = })`
    /// (or a reduce effect `{ run = name, … }`): its value comes back as the `ok` action's
    /// `value`, an error it throws as the `fail` action's `error`.
    public var tasks: [String: HostTask] = [:]
    /// Seconds of the screen's clock that a task's answer (its value or its error) takes to
    /// arrive once the task has run, by task name: a fake of a slow service, which a
    /// ``VirtualClock``'s advance passes like a timer (a spec's `{ value = …, delay = 2 }`).
    /// Held to twice the runtime's `maxEffectDelay`.
    public var taskDelays: [String: Double] = [:]
    /// Count which lines of the screen's files run (its script, its modules, its plugins'
    /// scripts), from loading on: `sendingstate test --coverage` reads them from ``runtime``.
    package var coverage = false
    /// The seed of the screen's `math.random` (``LuaRuntime/Configuration/randomSeed``); nil, the
    /// default, seeds it from host entropy.
    public var randomSeed: Int64?

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

  /// A script file a plugin provides (a component or a unit renderer), and the plugin named in
  /// its errors.
  public struct PluginScript: Sendable, Equatable {
    /// The file that returns the module (with ``source``: the name its errors show).
    public var file: String
    /// The plugin that provides it (`nil`: the host's own).
    public var plugin: String?
    /// The Lua text itself, for a script that is not a file (a Swift plugin's); `nil`: read
    /// ``file``.
    public var source: String?

    /// Describes a script file (of `plugin`, if it belongs to one), or Lua text named `file`.
    public init(file: String, plugin: String? = nil, source: String? = nil) {
      self.file = file
      self.plugin = plugin
      self.source = source
    }
  }

  /// A function of a module written in Swift (``Options/hostModules``): it reads its arguments
  /// from the call, pushes its results and returns how many.
  public typealias HostFunction = @Sendable (LuaCall) throws -> Int

  /// A middleware: a file returning `function(action, store)` that returns the action (read-only:
  /// a changed one is a new table), another action, or `false` to drop it; it runs before `handle` for every action,
  /// and the effects it starts are held to its plugin's capabilities.
  public struct Middleware: Sendable, Equatable {
    /// Its name (from the plugin's manifest).
    public var name: String
    /// The plugin it belongs to (named in errors).
    public var plugin: String
    /// The file that returns the function (with ``source``: the name its errors show).
    public var file: String
    /// The Lua text itself, for middleware that is not a file (a Swift plugin's).
    public var source: String?

    /// Creates a middleware description (its effects are held to
    /// ``Options/pluginCapabilities`` of `plugin`).
    public init(name: String, plugin: String, file: String, source: String? = nil) {
      self.name = name
      self.plugin = plugin
      self.file = file
      self.source = source
    }
  }

  /// What one interaction did.
  @MainActor
  public struct Step: @MainActor Equatable {
    /// The actions dispatched, in order (queued ones included).
    public var actions: [LuaValue]
    let beforeState: ScreenState
    let afterState: ScreenState
    /// Why the step did nothing, or less than it might, one reason a line: the view is disabled
    /// or hidden, nothing is registered for the event, a gesture did not meet what was
    /// registered or its phases were filtered out, a callback returned no action (file:line),
    /// middleware dropped an action. Empty when every action reached `handle`.
    ///
    /// ```swift
    /// let step = try screen.tap("minus")   // disabled at 0
    /// print(step.why)   // ["'minus' is disabled (enabled = false), so it takes no interaction"]
    /// ```
    public var why: [String] = []

    /// The state before (read as data on first use).
    public var before: LuaValue { beforeState.value }
    /// The state after (read as data on first use).
    public var after: LuaValue { afterState.value }

    /// Whether two steps dispatched the same actions between the same states.
    public static func == (lhs: Step, rhs: Step) -> Bool {
      lhs.actions == rhs.actions && lhs.before == rhs.before && lhs.after == rhs.after
    }
  }

  /// The script's path.
  public let path: String
  /// The runtime the screen's scripts run in.
  public let runtime: LuaRuntime
  /// The screen's `name`, if it has one.
  public private(set) var name: String?
  /// The root view `layout` returned.
  public private(set) var root: View = View()

  /// The render tree of the screen as scripts see it: the view registry's properties, in Lua's
  /// conventions (a segmented control's `selectedIndex`, a list's `first`, a row's `index` are
  /// 1-based). `root.renderTree()` is the headless views' own tree, in Swift's (0-based).
  ///
  /// ```swift
  /// print(screen.renderTree().text)   // stack#root … / label#count text="1" / …
  /// ```
  public func renderTree() -> RenderNode { ViewRegistry.renderTree(of: root) }
  /// The binder the store applies to (the root's parent).
  public let host = LuaScreenHost()
  /// The core store holding the committed state (the engine is its only writer).
  package private(set) var store: BindingStore<ScreenState, LuaScreenHost>
  /// The most recent actions dispatched, in order (only events that were committed): the last
  /// ``actionLogLimit`` within ``actionLogBytes`` (a screen that runs for days keeps a bounded
  /// log);
  /// ``actionCount`` counts them all, and ``actions(since:)`` gives what came after a count.
  public var actionLog: [LuaValue] { actions.entries }
  /// How many actions were dispatched so far (only events that were committed).
  public var actionCount: Int { actions.count }
  /// The actions dispatched after the first `count` (those still kept).
  public func actions(since count: Int) -> [LuaValue] { actions.since(count) }
  /// The most recent actions ``actionLog`` keeps: 1,000 (within ``actionLogBytes``).
  public nonisolated static let actionLogLimit = 1_000
  /// The most bytes of actions ``actionLog`` keeps (strings' bytes and 16 a value): 8 MiB. A
  /// screen may dispatch a big action at every event; the log is a copy outside the Lua heap.
  public nonisolated static let actionLogBytes = 8 << 20
  private var actions = BoundedLog<LuaValue>(limit: actionLogLimit, byteBudget: actionLogBytes, cost: \.estimatedBytes)
  /// Called after every committed event that dispatched actions (effect results included), with
  /// those actions; ``state`` is already the committed state. The spec driver's test store
  /// records steps with it.
  public var onCommittedEvent: (([LuaValue]) -> Void)?
  /// The most recent warnings (problems that did not stop the screen): the last 100, within
  /// 1 MiB.
  public var warnings: [String] { warningLog.entries }
  private var warningLog = BoundedLog<String>(limit: 100, byteBudget: 1 << 20, cost: { $0.utf8.count })
  /// Whether ``close()`` was called.
  public internal(set) var isClosed = false

  let engine: ScreenEngine
  /// The options the screen was opened with (a reload keeps them).
  public let options: Options
  var viewsByID: [String: View] = [:]

  /// The current state (`nil` if it cannot be read as data: see ``readState()``).
  public var state: LuaValue { engine.committed.value }

  /// The current state as data.
  ///
  /// - Throws: ``ScriptError`` (kind ``ScriptError/Kind/typeMismatch``) naming the path when the
  ///   state holds a table whose keys Swift would merge (one text in two Unicode forms).
  public func readState() throws(ScriptError) -> LuaValue {
    do {
      return try engine.committed.read()
    } catch {
      var failure = error.scriptError
      failure.chunk = path
      throw failure
    }
  }

  /// Every view id of the screen, sorted.
  public var ids: [String] { viewsByID.keys.sorted() }

  /// The most recent errors nobody was there to catch (while handling an effect's result, or
  /// from a UI event outside a driver step): the last 100, within 1 MiB; ``asyncErrorCount``
  /// counts them all.
  public var asyncErrors: [ScriptError] { engine.unhandledErrors.entries }
  /// How many errors nobody was there to catch so far.
  public var asyncErrorCount: Int { engine.unhandledErrors.count }
  /// The throttle windows the engine keeps open (see `ScreenEngine.maxThrottleWindows`).
  var throttleWindowCount: Int { engine.throttleWindowCount }

  /// Called with every error in ``asyncErrors``.
  public var onAsyncError: ((ScriptError) -> Void)? {
    get { engine.onUnhandledError }
    set { engine.onUnhandledError = newValue }
  }

  /// Observes the committed state: called at once with the current state, then after every
  /// event that changed it.
  @discardableResult
  public func observe(_ observer: @escaping (LuaValue) -> Void) -> StateObservationToken {
    store.observe { state in MainActor.assumeIsolated { observer(state.value) } }
  }

  /// Opens the screen at `path`: loads it, checks the contract, builds the layout, declares its
  /// events and configures it with its initial state — one event, committed or not at all.
  ///
  /// - Throws: ``ScreenUsageError`` if the path is not a readable file; ``ScriptError`` (with
  ///   file:line) for any fault in the script.
  public init(path: String, options: Options = Options()) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw ScreenUsageError.notAFile(path)
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw ScreenUsageError.missingFile(path)
    }
    self.path = path
    self.options = options
    let folder = (path as NSString).deletingLastPathComponent
    var configuration = LuaRuntime.Configuration(
      limits: options.limits, scriptRoots: [folder.isEmpty ? "." : folder] + options.scriptRoots, modules: options.modules)
    // Rights by owner: each plugin's files are its own, everything else the screen's. (Until
    // its table says what it declares, the screen's code has what was granted.)
    configuration.fileOwners = options.fileOwners
    configuration.clockGatedModules = options.clockGatedModules
    configuration.pluginFolders = options.pluginFolders
    configuration.moduleSources = options.moduleSources
    configuration.defaultOwner = Self.screenOwner
    configuration.defaultRights = Self.rights(screen: options.capabilities ?? .unrestricted)
    configuration.randomSeed = options.randomSeed
    runtime = try LuaRuntime(configuration: configuration)
    if options.coverage { try runtime.startCoverage() }
    for owner in Set(configuration.fileOwners.values) {
      runtime.grant(Self.rights(plugin: options.pluginCapabilities[Self.pluginName(ofOwner: owner)] ?? Capabilities()), to: owner)
    }
    if let output = options.output { runtime.output = output }
    runtime.clock = options.clock
    runtime.fetcher = options.fetcher
    engine = try ScreenEngine(
      runtime: runtime, screenHost: host, payload: options.data, swiftUnits: options.swiftUnits, tasks: options.tasks,
      taskDelays: options.taskDelays)
    store = BindingStore(state: ScreenState(node: nil), identifier: path)
    runtime.preload("sendingstate", try runtime.makeValue(["version": .string(LuaScreen.apiVersion)]))
    for (name, functions) in options.hostModules {
      try runtime.preloadModule(name, functions: functions.mapValues { function in { call in try function(call) } })
    }
    let module = try loadModule()
    let contract = try checkContract(module)
    name = contract.name
    let capabilities = try screenCapabilities(declared: contract.capabilities)
    runtime.grant(Self.rights(screen: capabilities), to: Self.screenOwner)
    var ownerTables: LuaValue = ["components": .table(LuaTable()), "units": .table(LuaTable())]
    if capabilities != .unrestricted { ownerTables["screen"] = capabilities.luaValue }
    let owners = try runtime.makeValue(ownerTables, path: "owners")
    let components = try loadModules(
      "component", files: options.components, screenOwn: contract.components, owners: owners.field("components"))
    let units = try loadModules("unit renderer", files: options.units, screenOwn: contract.units, owners: owners.field("units"))
    if let components, case .table(let table)? = try? components.value(path: "components") {
      for componentName in table.fields.keys.sorted() {
        guard let component = components.field(componentName) else { continue }
        // A plugin's component is written in its own file; the screen's own, in its table.
        let screenOwn = contract.components?.field(componentName) != nil
        try checkNamedStates(component, component: componentName, file: screenOwn ? nil : options.components[componentName])
      }
    }
    if let components, case .table(let table)? = try? components.value(path: "components"),
      let clash = table.fields.keys.sorted().first(where: { ViewRegistry.byName[$0] != nil })
    {
      throw contractError("component '\(clash)' has the name of a built-in view kind (ui.\(clash)); rename it", at: ["components", clash])
    }
    let middleware = try loadMiddleware()
    let outcome = try engine.load(
      module: module, initial: options.state, units: units, schema: contract.schema, components: components,
      middleware: middleware, owners: owners)
    warningLog.append(contentsOf: outcome.warnings)
    root = host.subviews.first ?? View()
    viewsByID = engine.screenViews()
    store = BindingStore(state: engine.committed, identifier: name ?? path)
    // The engine is the store's only writer (the host and its senders get each state from it):
    // the store is not applied to the host, so no core path (`host.ss.invalidateState`) can set
    // a state the engine never checked.
    engine.commit = { [weak self] state in
      self?.store.state = state
    }
    engine.committedEvent = { [weak self] outcome in
      self?.actions.append(contentsOf: outcome.actions)
      self?.warningLog.append(contentsOf: outcome.warnings)
      if !outcome.actions.isEmpty { self?.onCommittedEvent?(outcome.actions) }
    }
  }

  /// The version of the host API scripts see as `require("sendingstate").version`.
  nonisolated public static let apiVersion = "0.2.0"

  // MARK: - Loading

  private func loadModule() throws -> LuaRef {
    // Read once by the one loader; the text also tells where a bad field is written.
    let source = try ScriptFile.read(path, root: (path as NSString).deletingLastPathComponent)
    fields = FieldLocator(source: source)
    let chunk = try runtime.load(source, chunkName: path)
    let results = try runtime.callReturningReferences(chunk, with: [], context: "loading the screen")
    guard let module = results.first, module.typeName == "table" else {
      throw contractError("the screen script must return a table (got \(results.first?.typeName ?? "nothing"))")
    }
    return module
  }

  /// The components `ui.<name>` builds, or the unit renderers by `unitType`: each plugin file
  /// run as a module, then the screen's own table (whose entries win). A component or a unit
  /// module is `{ layout = function(ui), configure = …, events = function(view, on) }`. The
  /// plugin of each plugin entry goes into `owners` (named in errors).
  private func loadModules(_ kind: String, files: [String: PluginScript], screenOwn: LuaRef?, owners: LuaRef?) throws -> LuaRef? {
    guard !files.isEmpty || screenOwn != nil else { return nil }
    let all = try runtime.makeValue(.table(LuaTable()), path: kind)
    for (name, script) in files.sorted(by: { $0.key < $1.key }) {
      let of = script.plugin.map { " of plugin '\($0)'" } ?? ""
      let chunk =
        try script.source.map { try runtime.load($0, chunkName: script.file) }
        ?? runtime.loadFile(script.file, root: runtime.root(ofPluginFile: script.file))
      let results = try runtime.callReturningReferences(chunk, with: [], context: "loading the \(kind) '\(name)'\(of)")
      guard let module = results.first, Self.isComponent(module) else {
        throw ScriptError(
          kind: .runtime,
          message: "the \(kind) '\(name)'\(of) must return { layout = function(ui) … end, configure = …, events = … }",
          chunk: script.file)
      }
      all.setField(name, to: module)
      if let plugin = script.plugin { try owners?.setField(name, to: .string(plugin)) }
    }
    if let screenOwn, case .table(let table)? = try? screenOwn.value(path: kind) {
      for name in table.fields.keys.sorted() {
        if let module = screenOwn.field(name) {
          all.setField(name, to: module)
          try owners?.setField(name, to: .nil)
        }
      }
    }
    return all
  }

  /// The middleware chain for the kernel: `{ { name, plugin, fn, capabilities }, … }`.
  private func loadMiddleware() throws -> LuaRef? {
    guard !options.middleware.isEmpty else { return nil }
    let chain = try runtime.makeValue(.table(LuaTable()), path: "middleware")
    for (position, middleware) in options.middleware.enumerated() {
      let chunk =
        try middleware.source.map { try runtime.load($0, chunkName: middleware.file) }
        ?? runtime.loadFile(middleware.file, root: runtime.root(ofPluginFile: middleware.file))
      let results = try runtime.callReturningReferences(
        chunk, with: [], context: "loading middleware '\(middleware.name)' of plugin '\(middleware.plugin)'")
      guard let function = results.first, function.typeName == "function" else {
        throw ScriptError(
          kind: .runtime,
          message: "middleware '\(middleware.name)' of plugin '\(middleware.plugin)' must return function(action, store)",
          chunk: middleware.file)
      }
      let capabilities = options.pluginCapabilities[middleware.plugin] ?? Capabilities()
      let entry = try runtime.makeValue(
        ["name": .string(middleware.name), "plugin": .string(middleware.plugin), "capabilities": capabilities.luaValue],
        path: "middleware")
      entry.setField("fn", to: function)
      chain.setElement(position + 1, to: entry)
    }
    return chain
  }

  static func isComponent(_ value: LuaRef) -> Bool {
    value.typeName == "table" && value.field("layout")?.typeName == "function"
  }

  /// Where the screen's fields are written (for errors about their values).
  private var fields: FieldLocator?

  /// An error about the screen's field at `field` (a path of keys), at the line that writes it.
  private func contractError(_ message: String, at field: [String] = []) -> ScriptError {
    ScriptError(kind: .runtime, message: message, chunk: path, line: field.isEmpty ? nil : fields?.line(of: field))
  }

  /// Checks `states` (named states) and `state_name`, which go together, of the screen or of
  /// the component `component`.
  private func checkNamedStates(_ module: LuaRef, component: String? = nil, file script: PluginScript? = nil) throws {
    let field = component.map { "component '\($0)': field" } ?? "screen field"
    let place = component.map { "component '\($0)': " } ?? ""
    // Where the fields are written: a plugin component's own file, else the screen (whose
    // own components are in its `components` table).
    let base = component.map { ["components", $0] } ?? []
    let pluginFields = script.map { script in
      FieldLocator(source: script.source ?? (try? ScriptFile.read(script.file, root: runtime.root(ofPluginFile: script.file))) ?? "")
    }
    func contractError(_ message: String, at key: [String] = []) -> ScriptError {
      guard let script, let pluginFields else { return self.contractError(message, at: key.isEmpty ? [] : base + key) }
      return ScriptError(kind: .runtime, message: message, chunk: script.file, line: key.isEmpty ? nil : pluginFields.line(of: key))
    }
    let stateName = module.field("state_name")
    let longest = Double(runtime.limits.maxEffectDelay.components.seconds)
    guard let states = module.field("states") else {
      if stateName != nil { throw contractError("\(field) 'state_name' needs 'states': the named states it chooses from", at: ["state_name"]) }
      if module.field("state_transition") != nil {
        throw contractError("\(field) 'state_transition' needs 'states': it is their default transition", at: ["state_transition"])
      }
      return
    }
    if let transition = module.field("state_transition") {
      guard case .some(let seconds) = (try? transition.value(path: "state_transition"))?.doubleValue, seconds.isFinite,
        seconds >= 0, seconds <= longest
      else {
        throw contractError("\(field) 'state_transition' must be a number of seconds from 0 to \(Int(longest)) (got \(transition.typeName))", at: ["state_transition"])
      }
    }
    let shape = "{ loading = { set = function(view, state) … end, update = …, done = …, transition = seconds }, … }"
    guard states.typeName == "table" else {
      throw contractError("\(field) 'states' must be a table of named states: \(shape) (got \(states.typeName))", at: ["states"])
    }
    let value: LuaValue
    do {
      value = try states.value(path: "states")
    } catch {
      throw contractError("\(field) 'states' is not plain data: \(error)", at: ["states"])
    }
    guard case .table(let table) = value, table.sequence.isEmpty, !table.fields.isEmpty else {
      throw contractError("\(field) 'states' must be a table of named states: \(shape) (got \(value.typeName == "table" ? "a list or an empty table" : value.typeName))", at: ["states"])
    }
    guard let stateName, stateName.typeName == "function" else {
      throw contractError(
        "\(field) 'state_name' must be a function (got \(module.field("state_name")?.typeName ?? "nil")): it returns the name of the state's named state, e.g. function(\(component == nil ? "" : "props, ")state) return state.phase end",
        at: module.field("state_name") == nil ? ["states"] : ["state_name"])
    }
    for name in table.fields.keys.sorted() {
      guard case .table(let declaration) = table.fields[name]!, declaration.sequence.isEmpty else {
        throw contractError("\(place)states.\(name) must be a table: { set = function(view, state) … end, update = …, done = …, transition = seconds }", at: ["states", name])
      }
      for (key, value) in declaration.fields.sorted(by: { $0.key < $1.key }) {
        switch key {
        case "set", "update", "done":
          guard value == .opaque("function") else {
            throw contractError(
              "\(place)states.\(name).\(key) must be a function(view, \(component == nil ? "" : "props, ")state) (got \(value.typeName))",
              at: ["states", name, key])
          }
        case "transition":
          guard let seconds = value.doubleValue, seconds.isFinite, seconds >= 0, seconds <= longest else {
            throw contractError(
              "\(place)states.\(name).transition must be a number of seconds from 0 to \(Int(longest)) (got \(value.doubleValue.map { "\($0)" } ?? value.typeName))",
              at: ["states", name, "transition"])
          }
        default:
          throw contractError("\(place)states.\(name) has an unknown field '\(key)' (the fields are set, update, done and transition)", at: ["states", name, key])
        }
      }
    }
  }

  /// Checks the fields of the screen table; the kernel reads them from there.
  private func checkContract(_ module: LuaRef) throws -> (
    name: String?, units: LuaRef?, schema: LuaRef?, components: LuaRef?, capabilities: Capabilities?
  ) {
    // A misspelt field is ignored (and `handel` leaves the screen without its handler): a key
    // near a screen field's name gets a warning with that name, at its line (`check` reports
    // it). A warning, not an error: a screen may keep its own keys on its table (helpers, a
    // `status` that is not `states`), and those must not stop it.
    let known = LuaHostAPI.screenFields.map(\.name)
    for key in module.stringKeys(limit: 1_000).sorted() {
      if let meant = NameSuggestion.closest(to: key, among: known) {
        let line = fields?.line(of: [key]).map { ":\($0)" } ?? ""
        warningLog.append(
          "\(path)\(line): unknown screen field '\(key)' (ignored): did you mean '\(meant)'? (the screen fields are \(known.joined(separator: ", ")))")
      }
    }
    for (field, required) in [("layout", true), ("configure", true), ("events", false), ("handle", false), ("reduce", false)] {
      guard let value = module.field(field) else {
        if required { throw contractError("screen field '\(field)' must be a function (got nil)") }
        continue
      }
      guard value.typeName == "function" else {
        throw contractError("screen field '\(field)' must be a function (got \(value.typeName))", at: [field])
      }
    }
    if module.field("handle") != nil, module.field("reduce") != nil {
      throw contractError("a screen declares handle or reduce, not both (reduce is the pure form: state, action → new state, effects)", at: ["reduce"])
    }
    try checkNamedStates(module)
    var name: String?
    if let nameRef = module.field("name") {
      guard nameRef.typeName == "string", case .string(let text) = try nameRef.value(path: "name") else {
        throw contractError("screen field 'name' must be a string (got \(nameRef.typeName))", at: ["name"])
      }
      name = text
    }
    guard let state = module.field("state") else {
      throw contractError("screen field 'state' is required: the initial state table")
    }
    guard state.typeName == "table" else {
      throw contractError("screen field 'state' must be a table (got \(state.typeName))", at: ["state"])
    }
    let units = module.field("units")
    if let units {
      guard units.typeName == "table", case .table(let table)? = try? units.value(path: "units"), table.sequence.isEmpty
      else {
        throw contractError("screen field 'units' must be a table of unit modules (got \(units.typeName))", at: ["units"])
      }
      for unitName in table.fields.keys.sorted() {
        guard let unit = units.field(unitName), unit.typeName == "table", unit.field("layout")?.typeName == "function" else {
          throw contractError("units.\(unitName) must be a unit module: { layout = function(ui), configure = …, events = … }", at: ["units", unitName])
        }
      }
    }
    let schema = module.field("schema")
    if let schema, schema.typeName != "table" {
      throw ScriptError(kind: .typeMismatch, message: "schema: expected a table of field types", chunk: path, line: fields?.line(of: ["schema"]))
    }
    let components = module.field("components")
    if let components {
      guard components.typeName == "table", case .table(let table)? = try? components.value(path: "components"),
        table.sequence.isEmpty
      else {
        throw contractError("screen field 'components' must be a table of component modules (got \(components.typeName))", at: ["components"])
      }
      for componentName in table.fields.keys.sorted() {
        guard let component = components.field(componentName), Self.isComponent(component) else {
          throw contractError(
            "components.\(componentName) must be a component: { layout = function(ui), configure = …, events = … }", at: ["components", componentName])
        }
      }
    }
    var capabilities: Capabilities?
    if let declared = module.field("capabilities") {
      do {
        capabilities = try Capabilities(declaration: try declared.value(path: "capabilities"))
      } catch let error as CapabilityDeclarationError {
        throw contractError("screen field 'capabilities': \(error.message)", at: ["capabilities"])
      }
    }
    return (name, units, schema, components, capabilities)
  }

  /// The owner of the screen's own code, for the wall clock and in errors.
  nonisolated static let screenOwner = "the screen"

  /// The rights of the screen's own code with these capabilities: host tasks and its own
  /// modules too.
  nonisolated static func rights(screen capabilities: Capabilities) -> LuaRuntime.Rights {
    .init(clock: capabilities.clock, timers: capabilities.timers, net: capabilities.net, tasks: true, screenFiles: true)
  }

  /// The rights of a plugin's code with these capabilities (never host tasks, nor the
  /// screen's files).
  nonisolated static func rights(plugin capabilities: Capabilities) -> LuaRuntime.Rights {
    .init(clock: capabilities.clock, timers: capabilities.timers, net: capabilities.net)
  }

  /// The plugin an owner name (`plugin 'analytics'`) stands for.
  nonisolated static func pluginName(ofOwner owner: String) -> String {
    String(owner.dropFirst("plugin '".count).dropLast())
  }

  /// What the screen's own code may do: what it declares (within what was granted), or what
  /// was granted (everything by default).
  private func screenCapabilities(declared: Capabilities?) throws -> Capabilities {
    guard let declared else { return options.capabilities ?? .unrestricted }
    if let granted = options.capabilities {
      let missing = granted.missing(for: declared)
      if !missing.isEmpty {
        throw contractError(
          "the screen asks for \(missing.joined(separator: ", ")), which was not granted (granted: \(granted)); "
            + "grant it where the screen is run (sendingstate run --grant screen:\(missing[0].split(separator: " ")[0])), or drop it from capabilities",
          at: ["capabilities"])
      }
    }
    return declared
  }

  // MARK: - Effects

  /// Waits until no effect is pending, or `timeout` passes; returns whether all settled.
  @discardableResult
  public func settle(timeout: Duration = .seconds(10)) async -> Bool {
    await engine.settle(timeout: timeout)
  }

  /// The number of effects still running (a named state's transition is not one).
  public var pendingEffects: Int { engine.pendingEffects }

  /// The screen's named state (its `states`, chosen by `state_name`): ready in one, or in a
  /// transition between two. Nil for a screen without named states.
  public var namedState: NamedStatePhase? { namedState(component: nil) }

  /// The named state of the component with id `component` (the screen's with nil); nil for one
  /// without named states, or no such component. Ids repeat across list rows and units: this
  /// is the first component built with that id.
  ///
  /// - Parameter component: the component's id (`ui.badge { id = "alerts" }`), or nil.
  public func namedState(component: String?) -> NamedStatePhase? {
    guard let phase = engine.namedPhase(component: component), phase != .nil else { return nil }
    if let target = phase["to"].stringValue {
      return .inTransition(previous: phase["from"].stringValue, target: target)
    }
    return .ready(current: phase["current"].stringValue)
  }

  /// Cancels every effect still running (timers, fetches, debounces, throttle windows): their
  /// actions never arrive. The screen stays open (a spec's `screen:skip_in_flight()`).
  public func cancelEffects() {
    engine.cancelAllEffects()
  }

  /// Moves the screen's ``VirtualClock`` on by `seconds`: every timer due by then fires in time
  /// order — those its actions start within the window too — and its actions are handled
  /// before this returns (their errors are in ``asyncErrors``).
  ///
  /// - Throws: ``ScreenUsageError`` when the screen runs on another clock; ``ScriptError`` when
  ///   more than 10,000 timers fire at one instant (a timer that re-arms itself at once), or
  ///   more than a million in one advance.
  public func advance(by seconds: Double) async throws {
    guard let clock = options.clock as? VirtualClock else { throw ScreenUsageError.notVirtualClock }
    try await engine.advance(clock, by: seconds)
  }
}
