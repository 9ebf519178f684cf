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
  private var trees: [ObjectIdentifier: (view: WeakView, tree: any EventForwardable)] = [:]

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

  /// The forwarding tree of `view`: the script declares it once per view instance, and the tree
  /// is built once from what it declared.
  public func forwarder(for view: View) -> any EventForwardable {
    let key = ObjectIdentifier(view)
    if let cached = trees[key], cached.view.view === view { return cached.tree }
    trees = trees.filter { $0.value.view.view != nil }
    let registrations: [LuaViewBridge.Registration]
    do {
      registrations = try bridge.declare(view, function: function)
    } catch {
      report(error)
      registrations = []
    }
    let tree = SenderGroup {
      for registration in registrations {
        EventForwarder(registration.sender) { _, ctx in
          switch registration.event {
          case .control(let control):
            ctx.control(control.value) { [weak self, weak view] (state: State) -> [Action] in
              guard let self, let view else { return [] }
              nonisolated(unsafe) var actions: [Action] = []
              nonisolated(unsafe) let model = state
              MainActor.assumeIsolated { actions = self.invoke(view, registration, state: model, phase: nil) }
              return actions
            }
          case .gesture(let gesture):
            ctx.gesture(gesture) { [weak self, weak view] (state: State) -> [Action] in
              guard let self, let view else { return [] }
              nonisolated(unsafe) var actions: [Action] = []
              nonisolated(unsafe) let model = state
              MainActor.assumeIsolated {
                actions = self.invoke(view, registration, state: model, phase: GestureDelivery.current?.state.description)
              }
              return actions
            }
          }
        }
      }
    }
    trees[key] = (WeakView(view: view), tree)
    return tree
  }

  private func invoke(_ view: View, _ registration: LuaViewBridge.Registration, state: State, phase: String?) -> [Action] {
    do {
      let push = try coding.prepare(state)
      let values = try bridge.event(view, registration: registration, phase: phase) { stack throws(LuaBridgeError) in
        try push(LuaStackAccess(stack: stack))
      }
      return try values.map { value in
        do {
          return try LuaValueDecoder(rootName: "action").decode(Action.self, from: value)
        } catch let error as LuaBridgeError {
          let context = "event on '\(registration.sender.id ?? registration.sender.kind)'"
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
