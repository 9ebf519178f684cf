import SendingState
import SendingStateHeadless

/// Where a Lua screen's senders deliver: straight to the engine.
///
/// Each registration the kernel reports (a sender, an event key and the parsed event) gets one
/// callback on its sender when the batch that made it is applied: a control action for a
/// control event, a recognizer (one per single gesture kind) for a gesture. The callback
/// carries the registration's ids, so an event reaches ``ScreenEngine/deliver(_:)`` with no
/// lookup, no array and no cast on the way. (Swift users keep the core's forwarding trees and
/// action handlers; a screen's registrations are the kernel's, so the engine needs neither.)
///
/// A sender and key is installed once however often it is registered: the kernel runs every
/// callback of the pair (decision D-3 of the core). Callbacks hold the engine weakly; closing
/// the screen removes them all.
@MainActor
final class EngineSinks {
  private struct Pair: Hashable {
    let vid: Int
    let key: Int
  }

  private var installed: Set<Pair> = []
  private var removals: [() -> Void] = []

  /// How many callbacks and recognizers are installed (for tests).
  var count: Int { removals.count }

  /// Installs the delivery of `event` (key `key`) on `sender` (view `vid`), once per pair.
  func install(sender: View, vid: Int, key: Int, event: SenderEvent, engine: ScreenEngine) {
    guard installed.insert(Pair(vid: vid, key: key)).inserted else { return }
    switch event {
    case .control(let control):
      guard let emitter = sender as? any ControlEventEmitting else { return }
      let id = emitter.addAction(for: control.value) { [weak engine] in
        engine?.deliver(ScreenUIEvent(vid: vid, key: key, token: nil, phase: nil))
      }
      removals.append { [weak emitter] in emitter?.removeAction(id) }
    case .gesture(let gesture):
      for kind in gesture.kind.singleKinds {
        let recognizer = sender.makeGestureRecognizer(kind: kind, configuredBy: gesture)
        recognizer.cancelsTouchesInView = false
        sender.addGestureRecognizer(recognizer)
        let allowed = gesture.states
        let id = recognizer.addTarget { [weak engine, weak recognizer] in
          guard let engine, let recognizer else { return }
          let state = recognizer.state
          guard allowed.isEmpty || allowed.contains(state) else { return }
          // The token is the recognizer's identity: the same for every phase of one gesture.
          let token = Int64(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(recognizer)))
          engine.deliver(ScreenUIEvent(vid: vid, key: key, token: token, phase: state.description))
        }
        removals.append { [weak sender, weak recognizer] in
          guard let recognizer else { return }
          recognizer.removeTarget(id)
          sender?.removeGestureRecognizer(recognizer)
        }
      }
    }
  }

  /// Removes every callback and recognizer (the screen closed).
  func removeAll() {
    for remove in removals { remove() }
    removals.removeAll()
    installed.removeAll()
  }
}
