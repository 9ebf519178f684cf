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
  private(set) var tree: any EventForwardable = BuiltForwarding(group: SenderGroup {})
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
    let list = registrations
    builds += 1
    tree = BuiltForwarding(group: SenderGroup {
      for registration in list {
        EventForwarder(registration.sender) { _, ctx in
          let vid = registration.vid
          let key = registration.key
          switch registration.event {
          case .control(let control):
            ctx.control(control.value) { [ScreenUIEvent(vid: vid, key: key, token: nil, phase: nil)] }
          case .gesture(let gesture):
            ctx.gesture(gesture) {
              let delivery = MainActor.assumeIsolated { GestureDelivery.current }
              return [
                ScreenUIEvent(
                  vid: vid, key: key, token: delivery.map { Int64(truncatingIfNeeded: UInt(bitPattern: $0.token)) },
                  phase: delivery?.state.description)
              ]
            }
          }
        }
      }
    })
  }
}

/// A built forwarding tree with its sender list computed once (every commit asks for the
/// senders, to hand them the state; the list changes only when the registrations do).
@MainActor
struct BuiltForwarding: EventForwardable {
  let group: SenderGroup
  let allSenders: [AnyObject]

  init(group: SenderGroup) {
    self.group = group
    self.allSenders = group.allSenders
  }

  var allMappings: [(sender: AnyObject, event: SenderEvent, actions: [Any])] { group.allMappings }
  var allEventKeys: [(sender: AnyObject, event: SenderEvent)] { group.allEventKeys }
  func actions(for sender: AnyObject, event: SenderEvent) -> [Any] { group.actions(for: sender, event: event) }
}

/// A view that hosts script registrations: the screen's host, a list row, a unit host.
@MainActor
protocol EngineEventHost: View, EventForwardingProvider {
  /// Its registrations (set by the engine).
  var forwarding: EngineForwarding? { get set }
}

extension EngineEventHost {
  /// Installs the engine's handler for every registration (only what is missing).
  func installHandler(_ handler: ScreenEventHandler) {
    ss.addActionHandler(to: handler)
  }

  /// Removes every handler (the screen closed).
  func removeHandlers() {
    ss.removeAllActionHandlers()
  }

  /// The forwarding tree the engine built.
  var engineTree: any EventForwardable { forwarding?.tree ?? SenderGroup {} }
}
