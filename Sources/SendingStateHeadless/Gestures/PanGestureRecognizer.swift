/// Recognizes a drag (continuous) and reports its translation.
///
/// ```swift
/// view.simulateGesture(.pan, GestureInput(translation: (x: 40, y: 0)))
/// ```
@MainActor
public final class PanGestureRecognizer: GestureRecognizer {
  /// The fewest touches that can pan.
  public var minimumNumberOfTouches: Int
  /// The last translation, in points.
  public private(set) var translation: (x: Double, y: Double) = (0, 0)

  /// Creates a pan recognizer.
  public init(minimumNumberOfTouches: Int = 1) {
    self.minimumNumberOfTouches = minimumNumberOfTouches
    super.init(kind: .pan)
  }

  /// At least the minimum touches (default: exactly the minimum).
  public override func accepts(_ input: GestureInput) -> Bool {
    (input.touches ?? minimumNumberOfTouches) >= minimumNumberOfTouches
  }

  /// Takes the input's translation.
  public override func apply(_ input: GestureInput) {
    if let moved = input.translation { translation = moved }
  }

  /// `minTouches`.
  public override var parameters: [RenderProperty] {
    [.init("minTouches", .integer(minimumNumberOfTouches))]
  }
}
