import SendingState
import SendingStateHeadless

/// An action handler written in Lua for a Swift ``BindingStore``.
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
  private var storeProxy: LuaRef?
  private let queue = ActionQueue()

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

  /// Handles `action` and throws the first error (the queue is dropped then).
  public func perform(_ action: Action) throws {
    let value: LuaValue
    do {
      value = try LuaValueEncoder(rootName: "action").encode(action)
    } catch {
      throw error.scriptError
    }
    try enqueue(value)
  }

  private func enqueue(_ action: LuaValue) throws {
    try queue.run(action) { next in
      let type = next["type"].stringValue.map { " (action '\($0)')" } ?? ""
      _ = try bridge.runtime.callReturningReferences(
        function, with: [bridge.runtime.makeValue(next), try storeReference()], context: "handle\(type)")
    }
  }

  private func storeReference() throws -> LuaRef {
    if let storeProxy { return storeProxy }
    let proxy = try bridge.makeStoreProxy(
      state: { [unowned self] in (try? LuaValueEncoder(rootName: "state").encode(self.store.state)) ?? .nil },
      commit: { [unowned self] new in try self.commit(new) },
      dispatch: { [unowned self] action in try self.enqueue(action) })
    storeProxy = proxy
    return proxy
  }

  /// Decodes `new` into `State` (the referee), then commits; all or nothing.
  private func commit(_ new: LuaValue) throws {
    guard !bridge.gate.isConfiguring else {
      throw ScriptError(kind: .runtime, message: "store updates are not allowed in configure (configure only reads state)")
    }
    let typed: State
    do {
      typed = try LuaValueDecoder(rootName: "state").decode(State.self, from: new)
    } catch {
      throw error.scriptError
    }
    if let binder, (SendingState(binder).state() as State?) != nil {
      // NB: the transform runs synchronously on this actor; the compiler cannot see that.
      nonisolated(unsafe) let committed = typed
      SendingState(binder).invalidateState { (_: State) in committed }
    } else {
      store.state = typed
    }
  }
}
