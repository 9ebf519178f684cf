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

  /// Every view of this driver with the events registered on it (none left out), from one pass
  /// over the registrations: ids sorted.
  package var allRegistrations: [(id: String, view: View, events: [SenderEvent])] {
    let bySender = screen.engine.registeredEventsBySender()
    return views.keys.sorted().compactMap { id in
      views[id].map { (id, $0, bySender[ObjectIdentifier($0)] ?? []) }
    }
  }
}
