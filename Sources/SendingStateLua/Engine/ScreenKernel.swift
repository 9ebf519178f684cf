import CFetch
import CLua
import CLuaShim
import SendingState
import SendingStateHeadless

/// What the kernel asks of its host while it runs.
@MainActor
protocol KernelHost: AnyObject {
  /// The canonical key and name of the event `spec` on a sender of `kind`, or an error message.
  func parseEvent(_ spec: LuaValue, senderID: String?, kind: ViewKindDescription) -> Result<(key: Int, name: String), ScriptError>
  /// The payload's sections as data (`nil`: no payload).
  func payloadSections() -> LuaValue?
  /// Whether a Swift renderer exists for `unitType`.
  func hasSwiftUnit(_ unitType: String) -> Bool
  /// The unit types the screen knows, for messages.
  func knownUnits(luaUnits: [String]) -> String
  /// Whether the host app registered a task named `name` (`store:run`).
  func hasTask(_ name: String) -> Bool
  /// The registered tasks' names, for messages.
  func taskNames() -> String
}

/// The Lua half of the screen engine, loaded into one runtime: its functions, called with one
/// protected call each.
@MainActor
final class ScreenKernel {
  let runtime: LuaRuntime
  private(set) var functions: [String: LuaRef] = [:]

  /// Loads the kernel into `runtime` (its helpers run with the real globals: trusted code).
  init(runtime: LuaRuntime, host: any KernelHost) throws {
    self.runtime = runtime
    let limits = runtime.limits
    let globals = runtime.globalsReference()
    let stateChunk = try runtime.load(KernelStateSource.source, chunkName: "=kernel.state", environment: globals)
    let config = try runtime.makeValue(["maxDepth": .integer(Int64(limits.maxDepth)), "maxNodes": .integer(Int64(limits.maxNodes))])
    let whereFunction = runtime.makeCFunction(sslua_where_function)
    config.setField("where", to: whereFunction)
    guard let state = try runtime.callReturningReferences(stateChunk, with: [config], context: "kernel").first else {
      throw ScriptError(kind: .runtime, message: "the kernel's state module did not load")
    }
    let engineChunk = try runtime.load(KernelEngineSource.source, chunkName: "=kernel.engine", environment: globals)
    let engineLimits = try runtime.makeValue([
      "maxDepth": .integer(Int64(limits.maxDepth)),
      "maxViews": .integer(Int64(clamping: limits.maxViews)),
      "maxRegistrations": .integer(Int64(clamping: limits.maxRegistrations)),
      "maxActions": .integer(Int64(clamping: limits.maxActionsPerEvent)),
      "maxEffectDelay": .number(Double(limits.maxEffectDelay.components.seconds)),
      "maxPendingEffects": .integer(Int64(clamping: limits.maxPendingEffects)),
      "maxEffectBytes": .integer(Int64(clamping: limits.maxEffectBytes)),
      "maxFetchBodyBytes": .integer(Int64(clamping: limits.maxFetchBodyBytes)),
      "maxFetchHeaders": .integer(Int64(FetchRequest.maxHeaders)),
      "maxFetchHeaderBytes": .integer(Int64(FetchRequest.maxHeaderBytes)),
      "fetchMethods": .table(LuaTable(sequence: FetchRequest.methods.map(LuaValue.string))),
      "fetchHostHeaders": .table(LuaTable(sequence: FetchRequest.hostHeaders.sorted().map(LuaValue.string))),
    ])
    let prims = try runtime.makeValue(.table(LuaTable()))
    prims.setField("where", to: whereFunction)
    prims.setField("critical", to: runtime.makeCFunction(sslua_critical_function))
    prims.setField("gate", to: runtime.makeCFunction(sslua_gate_function))
    prims.setField("boundary", to: runtime.makeCFunction(sslua_boundary_function))
    prims.setField("rights", to: runtime.rightsReference())
    try prims.setField("screenOwner", to: .string(LuaScreen.screenOwner))
    // Whether code granted `hosts` may fetch `url`, the URL read by libcurl's own parser and
    // matched by the check every connection of the fetch goes through (CFetch): true; or
    // false, the host (and port, when the URL names one) as shown, and nil; or nil, nil and
    // why the URL cannot be fetched at all.
    prims.setField("mayFetch", to: runtime.makeFunction("mayFetch") { call in
      var authority = ssfetch_authority_t()
      let url = try call.string(1)
      func text<T>(_ field: T) -> String { withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
      guard !url.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }), ssfetch_authority(url, &authority) == 0 else {
        call.pushNil()
        call.pushNil()
        call.push(url.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) ? "a URL has no spaces or control characters" : text(authority.problem))
        return 3
      }
      let hosts = (try call.value(2)).tableValue?.sequence.compactMap(\.stringValue) ?? []
      let allowed = withCStringArray(hosts) { pointers in ssfetch_allows(&authority, pointers, hosts.count) != 0 }
      call.push(allowed)
      call.push(authority.explicit_port != 0 ? "\(text(authority.host)):\(authority.port)" : text(authority.host))
      return 2
    })
    // NB: Lua keeps these closures; they hold the host weakly (a strong capture would be a
    // Swift↔Lua cycle keeping the whole state alive).
    prims.setField("parseEvent", to: runtime.makeFunction("on") { [weak host] call in
      try MainActor.assumeIsolated {
        guard let host else { throw ScriptError(kind: .runtime, message: "the screen is closed") }
        let kindName = try call.string(2)
        guard let kind = ViewRegistry.byName[kindName] else { return 0 }
        switch host.parseEvent(try call.value(3), senderID: try call.optionalString(4), kind: kind) {
        case .success(let parsed):
          call.push(Int64(parsed.key))
          call.push(parsed.name)
        case .failure(let error):
          call.pushNil()
          call.push(error.message)
        }
        return 2
      }
    })
    prims.setField("payload", to: runtime.makeFunction("payload") { [weak host] call in
      try MainActor.assumeIsolated {
        guard let sections = host?.payloadSections() else {
          call.pushNil()
          return 1
        }
        try call.push(sections)
        return 1
      }
    })
    prims.setField("hasTask", to: runtime.makeFunction("hasTask") { [weak host] call in
      let name = try call.string(1)
      call.push(MainActor.assumeIsolated { host?.hasTask(name) ?? false })
      return 1
    })
    prims.setField("taskNames", to: runtime.makeFunction("taskNames") { [weak host] call in
      call.push(MainActor.assumeIsolated { host?.taskNames() ?? "" })
      return 1
    })
    prims.setField("hasSwiftUnit", to: runtime.makeFunction("hasSwiftUnit") { [weak host] call in
      let type = try call.string(1)
      call.push(MainActor.assumeIsolated { host?.hasSwiftUnit(type) ?? false })
      return 1
    })
    prims.setField("knownUnits", to: runtime.makeFunction("knownUnits") { [weak host] call in
      let names = (try call.value(1)).tableValue?.sequence.compactMap(\.stringValue) ?? []
      call.push(MainActor.assumeIsolated { host?.knownUnits(luaUnits: names) ?? "" })
      return 1
    })
    // The view kinds, one at a time as the screen first uses each (a screen uses a few; all of
    // them, built into every screen's heap at open, were ~45 KiB of it).
    prims.setField("kind", to: runtime.makeFunction("kind") { call in
      guard let kind = Self.kindValues[try call.string(1)] else {
        call.pushNil()
        return 1
      }
      try call.push(kind)
      return 1
    })
    prims.setField("builderNames", to: runtime.makeFunction("builderNames") { call in
      try call.push(Self.builderNames)
      return 1
    })
    let engine = try runtime.callReturningReferences(engineChunk, with: [state, engineLimits, prims], context: "kernel")
    guard let table = engine.first else {
      throw ScriptError(kind: .runtime, message: "the kernel's engine did not load")
    }
    for name in [
      "send", "load", "abort", "sync", "ids", "rowIds", "state", "close", "storeMethodNames", "mirror", "builders",
      "adopt", "forget", "roleConfigure", "roleDeclare", "roleEvent", "roleHandle", "viewsOf", "namedPhase", "interruptTransition", "unitHostCount",
    ] {
      guard let function = table.field(name) else { continue }
      functions[name] = function
    }
    functions["ui"] = table.field("ui")
  }

  /// Each view kind as the kernel reads it (`prims.kind`): whether it has a builder, its
  /// properties' checks and flags, and the values a new view has; built once per process.
  private static let kindValues: [String: LuaValue] = {
    var kinds: [String: LuaValue] = [:]
    for kind in ViewRegistry.kinds {
      let fresh = kind.make()
      var props: [String: LuaValue] = [:]
      var defaults: [String: LuaValue] = [:]
      for property in kind.properties {
        props[property.name] = [
          "check": .string(property.check.rawValue), "writable": .boolean(property.writable),
          "interactive": .boolean(property.interactive), "deferred": .boolean(property.deferred),
        ]
        if property.name != "id", property.name != "kind" {
          let value = property.get(fresh)
          if value != .nil { defaults[property.name] = value }
        }
      }
      kinds[kind.name] = [
        "builder": .boolean(kind.builder), "props": .table(LuaTable(fields: props)),
        "defaults": .table(LuaTable(fields: defaults)),
      ]
    }
    return kinds
  }()

  /// The kinds with a `ui.<kind>` builder, sorted (`prims.builderNames`).
  private static let builderNames: LuaValue = .table(LuaTable(sequence: ViewRegistry.kinds.filter(\.builder).map(\.name).sorted().map(LuaValue.string)))

  /// A kernel function by name.
  func function(_ name: String) -> LuaRef {
    guard let function = functions[name] else { preconditionFailure("the kernel has no function '\(name)'") }
    return function
  }

  /// Runs the kernel function `name` (one protected call) and reads the batch it committed.
  /// If the call fails, the kernel undoes the event (in a call no limit can interrupt) and the
  /// error is thrown with what the kernel was running (`context` when it says nothing).
  func run(_ name: String, context: String?, pushArguments: (LuaStack) throws(LuaBridgeError) -> Int32) throws
    -> EngineBatch
  {
    do {
      return try runtime.call(function(name), context: nil, pushArguments: pushArguments) {
        [runtime] stack, _ throws(LuaBridgeError) in
        try EngineBatch(reading: stack, runtime: runtime)
      }
    } catch {
      let failedContext = abort()
      throw Self.classified(error).inContext(failedContext ?? context)
    }
  }

  /// Undoes the event under way; returns what the kernel was running when it failed.
  private func abort() -> String? {
    (try? runtime.call(function("abort"), context: "undoing the event", critical: true, pushArguments: { _ in 0 }) {
      stack, count throws(LuaBridgeError) in
      count > 0 ? stack.string(at: stack.top - count + 1) : nil
    }) ?? nil
  }

  /// Calls a reading function of the kernel (never interrupted) and returns its first result.
  func read(_ name: String, pushArguments: (LuaStack) throws(LuaBridgeError) -> Int32 = { _ in 0 }) -> LuaValue {
    (try? runtime.call(function(name), context: nil, critical: true, pushArguments: pushArguments) {
      stack, count throws(LuaBridgeError) in
      count > 0 ? try stack.value(at: stack.top - count + 1, path: LuaPath(root: name)) : .nil
    }) ?? .nil
  }

  /// Refines the kind of errors the kernel raised (they arrive as plain Lua errors).
  static func classified(_ error: ScriptError) -> ScriptError {
    guard error.kind == .runtime else { return error }
    var refined = error
    let message = error.message
    if message.contains("nested deeper than") || message.contains(" values (a table shared")
      || message.hasPrefix("more than ")
        && (message.contains(" views") || message.contains(" registrations") || message.contains(" effects running at once"))
    {
      refined.kind = .tooLarge
    } else if message.hasPrefix("more than "), message.contains(" actions in one event") {
      refined.kind = .budgetExceeded
    } else if message.hasSuffix("(schema)") || message.contains(": expected ") || message.hasPrefix("bad argument #")
      || message.contains("is not a valid value") || message.contains("not data") || message.contains("non-string key")
      || message.contains("list has a hole") || message.contains("contains itself")
      || message.contains("an action is a table with")
    {
      refined.kind = .typeMismatch
    }
    return refined
  }

  /// Applies checked writes to the views they name (nothing here can fail).
  static func apply(_ writes: [EngineBatch.Write], to views: [Int: View]) {
    for write in writes {
      guard let view = views[write.vid], let property = ViewRegistry.description(of: view).property(write.property) else {
        continue
      }
      property.set?(view, write.value)
    }
  }
}
