/// A headless stack that lays its children out along an axis.
///
/// ```swift
/// let row = StackView(id: "buttons", axis: .horizontal, spacing: 8)
/// row.addSubview(Button(id: "minus", title: "-"))
/// ```
@MainActor
open class StackView: View {
  /// The direction children are laid out in.
  public enum Axis: String, Sendable, CaseIterable {
    /// Top to bottom.
    case vertical
    /// Left to right.
    case horizontal
  }

  /// The layout axis.
  public var axis: Axis
  /// The gap between children, in points.
  public var spacing: Double

  /// Creates a stack.
  public init(id: String? = nil, axis: Axis = .vertical, spacing: Double = 0) {
    self.axis = axis
    self.spacing = spacing
    super.init(id: id)
  }

  /// `"stack"`.
  open override var kind: String { "stack" }

  /// `axis`, `spacing`.
  open override var renderProperties: [RenderProperty] {
    [.init("axis", .string(axis.rawValue)), .init("spacing", .number(spacing))]
  }
}
