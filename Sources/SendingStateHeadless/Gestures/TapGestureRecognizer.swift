/// Recognizes a number of taps with a number of touches (discrete).
///
/// ```swift
/// let doubleTap = TapGestureRecognizer(numberOfTapsRequired: 2)
/// ```
@MainActor
public final class TapGestureRecognizer: GestureRecognizer {
  /// Taps required.
  public var numberOfTapsRequired: Int
  /// Touches required.
  public var numberOfTouchesRequired: Int

  /// Creates a tap recognizer.
  public init(numberOfTapsRequired: Int = 1, numberOfTouchesRequired: Int = 1) {
    self.numberOfTapsRequired = numberOfTapsRequired
    self.numberOfTouchesRequired = numberOfTouchesRequired
    super.init(kind: .tap)
  }

  /// Exactly the required taps (default 1) and touches (default 1).
  public override func accepts(_ input: GestureInput) -> Bool {
    (input.taps ?? 1) == numberOfTapsRequired && (input.touches ?? 1) == numberOfTouchesRequired
  }

  /// `taps`, `touches`.
  public override var parameters: [RenderProperty] {
    [.init("taps", .integer(numberOfTapsRequired)), .init("touches", .integer(numberOfTouchesRequired))]
  }
}
