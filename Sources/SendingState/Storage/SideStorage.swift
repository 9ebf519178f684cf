/// The per-object storage behind ``SideStorageProviding``: bound state, observer, registrations.
///
/// Create one per object and keep it in a stored `let`:
///
/// ```swift
/// let sideStorage = SideStorage()
/// ```
///
/// Its contents are internal to SendingState. Reads of the bound state are thread-safe (they are
/// nonisolated, as upstream's `ss.state()`); everything else is touched on the main actor.
public final class SideStorage: @unchecked Sendable {
  private struct Slots {
    var boundState: Any?
    var observer: StateObserver?
    var pool: EventBoxPool?
    var storeToken: StateObservationToken?
  }

  private let slots = Locked(Slots())

  /// Creates empty storage: no state, no observer, no registrations.
  public init() {}

  /// The object's bound state (upstream's `boundState`).
  var boundState: Any? {
    get { slots.withLock { $0.boundState } }
    set { slots.withLock { $0.boundState = newValue } }
  }

  /// The observer created by the first `ss.configure`, if any.
  /// Binds `state` as ``SendingState/state()`` reads it, running nothing and notifying no one:
  /// for a binder whose configure runs elsewhere (a Lua screen configures in its kernel and
  /// notifies its own store's observers).
  package func bind(_ state: Any?) {
    boundState = state
  }

  var observer: StateObserver? {
    slots.withLock { $0.observer }
  }

  /// Installs `observer` unless one exists; returns the one that is installed.
  func installObserver(_ make: () -> StateObserver) -> StateObserver {
    if let existing = observer { return existing }
    let created = make()
    return slots.withLock { slots in
      if let existing = slots.observer { return existing }
      slots.observer = created
      return created
    }
  }

  /// The pool of event boxes registered on this object as a sender, created lazily.
  var pool: EventBoxPool {
    slots.withLock { slots in
      if let pool = slots.pool { return pool }
      let pool = EventBoxPool()
      slots.pool = pool
      return pool
    }
  }

  /// The pool if one was ever created (does not create one).
  var existingPool: EventBoxPool? {
    slots.withLock { $0.pool }
  }

  /// Replaces the token through which a ``BindingStore`` writes back; returns the previous one.
  func replaceStoreToken(_ token: StateObservationToken?) -> StateObservationToken? {
    slots.withLock { slots in
      let previous = slots.storeToken
      slots.storeToken = token
      return previous
    }
  }
}
