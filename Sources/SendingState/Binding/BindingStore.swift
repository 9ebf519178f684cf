import Foundation

/// Holds a state, presents it on a binder, and takes the binder's write-backs.
///
/// `apply(to:)` configures the binder with the state. When the binder later calls
/// `ss.invalidateState { … }`, the new state is re-applied to the binder **and written back**
/// here, which notifies this store's observers:
///
/// ```swift
/// let store = BindingStore<Counter, CounterView>(state: Counter(count: 1))
/// store.apply(to: view)                       // view configured with count 1
/// let token = store.observe { print($0.count) } // prints 1 at once
/// view.ss.invalidateState { (c: Counter) in Counter(count: c.count + 1) } // prints 2
/// ```
///
/// Rules: a binder writes back only to the last store applied to it; a store takes write-backs
/// only from the last binder it was applied to; the initial configure does not write back;
/// neither side retains the other. Setting ``state`` directly notifies observers but does not
/// reconfigure the binder.
///
/// Decision (D-18, mirrors upstream): every set notifies, with no equality check, because
/// `State` need not be `Equatable`. Observers are called in registration order (D-15), outside
/// the lock, so an observer may read ``state``. State reads and writes are thread-safe.
public final class BindingStore<State, Binder: Configurable & SideStorageProviding>: Presentable,
  Hashable, @unchecked Sendable
where Binder.Input == State {
  /// A state observer.
  public typealias Observer = (State) -> Void

  private let lock = NSRecursiveLock()
  private var storedState: State
  private var observers: [(id: UInt64, callback: Observer)] = []
  private var nextObserverID: UInt64 = 0
  private var binderToken: StateObservationToken?

  /// An optional name, for registries and diagnostics.
  public let identifier: String?

  /// Creates a store holding `state`.
  ///
  /// - Parameters:
  ///   - state: the initial state.
  ///   - identifier: an optional name.
  public init(state: State, identifier: String? = nil) {
    self.storedState = state
    self.identifier = identifier
  }

  /// The binder type this store presents on.
  public var binderType: Binder.Type { Binder.self }

  /// The current state. Setting it notifies every observer synchronously with the new value.
  public var state: State {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedState
    }
    set {
      lock.lock()
      storedState = newValue
      let current = observers
      lock.unlock()
      for observer in current {
        observer.callback(newValue)
      }
    }
  }

  /// Configures `binder` with the state and makes it write back here.
  ///
  /// Cancels the binder's previous store link and this store's previous binder link first.
  ///
  /// - Parameter binder: the object to present the state on.
  @MainActor
  public func apply(to binder: Binder) {
    binder.sideStorage.replaceStoreToken(nil)?.cancel()
    SendingState(binder).configure(state)
    guard let observer = binder.sideStorage.observer else { return }
    let token = observer.observe { [weak self] new in
      guard let self, let state = new as? State else { return }
      self.state = state
    }
    binder.sideStorage.replaceStoreToken(token)?.cancel()
    lock.lock()
    let previous = binderToken
    binderToken = token
    lock.unlock()
    if previous !== token { previous?.cancel() }
  }

  /// Registers `observer` and calls it at once, synchronously, with the current state.
  ///
  /// - Parameter observer: called with every new state, in registration order.
  /// - Returns: a token; cancel or release it to stop the notifications.
  @discardableResult
  public func observe(_ observer: @escaping Observer) -> StateObservationToken {
    lock.lock()
    nextObserverID += 1
    let id = nextObserverID
    observers.append((id, observer))
    let current = storedState
    lock.unlock()
    let token = StateObservationToken { [weak self] in
      self?.removeObserver(id)
    }
    observer(current)
    return token
  }

  /// Wraps the store in a type-erased ``AnyBindingStore`` (which retains it).
  public func eraseToAnyBindingStore() -> AnyBindingStore {
    AnyBindingStore(self)
  }

  /// The number of live observers (for diagnostics and tests).
  public var observerCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return observers.count
  }

  private func removeObserver(_ id: UInt64) {
    lock.lock()
    observers.removeAll { $0.id == id }
    lock.unlock()
  }

  /// Identity: two stores are equal only if they are the same object.
  public static func == (lhs: BindingStore, rhs: BindingStore) -> Bool {
    lhs === rhs
  }

  /// Hashes the object identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
