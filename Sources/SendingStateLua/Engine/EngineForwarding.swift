import SendingState
import SendingStateHeadless

/// The registrations of one host (the screen, a row, a unit) and their forwarding tree.
///
/// The tree is built when registrations change (when a screen or a row declares its events),
/// never per event: the core reads the same tree for every delivery and every sender list.
/// Each mapping yields one ``ScreenUIEvent`` — the engine finds the script's callbacks by its key.
@MainActor
final class EngineForwarding {
  private var registrations: [(sender: View, vid: Int, key: Int, event: SenderEvent)] = []
  private(set) var tree: any EventForwardable = EngineSenderMap([])
  /// How many times the tree (and its sender list) was built: on registration changes only.
  private(set) var builds = 0

  /// Adds a registration (the same sender and key once).
  func add(sender: View, vid: Int, key: Int, event: SenderEvent) {
    guard !registrations.contains(where: { $0.vid == vid && $0.key == key }) else { return }
    registrations.append((sender, vid, key, event))
  }

  /// Every registration's sender and event, in registration order.
  var senderEvents: [(sender: View, event: SenderEvent)] { registrations.map { ($0.sender, $0.event) } }

  /// The events registered on `sender`, in registration order.
  func events(of sender: View) -> [SenderEvent] {
    registrations.filter { $0.sender === sender }.map(\.event)
  }

  /// Builds the tree anew from the registrations.
  func rebuild() {
    builds += 1
    tree = EngineSenderMap(registrations.map { ($0.sender, $0.event, $0.vid, $0.key) })
  }
}

/// The engine's forwarding tree: its registrations in order, and an index by sender and event,
/// so a delivery is one lookup (a `SenderGroup` of `EventForwarder`s asks every child in turn
/// and erases each answer into a new array). Sender lists are computed once, at construction.
///
/// As in a `SenderGroup` (decision D-3), two registrations of one sender and event each give
/// their event, in order.
@MainActor
struct EngineSenderMap: EventForwardable {
  private struct Pair: Hashable {
    let sender: ObjectIdentifier
    let event: SenderEvent
  }

  private let entries: [(sender: View, event: SenderEvent, vid: Int, key: Int)]
  private let index: [Pair: [Int]]
  let allSenders: [AnyObject]

  init(_ entries: [(sender: View, event: SenderEvent, vid: Int, key: Int)]) {
    self.entries = entries
    var index: [Pair: [Int]] = [:]
    var senders: [AnyObject] = []
    var seen = Set<ObjectIdentifier>()
    for (position, entry) in entries.enumerated() {
      let id = ObjectIdentifier(entry.sender)
      index[Pair(sender: id, event: entry.event), default: []].append(position)
      if seen.insert(id).inserted { senders.append(entry.sender) }
    }
    self.index = index
    self.allSenders = senders
  }

  var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] {
    entries.map { ($0.sender, $0.event, [Self.uiEvent($0.event, vid: $0.vid, key: $0.key)]) }
  }

  var allEventKeys: [(sender: AnyObject, event: SenderEvent)] { entries.map { ($0.sender, $0.event) } }

  func actions(for sender: AnyObject, event: SenderEvent) -> [Any] {
    guard let positions = index[Pair(sender: ObjectIdentifier(sender), event: event)] else { return [] }
    return positions.map { position in
      let entry = entries[position]
      return Self.uiEvent(entry.event, vid: entry.vid, key: entry.key)
    }
  }

  /// The event a delivery of `event` gives; a gesture's carries the delivery's token and phase.
  private static func uiEvent(_ event: SenderEvent, vid: Int, key: Int) -> ScreenUIEvent {
    guard case .gesture = event, let delivery = GestureDelivery.current else {
      return ScreenUIEvent(vid: vid, key: key, token: nil, phase: nil)
    }
    return ScreenUIEvent(
      vid: vid, key: key, token: Int64(truncatingIfNeeded: UInt(bitPattern: delivery.token)), phase: delivery.state.description)
  }
}

/// A view that hosts script registrations: the screen's host, a list row, a unit host.
@MainActor
protocol EngineEventHost: View, EventForwardingProvider {
  /// Its registrations (set by the engine).
  var forwarding: EngineForwarding? { get set }
}

extension EngineEventHost {
  /// The forwarding tree the engine built.
  var engineTree: any EventForwardable { forwarding?.tree ?? SenderGroup {} }
}
