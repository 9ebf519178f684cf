/// Snapshotting a view tree.
extension View {
  /// The render tree of this view and its descendants (see ``RenderNode``).
  ///
  /// ```swift
  /// #expect(root.renderTree().text == expected)
  /// ```
  public func renderTree() -> RenderNode {
    var properties = renderProperties
    if isHidden { properties.append(.init("hidden", .bool(true))) }
    if alpha != 1 { properties.append(.init("alpha", .number(alpha))) }
    if !isEnabled, !(self is Control) { properties.append(.init("enabled", .bool(false))) }
    return RenderNode(kind: kind, id: id, properties: properties, children: subviews.map { $0.renderTree() })
  }
}
