import Foundation

/// Recognizes a press held for a minimum duration (continuous: began … ended).
///
/// ```swift
/// let hold = LongPressGestureRecognizer(minimumPressDuration: 1.2)
/// ```
@MainActor
public final class LongPressGestureRecognizer: GestureRecognizer {
  /// The minimum hold, in seconds.
  public var minimumPressDuration: TimeInterval
  /// Taps before the press.
  public var numberOfTapsRequired: Int
  /// Touches required.
  public var numberOfTouchesRequired: Int

  /// Creates a long-press recognizer.
  public init(minimumPressDuration: TimeInterval = 0.5, numberOfTapsRequired: Int = 0, numberOfTouchesRequired: Int = 1) {
    self.minimumPressDuration = minimumPressDuration
    self.numberOfTapsRequired = numberOfTapsRequired
    self.numberOfTouchesRequired = numberOfTouchesRequired
    super.init(kind: .longPress)
  }

  /// A hold at least as long as required (default: exactly that), the required taps and touches.
  public override func accepts(_ input: GestureInput) -> Bool {
    (input.duration ?? minimumPressDuration) >= minimumPressDuration
      && (input.taps ?? numberOfTapsRequired) == numberOfTapsRequired
      && (input.touches ?? 1) == numberOfTouchesRequired
  }

  /// `duration`, `taps`, `touches`.
  public override var parameters: [RenderProperty] {
    [
      .init("duration", .number(minimumPressDuration)), .init("taps", .integer(numberOfTapsRequired)),
      .init("touches", .integer(numberOfTouchesRequired)),
    ]
  }
}
