/// A list of forwarding trees, flattened in declaration order; groups nest.
///
/// Use it to combine several senders, or to borrow child views' trees:
///
/// ```swift
/// var eventForwarder: any EventForwardable {
///   SenderGroup {
///     EventForwarder(plus) { _, ctx in ctx.control(.touchUpInside) { [Action.increment] } }
///     header.eventForwarder
///   }
/// }
/// ```
///
/// `actions(for:event:)` concatenates every child's result in order. Decision (D-3): when two
/// children map the same sender and event, registration installs **one** callback for the pair,
/// which delivers both children's actions once each (upstream installed two and delivered twice).
@MainActor
public struct SenderGroup: EventForwardable {
  /// The children, in declaration order.
  public let children: [AnyEventForwarder]

  /// Creates a group from the builder's children.
  public init(@EventForwarderBuilder _ content: () -> [AnyEventForwarder]) {
    self.children = content()
  }

  /// Every child's mappings, in order; evaluates every closure.
  public var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] {
    children.flatMap(\.allMappings)
  }

  /// Every child's senders, each once (decision D-6: deduplicated by identity).
  public var allSenders: [AnyObject] {
    uniqueByIdentity(children.flatMap(\.allSenders))
  }

  /// Every child's keys, in order, without evaluating closures.
  public var allEventKeys: [(sender: AnyObject, event: SenderEvent)] {
    children.flatMap(\.allEventKeys)
  }

  /// Every child's actions for the pair, concatenated in order.
  public func actions(for sender: AnyObject, event: SenderEvent) -> [Any] {
    children.flatMap { $0.actions(for: sender, event: event) }
  }
}
