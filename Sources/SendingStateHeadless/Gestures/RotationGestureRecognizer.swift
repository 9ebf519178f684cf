/// Recognizes a two-finger rotation (continuous) and reports its angle.
///
/// ```swift
/// view.simulateGesture(.rotation, GestureInput(rotation: .pi / 2))
/// ```
@MainActor
public final class RotationGestureRecognizer: GestureRecognizer {
  /// The last rotation, in radians.
  public private(set) var rotation: Double = 0

  /// Creates a rotation recognizer.
  public init() {
    super.init(kind: .rotation)
  }

  /// Takes the input's rotation.
  public override func apply(_ input: GestureInput) {
    if let rotation = input.rotation { self.rotation = rotation }
  }
}
