/// A gesture registration: one recognizer on one view, owned by one handler.
///
/// Delivers only when the recognizer's state is in `allowedStates` (empty: every state).
final class GestureEventBox: AutoReleasable, @unchecked Sendable {
  private struct Slots {
    weak var view: (any GestureHosting)?
    weak var recognizer: (any GestureRecognizing)?
    var targetID: ActionTargetID?
    var fire: (@MainActor () -> Void)?
  }

  private let slots: Locked<Slots>
  private weak var weakOwner: AnyObject?
  let event: SenderEvent?
  let hadOwner = true
  let allowedStates: Set<GestureState>

  /// Attaches `recognizer` to `view` and routes its callbacks through the state filter.
  @MainActor
  init(
    view: any GestureHosting, recognizer: any GestureRecognizing, gesture: SenderEvent.Gesture, owner: AnyObject,
    fire: @escaping @MainActor () -> Void
  ) {
    weakOwner = owner
    event = .gesture(gesture)
    allowedStates = gesture.states
    slots = Locked(Slots(view: view, recognizer: recognizer, targetID: nil, fire: fire))
    recognizer.cancelsTouchesInView = false
    view.addGestureRecognizer(recognizer)
    let id = recognizer.addTarget { [weak self] in self?.invoke() }
    slots.withLock { $0.targetID = id }
  }

  var owner: AnyObject? { weakOwner }

  /// The recognizer this box installed (owned by its view; until it is detached).
  var recognizer: (any GestureRecognizing)? { slots.withLock { $0.recognizer } }

  @MainActor
  private func invoke() {
    let (recognizer, fire) = slots.withLock { ($0.recognizer, $0.fire) }
    guard let recognizer, let fire else { return }
    guard allowedStates.isEmpty || allowedStates.contains(recognizer.state) else { return }
    GestureDelivery.deliver(recognizer.state, token: ObjectIdentifier(recognizer)) { fire() }
  }

  func disable() {
    slots.withLock { $0.fire = nil }
  }

  @MainActor
  func detach() {
    let (view, recognizer, id) = slots.withLock { slots in
      defer {
        slots.recognizer = nil
        slots.targetID = nil
      }
      return (slots.view, slots.recognizer, slots.targetID)
    }
    guard let recognizer else { return }
    if let id { recognizer.removeTarget(id) }
    view?.removeGestureRecognizer(recognizer)
  }
}
