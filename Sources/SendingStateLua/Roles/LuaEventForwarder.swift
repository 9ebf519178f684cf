import SendingState
import SendingStateHeadless

/// An event forwarder written in Lua for a Swift view.
///
/// The script returns `function(view, on)` and declares sender → event → callback with
/// `on(view.<id>, event, function(state, sender) return actions end)`. Callbacks receive the
/// sender's state **at event time** (read-only) and the sender; the actions they return are
/// decoded into `Action` (use ``LuaValue`` to keep them as tables):
///
/// ```swift
/// final class ProductCard: StackView, Configurable, EventForwardingProvider {
///   static let events = try! LuaEventForwarder<Product, CardAction>(path: "card_events.lua", bridge: bridge, coding: .codable)
///   var eventForwarder: any EventForwardable { Self.events.forwarder(for: self) }
/// }
/// ```
///
/// Callbacks cannot write views or state (errors naming the line).
@MainActor
public final class LuaEventForwarder<State, Action: Decodable> {
  /// The bridge (and runtime) the script runs in.
  public let bridge: LuaViewBridge
  let function: LuaRef
  let coding: LuaModelCoding<State>
  private var registrations: [ObjectIdentifier: (view: WeakView, list: [LuaEventRegistration])] = [:]

  /// The last error a callback raised (the core's event path cannot throw).
  public private(set) var lastError: ScriptError?
  /// Called with every callback error.
  public var onError: ((ScriptError) -> Void)?

  /// Loads the script at `path`, which must return `function(view, on)`.
  public init(path: String, bridge: LuaViewBridge, coding: LuaModelCoding<State>) throws {
    self.bridge = bridge
    self.coding = coding
    self.function = try bridge.loadFunction(path, shape: "function(view, on)")
  }

  /// The forwarding tree of `view`; the script declares it once per view instance.
  public func forwarder(for view: View) -> any EventForwardable {
    let list: [LuaEventRegistration]
    do {
      list = try registrationList(for: view)
    } catch {
      report(error)
      list = []
    }
    return LuaViewBridge.forwardingTree(list) { [weak self] (registration: LuaEventRegistration, state: State) -> [Action] in
      self?.invoke(registration, state: state) ?? []
    }
  }

  private func registrationList(for view: View) throws -> [LuaEventRegistration] {
    let key = ObjectIdentifier(view)
    if let cached = registrations[key], cached.view.view === view { return cached.list }
    registrations = registrations.filter { $0.value.view.view != nil }
    var list: [LuaEventRegistration] = []
    let table = try bridge.viewsTable(for: view, owner: "\(type(of: view))")
    try bridge.gate.closed("views are read-only in events (declare mappings with on())") {
      let on = bridge.makeOnFunction { list.append($0) }
      _ = try bridge.runtime.callReturningReferences(function, with: [table, on], context: "events")
    }
    registrations[key] = (WeakView(view: view), list)
    return list
  }

  private func invoke(_ registration: LuaEventRegistration, state: State) -> [Action] {
    let context = "event '\(registration.eventName)' on '\(registration.senderName)'"
    do {
      let push = try coding.prepare(state)
      let sender = bridge.reference(for: registration.sender)
      let value = try bridge.gate.closed("views are read-only in event callbacks (return actions instead)") { () throws -> LuaValue in
        let stack = bridge.runtime.stack
        try push(LuaStackAccess(stack: stack))
        let data = LuaRef(runtime: bridge.runtime, reference: stack.ref())
        let proxy = try bridge.readonly(data, "state is read-only in event callbacks (return actions instead)")
        let results = try bridge.runtime.callReturningReferences(registration.callback, with: [proxy, sender], context: context)
        do {
          return try results.first?.value(path: "result") ?? .nil
        } catch let error as LuaBridgeError {
          throw error.scriptError.inContext(context)
        }
      }
      return try ScreenEvents.actions(from: value, context: context).map { action in
        do {
          return try LuaValueDecoder(rootName: "action").decode(Action.self, from: action)
        } catch let error as LuaBridgeError {
          throw error.scriptError.inContext(context)
        }
      }
    } catch {
      report(error)
      return []
    }
  }

  private func report(_ error: any Error) {
    let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
    lastError = failure
    onError?(failure)
  }
}
