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
    for (_, single) in ControlEvents.named where events.contains(single) {
      let matching = registrations.filter { $0.events.contains(single) }
      for registration in matching {
        registration.action()
      }
    }
  }

  /// `enabled`, `selected`.
  open override var renderProperties: [RenderProperty] {
    [.init("enabled", .bool(isEnabled)), .init("selected", .bool(isSelected))]
  }
}
