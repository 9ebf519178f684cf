import SendingStateHeadless

extension ViewRegistry {
  /// The render tree of `view` and its descendants as scripts see them: each node's
  /// properties are those of the registry, in its render order and with Lua's conventions
  /// (`selectedIndex`, a list's `first` and a row's `index` are 1-based). A view the registry
  /// does not describe (a Swift unit's own view: another kind, or a class other than the one
  /// its kind's name stands for) shows its own `View.renderedProperties`.
  ///
  /// This is the tree the CLI prints, specs snapshot and pictures and the preview draw.
  @MainActor
  static func renderTree(of view: View) -> RenderNode {
    let properties = known(view).map { kind in kind.renderOrder.compactMap { $0.rendered(on: view) } } ?? view.renderedProperties
    return RenderNode(kind: view.kind, id: view.id, properties: properties, children: view.subviews.map { renderTree(of: $0) })
  }
}
