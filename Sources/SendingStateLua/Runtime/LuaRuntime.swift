import CLua
import CLuaShim
import Foundation

/// One Lua 5.4 state with its sandbox, limits and bridges: the host for scripts.
///
/// A runtime is confined to the actor or thread that created it (it is not `Sendable`). Scripts
/// load as text only, each into its own sandboxed environment, and every call into Lua is
/// protected, bounded by the instruction budget, and reported as a ``ScriptError``:
///
/// ```swift
/// let runtime = try LuaRuntime()
/// let results = try runtime.evaluate("return 1 + 2", chunkName: "sum.lua")   // [.integer(3)]
/// let square = try runtime.evaluate("return function(x) return x * x end")[0]
/// ```
///
/// Lua errors never cross a Swift frame: Lua calls Swift through a C trampoline that raises the
/// error after the Swift function has returned, and Swift calls Lua only under `lua_pcall`.
public final class LuaRuntime {
  let handle: LuaStateHandle
  /// The raw state, for the bridge files of this module.
  var L: OpaquePointer { handle.pointer }
  /// The raw state, for our own modules' C (the spec runner's limits); never public.
  package var rawState: OpaquePointer { handle.pointer }
  var stack: LuaStack { LuaStack(L: handle.pointer) }

  /// The configuration the runtime was made with (limits can change later).
  public let configuration: Configuration

  /// Where `print` writes (default: standard output).
  public var output: (String) -> Void = { print($0) }
  /// The time this runtime's screen runs on (its timers, `require "clock"`).
  public var clock: any ScreenClock = SystemScreenClock()
  /// Where this runtime's screen fetches from (`store:fetch`).
  public var fetcher: any ScreenFetcher = NetworkFetcher()

  var closureMetatable: Int32 = 0
  var environmentFactory: Int32 = 0
  var hostGlobals: Int32 = 0
  /// The sandbox's table of rights by owner (see ``grant(_:to:)``).
  var rightsTable: Int32 = 0
  /// The same rights, for Swift code.
  var rights: [String: Rights] = [:]
  /// The sandbox's table of module names plugin code may require.
  var requirable: Int32 = 0
  var loadedModules: Int32 = 0
  var objectTypes: [ObjectIdentifier: (type: LuaObjectTypeBase, tag: UInt32, metatable: Int32)] = [:]
  var nextObjectTag: UInt32 = 1
  /// Registry references of each plan's key list, indexed by plan id (0: not interned yet).
  var internedKeys: [Int32] = []
  /// Every chunk name loaded, to undo Lua's 60-character truncation in messages.
  var chunkNames: Set<String> = []
  /// The typed error a Swift callback turned into a Lua error (a Lua error is a string: this
  /// keeps its kind, and a nested script error's own place, context and traceback). Set only
  /// by the callback trampolines, read only by ``error(status:kind:)`` when that error comes
  /// out of the protected call. Each protected call starts without one and gives back the one
  /// of the call around it when it ends (a `__close` handler that calls Swift while an error
  /// unwinds must not lose that error's kind), so it never outlives the call it belongs to: an
  /// error a script caught in an earlier call cannot colour a later one. Within one call, an
  /// error re-raised with the same words is taken as the same error (as `error(e, 0)` is).
  /// (Not a result channel: the engine's results and errors all travel by return and `throws`.)
  var lastCallbackError: ScriptError?
  /// The long texts views show, one Swift copy each across events (see ``LongStrings``).
  var longStrings = LongStrings()
  /// The object that hosts this runtime's scripts (a screen), for bindings that need it.
  weak var owner: AnyObject?
  /// Folders `require` searches: the configured roots, then those added later.
  public private(set) var scriptRoots: [String]

  /// Creates a runtime.
  ///
  /// - Parameter configuration: limits, mode and script roots.
  /// - Throws: ``ScriptError`` if the state cannot be created or the sandbox cannot be built.
  public init(configuration: Configuration = Configuration()) throws(ScriptError) {
    guard let handle = LuaStateHandle(memoryLimit: configuration.limits.memoryLimit ?? 0) else {
      throw ScriptError(kind: .memory, message: "cannot create a Lua state")
    }
    self.handle = handle
    self.configuration = configuration
    self.limits = configuration.limits
    self.scriptRoots = configuration.scriptRoots
    applyLimits()
    sslua_set_host_context(L, Unmanaged.passUnretained(self).toOpaque())
    luaL_openlibs(L)
    createClosureMetatable()
    lua_createtable(L, 0, 4)
    rightsTable = stack.ref()
    try installEnvironmentFactory()
    grant(configuration.defaultRights, to: configuration.defaultOwner)
  }

  deinit {
    sslua_set_host_context(handle.pointer, nil)
  }

  // MARK: - Limits

  /// Every limit of this runtime (see ``Limits``); changes apply from the next episode on.
  public var limits: Limits {
    didSet { applyLimits() }
  }

  private func applyLimits() {
    sslua_set_memory_limit(L, limits.memoryLimit.map { max(1, $0) } ?? 0)
    sslua_set_budget(L, Int64(limits.instructionBudget.map { max(1, $0) } ?? 0))
    sslua_set_time_limit(L, limits.timeLimit.map { max(1, $0.saturatingNanoseconds) } ?? 0)
    sslua_set_max_string(L, limits.maxStringBytes.map { max(1, $0) } ?? 0)
    sslua_set_max_output(L, Int64(clamping: limits.maxOutputBytes.map { max(1, $0) } ?? 0))
  }

  /// The current memory cap in bytes (`nil`: none). Applies while Lua code runs.
  public var memoryLimit: Int? {
    get { limits.memoryLimit }
    set { limits.memoryLimit = newValue }
  }

  /// The instruction budget of one episode (`nil`: unlimited).
  public var instructionBudget: Int? {
    get { limits.instructionBudget }
    set { limits.instructionBudget = newValue }
  }

  /// Bytes the state currently uses.
  public var memoryUsed: Int { Int(sslua_memory_used(L)) }

  /// Runs a full garbage collection (releases unreferenced Swift objects held by userdata).
  public func collectGarbage() {
    sslua_gc_collect(L)
  }

  /// Lets `require` find modules under `path` too (e.g. a screen's own folder).
  public func addScriptRoot(_ path: String) {
    if !scriptRoots.contains(path) { scriptRoots.append(path) }
  }

  // MARK: - Loading

  /// Compiles `source` (text only) into a function whose environment is a fresh sandbox.
  ///
  /// - Parameters:
  ///   - source: Lua source text.
  ///   - chunkName: the name errors show (`counter.lua` makes `counter.lua:12: …`).
  ///   - environment: the environment to run in; `nil` makes a fresh one (the real globals in
  ///     trusted mode).
  /// - Throws: ``ScriptError`` of kind ``ScriptError/Kind/syntax`` with the line.
  public func load(_ source: String, chunkName: String = "chunk", environment: LuaRef? = nil) throws(ScriptError) -> LuaRef {
    let base = stack.top
    defer { lua_settop(L, base) }
    chunkNames.insert(chunkName)
    // "=name" is the host's own code: kept as given, so positions can skip it. Any other chunk
    // is a script's, and belongs to its file's owner before it runs.
    let isHost = chunkName.hasPrefix("=")
    if !isHost { registerOwner(ofChunk: chunkName) }
    let status = isHost ? HostChunkCache.load(source, chunkName: chunkName, into: L) : Self.loadText(source, chunkName: "@" + chunkName, into: L)
    guard status == LUA_OK else {
      throw error(status: status, kind: status == LUA_ERRSYNTAX ? .syntax : nil)
    }
    try setEnvironment(ofFunctionOnTop: environment)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// Compiles `source` as text (never binary) onto the stack of `L`.
  static func loadText(_ source: String, chunkName: String, into L: OpaquePointer) -> Int32 {
    var text = source
    return text.withUTF8 { bytes in
      chunkName.withCString { name in
        sslua_loadtext(L, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, bytes.count, name)
      }
    }
  }

  /// The largest script file ``loadFile(_:root:environment:)`` reads: 16 MiB.
  public static let maxScriptBytes = ScriptFile.maxBytes

  /// Reads and compiles the file at `path` (see ``load(_:chunkName:environment:)``), which must
  /// lie inside `root` (default: its own folder) once links are followed, be a regular file of
  /// at most ``maxScriptBytes`` and UTF-8 text: the one policy every file of Lua code is read
  /// under.
  ///
  /// The chunk name is `path` as given, so errors read `path:line: …`.
  public func loadFile(_ path: String, root: String? = nil, environment: LuaRef? = nil) throws(ScriptError) -> LuaRef {
    let source = try ScriptFile.read(path, root: root ?? (path as NSString).deletingLastPathComponent)
    return try load(source, chunkName: path, environment: environment)
  }

  /// The folder a plugin's file must stay inside: the plugin folder (of
  /// ``Configuration/pluginFolders``) its path starts with, else its own folder.
  func root(ofPluginFile file: String) -> String {
    configuration.pluginFolders.first { file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
      ?? (file as NSString).deletingLastPathComponent
  }

  /// Compiles and runs `source`, returning its results.
  @discardableResult
  public func evaluate(_ source: String, chunkName: String = "chunk", context: String? = nil) throws(ScriptError)
    -> [LuaValue]
  {
    try call(load(source, chunkName: chunkName), context: context)
  }

  // MARK: - Calling

  /// Calls a Lua function with data arguments, returning its results as data.
  ///
  /// - Parameters:
  ///   - function: a reference to a Lua function.
  ///   - arguments: pushed in order.
  ///   - context: a label for errors (`"configure (view 'count')"`).
  /// - Throws: ``ScriptError`` on any error in Lua, or if a result is not data.
  @discardableResult
  public func call(_ function: LuaRef, with arguments: [LuaValue] = [], context: String? = nil) throws(ScriptError)
    -> [LuaValue]
  {
    try call(function, context: context, pushArguments: { stack throws(LuaBridgeError) in
      for (offset, argument) in arguments.enumerated() {
        try stack.push(argument, path: LuaPath(root: "argument #\(offset + 1)"))
      }
      return Int32(arguments.count)
    }) { stack, count throws(LuaBridgeError) in
      var results: [LuaValue] = []
      for offset in 0..<count {
        results.append(try stack.value(at: stack.top - count + 1 + offset, path: LuaPath(root: "result #\(offset + 1)")))
      }
      return results
    }
  }

  /// Calls a Lua function with a custom argument push and result read (the fast path).
  ///
  /// `pushArguments` pushes the arguments and returns how many; `readResults` reads the
  /// `count` results on top. The stack is restored afterwards, and its balance asserted in debug
  /// builds.
  ///
  /// A `critical` call runs the host's own Lua code to its end: no hook, no memory cap (undoing
  /// an event after a limit stopped it).
  func call<Result>(
    _ function: LuaRef, context: String?, critical: Bool = false,
    pushArguments: (LuaStack) throws(LuaBridgeError) -> Int32,
    readResults: (LuaStack, Int32) throws(LuaBridgeError) -> Result
  ) throws(ScriptError) -> Result {
    let base = stack.top
    defer {
      lua_settop(L, base)
      assert(stack.top == base, "Lua stack unbalanced after a call")
    }
    stack.push(reference: function.reference)
    let count: Int32
    do {
      count = try pushArguments(stack)
    } catch {
      throw error.scriptError.inContext(context)
    }
    try protectedCall(arguments: count, results: LUA_MULTRET, context: context, critical: critical)
    let resultCount = stack.top - base
    do {
      return try readResults(stack, resultCount)
    } catch {
      throw error.scriptError.inContext(context)
    }
  }

  /// Calls `function` with referenced arguments, returning references to its results (which
  /// may be functions or tables, not only data).
  ///
  /// ```swift
  /// let module = try runtime.callReturningReferences(chunk, with: [], context: "loading")[0]
  /// ```
  public func callReturningReferences(_ function: LuaRef, with arguments: [LuaRef], context: String?) throws(ScriptError)
    -> [LuaRef]
  {
    try call(function, context: context, pushArguments: { stack in
      arguments.forEach { stack.push(reference: $0.reference) }
      return Int32(arguments.count)
    }) { stack, count throws(LuaBridgeError) in
      var results: [LuaRef] = []
      for offset in 0..<count {
        lua_pushvalue(L, stack.top - count + 1 + offset)  // push + ref leaves the top unchanged
        results.append(LuaRef(runtime: self, reference: stack.ref()))
      }
      return results
    }
  }

  /// A reference to a data value pushed as a fresh table or scalar.
  ///
  /// - Throws: ``LuaBridgeError`` naming the part past a limit (depth, size, a non-finite
  ///   number, the memory cap).
  public func makeValue(_ value: LuaValue, path: String = "value") throws(LuaBridgeError) -> LuaRef {
    try stack.push(value, path: LuaPath(root: path))
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// Calls `function` with referenced arguments (the results are dropped).
  public func call(_ function: LuaRef, with values: [LuaValue] = [], context: String?, arguments: [LuaRef]) throws(ScriptError) {
    _ = try call(function, context: context, pushArguments: { stack throws(LuaBridgeError) in
      for (offset, value) in values.enumerated() {
        try stack.push(value, path: LuaPath(root: "argument #\(offset + 1)"))
      }
      arguments.forEach { stack.push(reference: $0.reference) }
      return Int32(values.count + arguments.count)
    }) { _, _ throws(LuaBridgeError) in () }
  }

  /// The real globals, for host-written helper code (tooling only; never hand it to scripts).
  package func newTrustedEnvironment() -> LuaRef {
    globalsReference()
  }

  /// A reference to the real global table (trusted helpers only).
  func globalsReference() -> LuaRef {
    sslua_pushglobaltable(L)
    return LuaRef(runtime: self, reference: stack.ref())
  }

  /// Calls the function below `arguments` values under `sslua_pcall`; throws on error.
  func protectedCall(arguments: Int32, results: Int32, context: String?, critical: Bool = false) throws(ScriptError) {
    let around = lastCallbackError
    lastCallbackError = nil
    defer { lastCallbackError = around }
    let status = critical ? sslua_pcall_critical(L, arguments, results) : sslua_pcall(L, arguments, results)
    if status != LUA_OK {
      let failure = error(status: status, kind: nil)
      pop(1)
      throw failure.inContext(context)
    }
  }

  private func pop(_ count: Int32) { sslua_pop(L, count) }

  /// Builds a ``ScriptError`` from the error value on top (not popped).
  func error(status: Int32, kind: ScriptError.Kind?) -> ScriptError {
    let message = stack.string(at: -1) ?? "(error object is a \(stack.typeName(at: -1)) value)"
    let resolved: ScriptError.Kind
    if let kind {
      resolved = kind
    } else if sslua_trip_reason(L) == SSLUA_TRIP_BUDGET {
      resolved = .budgetExceeded
    } else if sslua_trip_reason(L) == SSLUA_TRIP_TIME {
      resolved = .timeout
    } else if status == LUA_ERRMEM || message.contains("not enough memory") {
      resolved = .memory
    } else if message.contains("stack overflow") || message.contains("nested deeper than \(SSLUA_MAX_CALL_DEPTH)") {
      resolved = .stackOverflow
    } else if message.contains(LuaSandbox.violationMarker) {
      resolved = .sandboxViolation
    } else if let callback = lastCallbackError, message.contains(callback.message) {
      resolved = callback.kind
      if callback.chunk != nil {
        // Re-raised unchanged from a nested call: keep its own position, context and traceback.
        lastCallbackError = nil
        return callback
      }
    } else {
      resolved = .runtime
    }
    lastCallbackError = nil
    var parsed = ScriptError(parsing: message, kind: resolved)
    parsed.chunk = parsed.chunk.map(fullChunkName)
    return parsed
  }

  /// Lua shortens long chunk names to `...tail`; this finds the full name it was loaded with.
  func fullChunkName(_ shown: String) -> String {
    guard shown.hasPrefix("...") else { return shown }
    let tail = shown.dropFirst(3)
    if let name = chunkNames.first(where: { $0.hasSuffix(tail) }) { return name }
    // A chunk a script loaded (named after the place that loaded it): the owners know it.
    var buffer = [CChar](repeating: 0, count: 4096)
    guard sslua_source_ending(L, String(tail), &buffer, buffer.count) != 0 else { return shown }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension LuaRuntime {
  /// Limits and mode of a runtime.
  ///
  /// ```swift
  /// var configuration = LuaRuntime.Configuration()
  /// configuration.limits.instructionBudget = 1_000_000
  /// configuration.scriptRoots = ["examples/counter"]
  /// ```
  public struct Configuration: Sendable {
    /// Memory and instruction limits.
    public var limits: Limits
    /// Sandboxed (the default) or trusted.
    public var mode: Mode
    /// Folders `require` may load modules from (sandboxed mode).
    public var scriptRoots: [String]
    /// Modules `require` finds by exact name before searching the roots: name → file (the
    /// modules plugins provide, `"analytics.events"` → `…/analytics/events.lua`).
    public var modules: [String: String]
    /// Who the code of each file belongs to: path (as loaded) → owner (`"plugin
    /// 'analytics'"`), named in errors; every right is checked against the owner of the code
    /// that asks (see ``LuaRuntime/grant(_:to:)``). Sandboxed mode.
    public var fileOwners: [String: String] = [:]
    /// The owner of every other file.
    public var defaultOwner: String = "the script"
    /// The rights of ``defaultOwner`` from the start (all of them unless told otherwise).
    public var defaultRights: Rights = .all
    /// Modules (by `require` name) whose functions read the wall clock, with those functions:
    /// each owner's code gets a view of the module that refuses them unless it has the clock.
    public var clockGatedModules: [String: Set<String>] = [:]
    /// Folders of plugins: `require` never loads a file inside one through the script roots
    /// (a plugin's modules are required by their plugin's name, and only those it names).
    public var pluginFolders: [String] = []
    /// The text of some of ``modules``, by name: `require` compiles it (named after the
    /// module's file) instead of reading the file.
    public var moduleSources: [String: String] = [:]
    /// The seed of scripts' `math.random`; nil (the default) seeds it from host entropy. Give one
    /// to make a run repeatable (`sendingstate explore` does, from its `--seed`).
    ///
    /// ```swift
    /// configuration.randomSeed = 42
    /// ```
    public var randomSeed: Int64?

    /// Creates a configuration (sandboxed, default limits, no script roots).
    public init(limits: Limits = Limits(), mode: Mode = .sandboxed, scriptRoots: [String] = [], modules: [String: String] = [:]) {
      self.limits = limits
      self.mode = mode
      self.scriptRoots = scriptRoots
      self.modules = modules
    }
  }

  /// What scripts can reach.
  public enum Mode: Sendable, Equatable {
    /// Each script gets an allow-listed environment: no `io`, `debug`, `package`, `os.execute`,
    /// binary chunks or `string.dump`; `require` only under the script roots. The default.
    case sandboxed
    /// Scripts see the full standard libraries. For tooling you trust; never the default.
    case trusted
  }
}
