import SendingState

/// Recognizes a pan that starts at one of its screen edges.
///
/// Continuous, like UIKit's: `recognized` is `ended`, so the mapping default (`[.recognized]`)
/// delivers once, when the pan ends.
///
/// ```swift
/// let back = ScreenEdgePanGestureRecognizer(edges: .left)
/// ```
@MainActor
public final class ScreenEdgePanGestureRecognizer: GestureRecognizer {
  /// The accepted edges.
  public var edges: RectEdge

  /// Creates a screen-edge recognizer.
  public init(edges: RectEdge = .left) {
    self.edges = edges
    super.init(kind: .screenEdge)
  }

  /// A pan from one of the accepted edges (default: any of them).
  public override func accepts(_ input: GestureInput) -> Bool {
    !(input.edge ?? edges).isDisjoint(with: edges)
  }

  /// `edges`.
  public override var parameters: [RenderProperty] {
    [.init("edges", .string(edges.description))]
  }
}
