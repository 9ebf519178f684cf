/// Maps the events of one sender to actions.
///
/// The content closure runs once, at construction, with the sender and a mapping context; all
/// its mappings share one `Action` type. The forwarder holds its sender strongly, so keep trees
/// transient (computed properties) and capture `self` weakly in action closures.
///
/// ```swift
/// EventForwarder(plusButton) { sender, ctx in
///   ctx.control(.touchUpInside) { [CounterAction.increment] }
///   ctx.longPressGesture { [CounterAction.reset] }
/// }
/// ```
@MainActor
public struct EventForwarder<Sender: AnyObject>: EventForwardable {
  /// The sender.
  public let sender: Sender
  private let mappings: SenderEventMappings<Any>

  /// Creates a forwarder for `sender`; `content` declares its mappings.
  ///
  /// - Parameters:
  ///   - sender: the object whose events are mapped.
  ///   - content: receives the sender and a ``SenderEventMappingContext``.
  public init<Action>(
    _ sender: Sender,
    @SenderEventMappingBuilder<Action> _ content: (Sender, SenderEventMappingContext) -> SenderEventMappings<Action>
  ) {
    self.sender = sender
    let typed = content(sender, SenderEventMappingContext(sender: sender))
    var erased = SenderEventMappings<Any>()
    for entry in typed.entries {
      let actions = entry.actions
      erased.add(entry.event) { actions().map { $0 as Any } }
    }
    self.mappings = erased
  }

  /// One entry per distinct event, in declaration order; evaluates every closure.
  public var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] {
    mappings.entries.map { (sender, $0.event, $0.actions()) }
  }

  /// `[sender]`.
  public var allSenders: [AnyObject] { [sender] }

  /// One key per distinct event, without evaluating closures.
  public var allEventKeys: [(sender: AnyObject, event: SenderEvent)] {
    mappings.entries.map { (sender, $0.event) }
  }

  /// The mapped actions when `sender` is this forwarder's sender (identity), else `[]`.
  public func actions(for sender: AnyObject, event: SenderEvent) -> [Any] {
    guard sender === self.sender else { return [] }
    return mappings[event]?() ?? []
  }
}
