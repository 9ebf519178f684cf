/// A control-event registration: one callback on one control, owned by one handler.
final class ControlEventBox: AutoReleasable, @unchecked Sendable {
  private struct Slots {
    weak var control: (any ControlEventEmitting)?
    var actionID: ActionTargetID?
  }

  private let slots: Locked<Slots>
  private weak var weakOwner: AnyObject?
  let event: SenderEvent?
  let hadOwner = true

  /// Registers `fire` on `control` for `events`.
  @MainActor
  init(control: any ControlEventEmitting, events: ControlEvents, owner: AnyObject, fire: @escaping @MainActor () -> Void) {
    weakOwner = owner
    event = .control(.init(events))
    let id = control.addAction(for: events, fire)
    slots = Locked(Slots(control: control, actionID: id))
  }

  var owner: AnyObject? { weakOwner }

  func cleanup() {
    let (control, id) = slots.withLock { slots in
      defer { slots.actionID = nil }
      return (slots.control, slots.actionID)
    }
    guard let control, let id else { return }
    onMainActor { control.removeAction(id) }
  }
}
