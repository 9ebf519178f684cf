/// A type-erased handler that holds its base weakly.
///
/// Actions of the wrong type, and actions arriving after the base is gone, are ignored:
///
/// ```swift
/// let erased = AnyActionHandlingProvider(handler)
/// erased.attach(to: counterView)   // idempotent
/// erased.detach(from: counterView)
/// ```
///
/// Decision (D-7, mirrors upstream): the registration owner is the wrapper, so two wrappers
/// around one handler are two owners and the handler receives each event twice.
public final class AnyActionHandlingProvider {
  private let forward: (Any) -> Void
  /// For a main-actor handler (a reducer store): the synchronous path SendingState's dispatch,
  /// which runs on the main actor, takes.
  private let forwardOnMainActor: (@MainActor (Any) -> Void)?

  /// Wraps `base` weakly.
  public init<T: ActionHandlingProvider>(_ base: T) {
    forward = { [weak base] action in
      guard let base, let typed = action as? T.Action else { return }
      base.handle(action: typed)
    }
    if let isolated = base as? any MainActorActionHandler {
      forwardOnMainActor = { [weak isolated] action in isolated?.handleOnMainActor(action) }
    } else {
      forwardOnMainActor = nil
    }
  }

  /// Forwards `action` from SendingState's dispatch (on the main actor).
  @MainActor
  func dispatch(_ action: Any) {
    if let forwardOnMainActor {
      forwardOnMainActor(action)
    } else {
      forward(action)
    }
  }

  /// Forwards `action` if it is the base's `Action` and the base is alive.
  public func handle(action: Any) {
    forward(action)
  }

  /// Registers this wrapper on `view` (same as `view.ss.addAnyActionHandler(to: self)`).
  @MainActor
  @discardableResult
  public func attach<V: EventForwardingProvider>(to view: V) -> [RegistrationIssue] {
    SendingState(view).addAnyActionHandler(to: self)
  }

  /// Removes this wrapper's registrations from `view`; others stay.
  @MainActor
  public func detach<V: EventForwardingProvider>(from view: V) {
    SendingState(view).removeAnyActionHandler(from: self)
  }
}
