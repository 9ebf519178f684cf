/// Something a pool owns and cleans up: a registration box.
///
/// NB: cleanup comes in two halves. `disable()` (any thread) stops delivery at once;
/// `detach()` (main actor) removes what the box installed on the control or view.
protocol AutoReleasable: AnyObject, Sendable {
  /// The registration's owner (held weakly); `nil` once it is gone or for ownerless items.
  var owner: AnyObject? { get }
  /// Whether the item was created with an owner (so a `nil` ``owner`` means it died).
  var hadOwner: Bool { get }
  /// The event the item serves, if any.
  var event: SenderEvent? { get }
  /// Stops delivery. Safe from any thread; called at most once by the pool.
  func disable()
  /// Removes the installed callback or recognizer from its control or view.
  @MainActor func detach()
}

extension AutoReleasable {
  /// Disables now; detaches on the main actor's next turn (for cleanups off the main actor).
  func cleanup() {
    disable()
    Task { @MainActor in self.detach() }
  }

  /// Disables and detaches at once.
  @MainActor func cleanupNow() {
    disable()
    detach()
  }
}

/// The per-sender list of registration boxes (upstream's `SwiftPointerPool`).
///
/// Lives in the sender's side storage, so it dies with the sender and then cleans up every box.
/// Thread-safe; cleanup runs outside the lock and each item is cleaned exactly once.
final class EventBoxPool: @unchecked Sendable {
  private let items = Locked<[any AutoReleasable]>([])

  func insert(_ item: any AutoReleasable) {
    items.withLock { $0.append(item) }
  }

  var count: Int { items.withLock { $0.count } }

  /// The first item of type `T`.
  func find<T>(ofType type: T.Type) -> T? {
    items.withLock { $0.first { $0 is T } as? T }
  }

  /// Whether a live item of `owner` (by identity) exists, for `event` when given.
  func contains(owner: AnyObject, event: SenderEvent? = nil) -> Bool {
    items.withLock { items in
      items.contains { $0.owner === owner && (event == nil || $0.event == event) }
    }
  }

  /// Cleans up and removes the items of `owner`; ownerless items are never matched.
  @MainActor
  func remove(owner: AnyObject) {
    take { $0.owner === owner }.forEach { $0.cleanupNow() }
  }

  /// Cleans up and removes the items whose owner has been released.
  ///
  /// Fix (D-4): owners are compared by weak reference, never by address, so a new object that
  /// reuses a dead handler's address is not mistaken for it; this drops the dead one's boxes.
  @MainActor
  func removeDeadOwners() {
    take { $0.hadOwner && $0.owner == nil }.forEach { $0.cleanupNow() }
  }

  /// Cleans up and removes every item, at once. A second call does nothing.
  @MainActor
  func removeAll() {
    take { _ in true }.forEach { $0.cleanupNow() }
  }

  /// Cleans up and removes every item from any thread (detaching on the main actor).
  /// A second call does nothing.
  func cleanup() {
    take { _ in true }.forEach { $0.cleanup() }
  }

  private func take(where predicate: (any AutoReleasable) -> Bool) -> [any AutoReleasable] {
    items.withLock { items in
      let taken = items.filter(predicate)
      items.removeAll(where: predicate)
      return taken
    }
  }

  deinit {
    cleanup()
  }
}
