/// A handle on an observation; cancelling it (or releasing it) stops the notifications.
///
/// Returned by ``BindingStore/observe(_:)``. Keep it as long as you want updates:
///
/// ```swift
/// let token = store.observe { state in print(state) }
/// token.cancel()    // idempotent; releasing the token cancels too
/// ```
///
/// Fix (D-11): the cancellation closure runs **outside** the internal lock, exactly once, so a
/// closure that re-enters `cancel()` on the same token returns at once instead of deadlocking.
public final class StateObservationToken: @unchecked Sendable {
  private let cancellation: Locked<(() -> Void)?>

  /// Creates a token that runs `cancellation` the first time it is cancelled.
  ///
  /// - Parameter cancellation: the work that ends the observation.
  public init(_ cancellation: @escaping () -> Void) {
    self.cancellation = Locked(cancellation)
  }

  /// Whether ``cancel()`` has run (or the token was released).
  public var isCancelled: Bool {
    cancellation.withLock { $0 == nil }
  }

  /// Ends the observation. Calling it again does nothing.
  public func cancel() {
    let work = cancellation.withLock { slot -> (() -> Void)? in
      defer { slot = nil }
      return slot
    }
    work?()
  }

  deinit {
    cancel()
  }
}
