import SendingState
import SendingStateHeadless

/// What a driver's views listen to, for tools that generate events (`sendingstate explore`).
extension ScreenDriver {
  /// The ids this driver reaches (the screen's, or one row's), sorted.
  package var reachableIDs: [String] { views.keys.sorted() }

  /// The view `id` and the events the screen registered on it, in registration order (empty
  /// when none); nil for an unknown id.
  package func registrations(of id: String) -> (view: View, events: [SenderEvent])? {
    guard let view = views[id] else { return nil }
    return (view, screen.engine.registeredEvents(on: view))
  }
}
