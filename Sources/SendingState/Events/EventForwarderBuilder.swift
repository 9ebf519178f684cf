/// Collects the children of a ``SenderGroup``.
///
/// Accepts any ``EventForwardable``, plus `if`, `if/else`, optionals and `for` loops:
///
/// ```swift
/// SenderGroup {
///   EventForwarder(plus) { _, ctx in ctx.control(.touchUpInside) { [Action.increment] } }
///   for row in rows { row.eventForwarder }
/// }
/// ```
@MainActor
@resultBuilder
public enum EventForwarderBuilder {
  /// One tree.
  public static func buildExpression(_ expression: any EventForwardable) -> [AnyEventForwarder] {
    [AnyEventForwarder(expression)]
  }

  /// An optional tree (nothing when `nil`).
  public static func buildExpression(_ expression: (any EventForwardable)?) -> [AnyEventForwarder] {
    expression.map { [AnyEventForwarder($0)] } ?? []
  }

  /// The statements, flattened in order.
  public static func buildBlock(_ components: [AnyEventForwarder]...) -> [AnyEventForwarder] {
    components.flatMap { $0 }
  }

  /// `if` without `else`.
  public static func buildOptional(_ component: [AnyEventForwarder]?) -> [AnyEventForwarder] {
    component ?? []
  }

  /// The `if` branch.
  public static func buildEither(first component: [AnyEventForwarder]) -> [AnyEventForwarder] {
    component
  }

  /// The `else` branch.
  public static func buildEither(second component: [AnyEventForwarder]) -> [AnyEventForwarder] {
    component
  }

  /// A `for` loop.
  public static func buildArray(_ components: [[AnyEventForwarder]]) -> [AnyEventForwarder] {
    components.flatMap { $0 }
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: [AnyEventForwarder]) -> [AnyEventForwarder] {
    component
  }
}
