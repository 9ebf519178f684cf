/// A control-event registration: one callback on one control, owned by one handler.
final class ControlEventBox: AutoReleasable, @unchecked Sendable {
  private struct Slots {
    weak var control: (any ControlEventEmitting)?
    var actionID: ActionTargetID?
    var fire: (@MainActor () -> Void)?
  }

  private let slots: Locked<Slots>
  private weak var weakOwner: AnyObject?
  let event: SenderEvent?
  let hadOwner = true

  /// Registers a callback on `control` for `events` that runs `fire` while the box is enabled.
  @MainActor
  init(control: any ControlEventEmitting, events: ControlEvents, owner: AnyObject, fire: @escaping @MainActor () -> Void) {
    weakOwner = owner
    event = .control(.init(events))
    slots = Locked(Slots(control: control, actionID: nil, fire: fire))
    let id = control.addAction(for: events) { [weak self] in
      self?.slots.withLock { $0.fire }?()
    }
    slots.withLock { $0.actionID = id }
  }

  var owner: AnyObject? { weakOwner }

  func disable() {
    slots.withLock { $0.fire = nil }
  }

  @MainActor
  func detach() {
    let (control, id) = slots.withLock { slots in
      defer { slots.actionID = nil }
      return (slots.control, slots.actionID)
    }
    if let control, let id { control.removeAction(id) }
  }
}
