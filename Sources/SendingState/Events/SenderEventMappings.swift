/// An ordered list of event → action-closure mappings for one sender.
///
/// What ``SenderEventMappingContext``'s methods return and what an ``EventForwarder``'s builder
/// collects. The same event added twice keeps its first position and concatenates the actions in
/// declaration order (one closure, one registration):
///
/// ```swift
/// let mappings = ctx.control(.touchUpInside) { ["a"] }
/// mappings[.control(.init(.touchUpInside))]?()   // ["a"]
/// ```
///
/// Decision (D-15): declaration order, not dictionary order.
public struct SenderEventMappings<Action> {
  /// The mappings, in first-declaration order.
  public private(set) var entries: [(event: SenderEvent, actions: () -> [Action])] = []

  /// An empty list.
  public init() {}

  /// A one-entry list.
  public init(event: SenderEvent, actions: @escaping () -> [Action]) {
    entries = [(event, actions)]
  }

  /// A list built from a dictionary (upstream's shape); its order is the dictionary's.
  public init(_ dictionary: [SenderEvent: () -> [Action]]) {
    for (event, actions) in dictionary {
      add(event, actions)
    }
  }

  /// The number of distinct events.
  public var count: Int { entries.count }

  /// The events, in order.
  public var events: [SenderEvent] { entries.map(\.event) }

  /// The closure for `event`, or `nil`.
  public subscript(event: SenderEvent) -> (() -> [Action])? {
    entries.first { $0.event == event }?.actions
  }

  /// Adds a mapping; an existing event gets `actions` appended after its own.
  public mutating func add(_ event: SenderEvent, _ actions: @escaping () -> [Action]) {
    if let index = entries.firstIndex(where: { $0.event == event }) {
      let earlier = entries[index].actions
      entries[index].actions = { earlier() + actions() }
    } else {
      entries.append((event, actions))
    }
  }

  /// Adds every mapping of `other`, in its order.
  public mutating func merge(_ other: SenderEventMappings<Action>) {
    for entry in other.entries {
      add(entry.event, entry.actions)
    }
  }
}
