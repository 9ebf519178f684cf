/// The per-binder engine behind `ss.configure` and `invalidateState` (internal, as upstream).
///
/// Created once, by the first `configure` of an object with side storage. It holds the binder
/// weakly, knows how to run its configurer and how to find its senders, and notifies observers
/// (the ``BindingStore`` write-back) in registration order (decision D-15).
@MainActor
final class StateObserver {
  private(set) weak var binder: (any SideStorageProviding)?
  private let configureBlock: (Any) -> Void
  /// NB: installed once, at creation (S12): the binder must be an ``EventForwardingProvider`` at
  /// its first configure for its senders to receive state.
  private let senderProvider: (() -> [any SideStorageProviding])?

  var state: Any?
  /// NB: lock-protected so a token cancelled on any thread removes its entry at once.
  private nonisolated let observers = Locked<(nextID: UInt64, list: [(id: UInt64, callback: (Any) -> Void)])>((0, []))

  init<Binder: Configurable>(binder: Binder) {
    self.binder = binder as? any SideStorageProviding
    self.configureBlock = { [weak binder] new in
      guard let binder, let input = new as? Binder.Input else { return }
      binder.configurer(binder, input)
    }
    if let provider = binder as? any EventForwardingProvider {
      self.senderProvider = { [weak provider] in
        guard let provider else { return [] }
        return provider.eventForwarder.allSenders.compactMap { $0 as? any SideStorageProviding }
      }
    } else {
      self.senderProvider = nil
    }
  }

  /// Stores `new`, binds it, runs the configurer, propagates to senders, notifies observers.
  ///
  /// An orphaned observer (binder gone) only notifies.
  func update(_ new: Any) {
    state = new
    if let binder {
      binder.sideStorage.boundState = new
      configureBlock(new)
      for sender in senderProvider?() ?? [] {
        sender.sideStorage.boundState = new
      }
    }
    for observer in observers.withLock({ $0.list }) {
      observer.callback(new)
    }
  }

  /// Registers `callback`; the token removes it when cancelled or released.
  func observe(notifyCurrentState: Bool = false, _ callback: @escaping (Any) -> Void) -> StateObservationToken {
    let id = observers.withLock { observers in
      observers.nextID += 1
      observers.list.append((observers.nextID, callback))
      return observers.nextID
    }
    if notifyCurrentState, let state {
      callback(state)
    }
    return StateObservationToken { [weak self] in
      self?.observers.withLock { $0.list.removeAll { $0.id == id } }
    }
  }

  var observerCount: Int { observers.withLock { $0.list.count } }
}
