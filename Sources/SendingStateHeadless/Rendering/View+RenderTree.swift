/// Snapshotting a view tree.
extension View {
  /// The render tree of this view and its descendants (see ``RenderNode``), in the views' own
  /// terms (indices 0-based, as their Swift properties are).
  ///
  /// ```swift
  /// #expect(root.renderTree().text == expected)
  /// ```
  public func renderTree() -> RenderNode {
    RenderNode(kind: kind, id: id, properties: renderedProperties, children: subviews.map { $0.renderTree() })
  }

  /// This view's properties as its render-tree node shows them: ``renderProperties``, then
  /// `hidden` when hidden, `alpha` when not 1, and `enabled` when off (controls show it always).
  public var renderedProperties: [RenderProperty] {
    var properties = renderProperties
    if isHidden { properties.append(.init("hidden", .bool(true))) }
    if alpha != 1 { properties.append(.init("alpha", .number(alpha))) }
    if !isEnabled, !(self is Control) { properties.append(.init("enabled", .bool(false))) }
    return properties
  }
}
