/// Collects the mappings of one ``EventForwarder``.
///
/// Besides plain lists it accepts `if`, `if/else`, optionals and `for` loops (upstream did not):
///
/// ```swift
/// EventForwarder(button) { _, ctx in
///   ctx.control(.touchUpInside) { [Action.tap] }
///   if logsTouches { ctx.control(.touchDown) { [Action.log] } }
/// }
/// ```
@MainActor
@resultBuilder
public enum SenderEventMappingBuilder<Action> {
  /// A list of mappings, as is.
  public static func buildExpression(_ mappings: SenderEventMappings<Action>) -> SenderEventMappings<Action> {
    mappings
  }

  /// Upstream's dictionary shape.
  public static func buildExpression(_ dictionary: [SenderEvent: () -> [Action]]) -> SenderEventMappings<Action> {
    SenderEventMappings(dictionary)
  }

  /// Merges the statements in order.
  public static func buildBlock(_ components: SenderEventMappings<Action>...) -> SenderEventMappings<Action> {
    buildArray(components)
  }

  /// `if` without `else`.
  public static func buildOptional(_ component: SenderEventMappings<Action>?) -> SenderEventMappings<Action> {
    component ?? SenderEventMappings()
  }

  /// The `if` branch.
  public static func buildEither(first component: SenderEventMappings<Action>) -> SenderEventMappings<Action> {
    component
  }

  /// The `else` branch.
  public static func buildEither(second component: SenderEventMappings<Action>) -> SenderEventMappings<Action> {
    component
  }

  /// A `for` loop.
  public static func buildArray(_ components: [SenderEventMappings<Action>]) -> SenderEventMappings<Action> {
    var merged = SenderEventMappings<Action>()
    for component in components {
      merged.merge(component)
    }
    return merged
  }

  /// `if #available`.
  public static func buildLimitedAvailability(_ component: SenderEventMappings<Action>) -> SenderEventMappings<Action> {
    component
  }
}
