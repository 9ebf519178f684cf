/// A tree of sender → event → actions mappings (the outbound half of SendingState).
///
/// ``EventForwarder`` (one sender), ``SenderGroup`` (a list of trees) and ``AnyEventForwarder``
/// conform. Actions are erased to `Any`; handlers keep the ones of their own `Action` type.
///
/// ```swift
/// let tree: any EventForwardable = SenderGroup {
///   EventForwarder(plus) { _, ctx in ctx.control(.touchUpInside) { [CounterAction.increment] } }
/// }
/// tree.actions(for: plus, event: .control(.init(.touchUpInside)))  // [increment]
/// ```
@MainActor
public protocol EventForwardable {
  /// Every mapping with its actions, in declaration order. **Evaluates every action closure.**
  var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] { get }
  /// Every sender named in the tree, each once, in first-declaration order. Evaluates nothing.
  var allSenders: [AnyObject] { get }
  /// Every (sender, event) pair in declaration order, without evaluating action closures.
  var allEventKeys: [(sender: AnyObject, event: SenderEvent)] { get }
  /// The actions the tree maps for `sender` (by identity) and `event`; `[]` if none.
  func actions(for sender: AnyObject, event: SenderEvent) -> [Any]
}

extension EventForwardable {
  /// Derived from ``allMappings`` (which evaluates closures); conformers should override it.
  public var allEventKeys: [(sender: AnyObject, event: SenderEvent)] {
    allMappings.map { ($0.sender, $0.event) }
  }

  /// Derived from ``allEventKeys``, deduplicated by identity (decision D-6).
  public var allSenders: [AnyObject] {
    uniqueByIdentity(allEventKeys.map(\.sender))
  }
}

/// `objects` with later duplicates (by identity) removed, order kept.
func uniqueByIdentity(_ objects: [AnyObject]) -> [AnyObject] {
  var seen = Set<ObjectIdentifier>()
  return objects.filter { seen.insert(ObjectIdentifier($0)).inserted }
}
