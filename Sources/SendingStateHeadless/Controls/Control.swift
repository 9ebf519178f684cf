import SendingState

/// A headless control: target-action for control events (the `UIControl` role).
///
/// Callbacks are registered per event mask and fire synchronously, in registration order.
/// Changing a property in code never fires events; the `simulate…` driving methods do, as a
/// user would:
///
/// ```swift
/// let id = button.addAction(for: .touchUpInside) { print("tapped") }
/// button.simulateTap()       // prints "tapped"
/// button.removeAction(id)
/// ```
@MainActor
open class Control: View, ControlEventEmitting {
  private struct Registration {
    let id: ActionTargetID
    let events: ControlEvents
    let action: @MainActor () -> Void
  }

  /// Whether the control is selected.
  public var isSelected = false
  private var registrations: [Registration] = []
  private var nextActionID: UInt64 = 0

  /// `"control"`.
  open override var kind: String { "control" }

  /// Registers `action` for every event in `events`.
  @discardableResult
  public func addAction(for events: ControlEvents, _ action: @escaping @MainActor () -> Void) -> ActionTargetID {
    nextActionID += 1
    let id = ActionTargetID(rawValue: nextActionID)
    registrations.append(Registration(id: id, events: events, action: action))
    return id
  }

  /// Removes the callback `id`; unknown ids are ignored.
  public func removeAction(_ id: ActionTargetID) {
    registrations.removeAll { $0.id == id }
  }

  /// The number of registered callbacks, for all events or those whose mask meets `events`.
  public func actionCount(for events: ControlEvents = .allEvents) -> Int {
    registrations.filter { !$0.events.isDisjoint(with: events) }.count
  }

  /// Fires `events` programmatically (like `UIControl.sendActions(for:)`), one event at a time
  /// in `ControlEvents.named` order; each callback whose mask contains the event runs once,
  /// in registration order. Works even when the control is disabled.
  public func sendActions(for events: ControlEvents) {
    // One bit at a time, lowest first: `named` lists the events in bit order. Each event sees
    // the registrations as they are when it fires (a callback may add or remove some), without
    // building a list of the matching ones (this runs for every tap of every control).
    var bits = events.rawValue & ControlEvents.allEvents.rawValue
    while bits != 0 {
      let single = ControlEvents(rawValue: bits & (~bits &+ 1))
      bits &= bits &- 1
      let current = registrations
      for registration in current where registration.events.contains(single) {
        registration.action()
      }
    }
  }

  /// `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("enabled", .bool(isEnabled)), .init("selected", .bool(isSelected))]
  }
}
