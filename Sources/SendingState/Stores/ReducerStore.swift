import Foundation
import Synchronization

/// A store driven by a pure ``Reducer``: the one place state changes, with effects for
/// everything else (TCA's Store, CombineFeedback's loop, inside SendingState's one-way model).
///
/// ```swift
/// let store = ReducerStore(initialState: Search(), reducer: searchReducer)
/// store.apply(to: searchView)                 // the binder renders every new state
/// searchView.ss.addActionHandler(to: store)   // its senders' actions go to the reducer
/// store.send(.queryChanged("tea"))            // or send directly
/// ```
///
/// Rules (decided once, documented in the README's "Stores and effects"):
/// - **One writer.** Only the reducer changes the state; ``state`` is read-only. When `send`
///   returns on an idle store, the state and every observer reflect the action (CF-4, TCA-1).
/// - **FIFO, no recursion.** Actions sent while one is processed (from observers, effects or
///   `.send`) are queued and processed after it, in order; chains of any length run in a loop,
///   not on the stack (CF-6, TCA-4). A reducer that calls `send` itself gets a diagnostic.
/// - **Notifications** follow the store's ``NotificationPolicy`` (coalesced per `send` by
///   default). For `Equatable` states an unchanged state notifies no one.
/// - **Threading.** `@MainActor`, like the views, so sending off the main actor does not
///   compile. ``handle(action:)`` (the protocol's `nonisolated` entry) called directly delivers
///   on the main actor shortly after, in the order it was called.
/// - **Effect lifetime.** Releasing the root store cancels its running effects (TCA-6); ids are
///   scoped per root store.
@MainActor
public final class ReducerStore<State, Action: Sendable> {
  /// The state observer type.
  public typealias Observer = @MainActor (State) -> Void

  private let read: @MainActor () -> State
  private let forward: @MainActor (Action) -> StoreTask
  private let listen: @MainActor (@escaping Observer) -> StateObservationToken
  private let isDuplicate: ((State, State) -> Bool)?
  /// The root's engine, kept alive by every store scoped from it.
  let engine: AnyObject
  private var binderToken: StateObservationToken?
  /// Actions handed to ``handle(action:)`` directly, waiting for the main actor, in order.
  private nonisolated let inbox = Mutex<(actions: [Action], scheduled: Bool)>(([], false))

  /// Creates a root store.
  ///
  /// - Parameters:
  ///   - initialState: the state before any action.
  ///   - reducer: the only code that changes the state.
  ///   - notifications: when observers hear about changes.
  ///   - diagnostics: receives ``StoreDiagnostic``s; by default they are printed to stderr.
  public convenience init(
    initialState: State, reducer: Reducer<State, Action>, notifications: NotificationPolicy = .coalesced,
    diagnostics: (@MainActor (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(root: initialState, reducer: reducer, isDuplicate: nil, notifications: notifications, diagnostics: diagnostics)
  }

  /// A root store with no equality skip and a chosen diagnostics sink (the test store's).
  package init(
    root initialState: State, reducer: Reducer<State, Action>, isDuplicate: ((State, State) -> Bool)?,
    notifications: NotificationPolicy, diagnostics: (@MainActor (StoreDiagnostic) -> Void)?
  ) {
    let engine = StoreEngine(
      state: initialState, reducer: reducer, isDuplicate: isDuplicate, policy: notifications,
      diagnose: diagnostics ?? { printDiagnostic($0) })
    self.engine = engine
    self.read = { engine.state }
    self.forward = { engine.send($0) }
    self.listen = { engine.subscribe($0) }
    self.isDuplicate = isDuplicate
  }

  init(
    engine: AnyObject, read: @escaping @MainActor () -> State, forward: @escaping @MainActor (Action) -> StoreTask,
    listen: @escaping @MainActor (@escaping Observer) -> StateObservationToken, isDuplicate: ((State, State) -> Bool)?
  ) {
    self.engine = engine
    self.read = read
    self.forward = forward
    self.listen = listen
    self.isDuplicate = isDuplicate
  }

  /// The current state (read-only: send an action to change it).
  public var state: State { read() }

  /// Processes `action` (and its synchronous follow-ups) now, or after the current action when
  /// the store is busy, and starts its effects.
  ///
  /// - Parameter action: the action.
  /// - Returns: the effects this send started, to await or cancel.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    forward(action)
  }

  /// Registers `observer` and calls it at once with the current state (RK-1, CF-1), then with
  /// every new state, per the store's ``NotificationPolicy``.
  ///
  /// For `Equatable` states, an observer is never called twice in a row with equal states.
  ///
  /// - Parameter observer: called on the main actor.
  /// - Returns: a token; cancel or release it to stop the notifications.
  @discardableResult
  public func observe(_ observer: @escaping Observer) -> StateObservationToken {
    let current = read()
    var last = current
    let isDuplicate = self.isDuplicate
    let token = listen { state in
      if let isDuplicate, isDuplicate(last, state) { return }
      last = state
      observer(state)
    }
    observer(current)
    return token
  }

  /// Keeps `binder` configured with this store's state: at once, then on every new state.
  ///
  /// Replaces the binder link this store had (a store drives one binder; scope a child store
  /// for another). For `Equatable` states an equal state does not reconfigure (VS-1).
  ///
  /// - Parameter binder: the view (or any ``Configurable``) whose input is this store's state.
  public func apply<Binder: Configurable>(to binder: Binder) where Binder.Input == State {
    binderToken?.cancel()
    binderToken = observe { [weak binder] state in
      guard let binder else { return }
      SendingState(binder).configure(state)
    }
  }

  /// The actions whose effects are still running, oldest first (the test store's bookkeeping).
  package var inFlightEffectOrigins: [String] {
    (engine as? any EffectBookkeeping)?.inFlightOrigins ?? []
  }

  /// Cancels every running effect of the root store (the test store's `skipInFlightEffects`).
  package func cancelAllEffects() {
    (engine as? any EffectBookkeeping)?.cancelAll()
  }

  /// Keeps a ``StateRendering`` binder rendering this store's state with history: at once
  /// (no old state, not animated), then each new state with the state it replaces; equal
  /// states are not rendered.
  ///
  /// - Parameter binder: the binder; held weakly.
  /// - Returns: a token; cancel or release it to stop rendering.
  public func render<Binder: StateRendering>(on binder: Binder) -> StateObservationToken where Binder.RenderState == State {
    var shown: State?
    return observe { [weak binder] state in
      guard let binder else { return }
      if let old = shown {
        binder.renderIfNeeded(state: state, oldState: old)
      } else {
        binder.render(state: state, oldState: nil, animated: false)
      }
      shown = state
    }
  }

  /// Stops configuring the binder given to ``apply(to:)``.
  public func detachBinder() {
    binderToken?.cancel()
    binderToken = nil
  }

  // MARK: - Scoping

  /// A child store on part of this store's state (CF-12, TCA-9).
  ///
  /// It reads `state` of this store's state and sends its actions here through `action`; it
  /// sees every change of the parent, and the parent sees every change it causes. A scoped
  /// store is a view on its parent, not a cache: scoping twice gives two stores that behave
  /// the same (closures cannot be compared, so a cache keyed by the key path alone could hand
  /// back a store that wraps actions another way).
  ///
  /// - Parameters:
  ///   - state: where the child's state lives.
  ///   - action: wraps a child action as one of this store's.
  public func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, action: @escaping @Sendable (ChildAction) -> Action
  ) -> ReducerStore<ChildState, ChildAction> {
    scoped(state: state, action: action, isDuplicate: nil)
  }

  /// A child store on part of this store's state, skipping equal child states.
  ///
  /// - Parameters:
  ///   - state: where the child's state lives.
  ///   - action: wraps a child action as one of this store's.
  public func scope<ChildState: Equatable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>, action: @escaping @Sendable (ChildAction) -> Action
  ) -> ReducerStore<ChildState, ChildAction> {
    scoped(state: state, action: action, isDuplicate: { $0 == $1 })
  }

  private func scoped<ChildState, ChildAction: Sendable>(
    state path: KeyPath<State, ChildState>, action embed: @escaping @Sendable (ChildAction) -> Action,
    isDuplicate: ((ChildState, ChildState) -> Bool)?
  ) -> ReducerStore<ChildState, ChildAction> {
    ReducerStore<ChildState, ChildAction>(
      engine: engine,
      read: { [self] in self.state[keyPath: path] },
      forward: { [self] in self.send(embed($0)) },
      listen: { [self] observer in self.listen { observer($0[keyPath: path]) } },
      isDuplicate: isDuplicate)
  }
}

extension ReducerStore where State: Equatable {
  /// Creates a root store for an `Equatable` state: an action that leaves the state equal
  /// notifies no one and re-renders nothing (VS-1).
  ///
  /// - Parameters:
  ///   - initialState: the state before any action.
  ///   - reducer: the only code that changes the state.
  ///   - notifications: when observers hear about changes.
  ///   - diagnostics: receives ``StoreDiagnostic``s; by default they are printed to stderr.
  public convenience init(
    initialState: State, reducer: Reducer<State, Action>, notifications: NotificationPolicy = .coalesced,
    diagnostics: (@MainActor (StoreDiagnostic) -> Void)? = nil
  ) {
    self.init(root: initialState, reducer: reducer, isDuplicate: { $0 == $1 }, notifications: notifications, diagnostics: diagnostics)
  }
}

extension ReducerStore: ActionHandlingProvider, MainActorActionHandler {
  /// Sends `action` to the store: the store as the handler of a view's senders
  /// (`view.ss.addActionHandler(to: store)`).
  ///
  /// SendingState's event dispatch runs on the main actor and hands the action over
  /// synchronously. Called directly (this method is `nonisolated`, as the protocol requires), the
  /// action is delivered on the main actor shortly after, never lost; main-actor code should call
  /// ``send(_:)`` instead, which the compiler keeps on the main actor.
  ///
  /// - Parameter action: the action a sender produced.
  public nonisolated func handle(action: Action) {
    let schedule = inbox.withLock { inbox -> Bool in
      inbox.actions.append(action)
      defer { inbox.scheduled = true }
      return !inbox.scheduled
    }
    guard schedule else { return }
    Task { @MainActor in
      // One delivery drains everything handed over so far, in order.
      while true {
        let batch = self.inbox.withLock { inbox -> [Action] in
          defer { inbox.actions.removeAll() }
          if inbox.actions.isEmpty { inbox.scheduled = false }
          return inbox.actions
        }
        if batch.isEmpty { return }
        for action in batch { self.send(action) }
      }
    }
  }

  func handleOnMainActor(_ action: Any) {
    guard let action = action as? Action else { return }
    send(action)
  }
}

/// The engine's effect bookkeeping, for stores that know only its type-erased reference.
@MainActor
protocol EffectBookkeeping: AnyObject {
  var inFlightOrigins: [String] { get }
  func cancelAll()
}

extension StoreEngine: EffectBookkeeping {}

private func printDiagnostic(_ diagnostic: StoreDiagnostic) {
  FileHandle.standardError.write(Data("SendingState: \(diagnostic)\n".utf8))
}
