/// A gesture recognizer as the core sees it: a state, a touch flag and targets.
///
/// The headless recognizers conform. The core adds one target per registration and filters
/// delivery by the recognizer's ``state`` at the time a target is called:
///
/// ```swift
/// let id = recognizer.addTarget { print(recognizer.state) }
/// ```
@MainActor
public protocol GestureRecognizing: AnyObject, Sendable {
  /// The current state.
  var state: GestureState { get }
  /// Whether recognition cancels touches in the view (the core sets it to `false`).
  var cancelsTouchesInView: Bool { get set }
  /// Registers a callback called on every state the recognizer reports.
  @discardableResult
  func addTarget(_ action: @escaping @MainActor () -> Void) -> ActionTargetID
  /// Removes the callback `id`.
  func removeTarget(_ id: ActionTargetID)
}
