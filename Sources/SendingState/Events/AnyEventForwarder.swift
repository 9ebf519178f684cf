/// A type-erased forwarding tree.
///
/// ```swift
/// let erased = AnyEventForwarder(EventForwarder(button) { _, ctx in ctx.control(.touchDown) { [1] } })
/// ```
@MainActor
public struct AnyEventForwarder: EventForwardable {
  /// The wrapped tree.
  public let base: any EventForwardable

  /// Wraps `base` (an `AnyEventForwarder` is unwrapped, not nested).
  public init(_ base: any EventForwardable) {
    if let erased = base as? AnyEventForwarder {
      self.base = erased.base
    } else {
      self.base = base
    }
  }

  /// The base's mappings.
  public var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] { base.allMappings }
  /// The base's senders (its own cheap implementation).
  public var allSenders: [AnyObject] { base.allSenders }
  /// The base's keys.
  public var allEventKeys: [(sender: AnyObject, event: SenderEvent)] { base.allEventKeys }

  /// The base's actions for the pair.
  public func actions(for sender: AnyObject, event: SenderEvent) -> [Any] {
    base.actions(for: sender, event: event)
  }
}
