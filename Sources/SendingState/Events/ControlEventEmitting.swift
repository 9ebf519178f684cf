/// A sender that emits control events through target-action (the `UIControl` role).
///
/// The headless `Control` conforms. Handler registration installs one callback per mapped event
/// mask and removes it when the handler is removed:
///
/// ```swift
/// let id = control.addAction(for: .valueChanged) { print("changed") }
/// control.removeAction(id)
/// ```
///
/// Contract: callbacks run synchronously, in registration order, when an event in their mask fires.
@MainActor
public protocol ControlEventEmitting: AnyObject, Sendable {
  /// Registers `action` for the events in `events`.
  @discardableResult
  func addAction(for events: ControlEvents, _ action: @escaping @MainActor () -> Void) -> ActionTargetID

  /// Removes the callback `id`. Unknown ids are ignored.
  func removeAction(_ id: ActionTargetID)
}
