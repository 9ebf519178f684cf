import SendingState
import SendingStateHeadless

/// An action handler written in Lua for a Swift `BindingStore`.
///
/// The script returns `function(action, store)`. Actions arrive as Lua tables (``LuaValue``) or
/// encoded from Swift values. The script changes state **only** through `store:update(fn)` or
/// `store:set(t)`; each new state is decoded into the Swift `State` type before it is committed,
/// and a rejected or failing update changes nothing (the store keeps its state, observers are not
/// called, the error names file:line). Actions dispatched while one is handled
/// (`store:dispatch`) are queued and handled in order.
///
/// ```swift
/// let handler = try LuaActionHandler<CounterAction, Counter, CounterView>(
///   path: "counter_handler.lua", bridge: bridge, store: store, binder: view)
/// view.ss.addActionHandler(to: handler)
/// ```
///
/// With a `binder`, commits go through `binder.ss.invalidateState`, so the binder is
/// reconfigured and writes back into the store last applied to it; without one, the store's
/// state is set directly (observers run; no binder is reconfigured).
@MainActor
public final class LuaActionHandler<Action: Encodable, State: Codable, Binder: Configurable & SideStorageProviding>:
  @MainActor ActionHandlingProvider
where Binder.Input == State {
  /// The bridge (and runtime) the script runs in.
  public let bridge: LuaViewBridge
  /// The store the script changes.
  public let store: BindingStore<State, Binder>
  /// The binder commits go through, if any.
  public weak var binder: Binder?
  let function: LuaRef

  /// The last error `handle(action:)` swallowed.
  public private(set) var lastError: ScriptError?
  /// Called with every error `handle(action:)` swallowed.
  public var onError: ((ScriptError) -> Void)?

  /// Loads the script at `path`, which must return `function(action, store)`.
  public init(path: String, bridge: LuaViewBridge, store: BindingStore<State, Binder>, binder: Binder? = nil) throws {
    self.bridge = bridge
    self.store = store
    self.binder = binder
    self.function = try bridge.loadFunction(path, shape: "function(action, store)")
  }

  /// Handles `action` (the core calls this); errors go to ``lastError`` and ``onError``.
  public func handle(action: Action) {
    do {
      try perform(action)
    } catch {
      let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
      lastError = failure
      onError?(failure)
    }
  }

  /// Handles `action` and every action it dispatches (FIFO) as one event: each new state is
  /// decoded into `State` where the script makes it (a failure names that line), and the last
  /// one is committed once, or nothing is.
  public func perform(_ action: Action) throws {
    let actionValue: LuaValue
    let stateValue: LuaValue
    do {
      actionValue = try LuaValueEncoder(rootName: "action").encode(action)
      stateValue = try LuaValueEncoder(rootName: "state").encode(store.state)
    } catch {
      throw error.scriptError
    }
    var decoded: State?
    let changed = try bridge.handle(function: function, action: actionValue, state: stateValue) { value in
      do {
        decoded = try LuaValueDecoder(rootName: "state").decode(State.self, from: value)
      } catch let error as LuaBridgeError {
        throw error.scriptError
      }
    }
    guard changed, let committed = decoded else { return }
    if let binder, (SendingState(binder).state() as State?) != nil {
      // NB: the transform runs synchronously on this actor; the compiler cannot see that.
      nonisolated(unsafe) let value = committed
      SendingState(binder).invalidateState { (_: State) in value }
    } else {
      store.state = committed
    }
  }
}
