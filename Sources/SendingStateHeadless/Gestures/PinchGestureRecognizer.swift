/// Recognizes a two-finger pinch (continuous) and reports its scale.
///
/// ```swift
/// view.simulateGesture(.pinch, GestureInput(scale: 2))
/// ```
@MainActor
public final class PinchGestureRecognizer: GestureRecognizer {
  /// The last scale factor.
  public private(set) var scale: Double = 1

  /// Creates a pinch recognizer.
  public init() {
    super.init(kind: .pinch)
  }

  /// Takes the input's scale.
  public override func apply(_ input: GestureInput) {
    if let scale = input.scale { self.scale = scale }
  }
}
