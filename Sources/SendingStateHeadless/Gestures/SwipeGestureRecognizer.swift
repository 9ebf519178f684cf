import SendingState

/// Recognizes a swipe in one of its directions (discrete).
///
/// ```swift
/// let dismiss = SwipeGestureRecognizer(direction: .left)
/// ```
@MainActor
public final class SwipeGestureRecognizer: GestureRecognizer {
  /// The accepted directions.
  public var direction: SwipeDirection
  /// Touches required.
  public var numberOfTouchesRequired: Int

  /// Creates a swipe recognizer.
  public init(direction: SwipeDirection = .right, numberOfTouchesRequired: Int = 1) {
    self.direction = direction
    self.numberOfTouchesRequired = numberOfTouchesRequired
    super.init(kind: .swipe)
  }

  /// A swipe in one of the accepted directions (default: any of them) with the required touches.
  public override func accepts(_ input: GestureInput) -> Bool {
    !(input.direction ?? direction).isDisjoint(with: direction) && (input.touches ?? 1) == numberOfTouchesRequired
  }

  /// `direction`, `touches`.
  public override var parameters: [RenderProperty] {
    [.init("direction", .string(direction.description)), .init("touches", .integer(numberOfTouchesRequired))]
  }
}
