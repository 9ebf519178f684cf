/// Identifies one callback registered on a control or a gesture recognizer.
///
/// Returned by ``ControlEventEmitting/addAction(for:_:)`` and ``GestureRecognizing/addTarget(_:)``;
/// pass it back to remove that callback:
///
/// ```swift
/// let id = button.addAction(for: .touchUpInside) { print("tap") }
/// button.removeAction(id)
/// ```
public struct ActionTargetID: Hashable, Sendable {
  /// A number unique within the object that issued it.
  public let rawValue: UInt64

  /// Wraps a number.
  public init(rawValue: UInt64) {
    self.rawValue = rawValue
  }
}
