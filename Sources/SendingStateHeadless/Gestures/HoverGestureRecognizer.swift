/// Recognizes a pointer hovering over the view (continuous; mappings default to `changed`).
///
/// ```swift
/// view.simulateGesture(.hover)
/// ```
@MainActor
public final class HoverGestureRecognizer: GestureRecognizer {
  /// Creates a hover recognizer.
  public init() {
    super.init(kind: .hover)
  }
}
