/// A named property of a render-tree node.
///
/// ```swift
/// RenderProperty("title", .string("+"))
/// ```
public struct RenderProperty: Hashable, Sendable {
  /// The property name, as scripts and the CLI spell it (`text`, `isOn`, `min`…).
  public let name: String
  /// The value.
  public let value: RenderValue

  /// Creates a property.
  public init(_ name: String, _ value: RenderValue) {
    self.name = name
    self.value = value
  }
}
