import Foundation

/// Builds the mappings of one sender inside an ``EventForwarder``.
///
/// Every method returns a one-entry ``SenderEventMappings`` and comes in two forms, told apart by
/// the closure's parameter count:
/// - **stateless** `{ [actions] }`, which usually reads live sender properties at event time;
/// - **state-aware** `{ (state: Model) in [actions] }`, which receives the sender's bound state
///   **at the moment the event fires** (after the latest `configure`, `invalidateState` or cell
///   reuse). If the sender has no state of that type, it yields no actions.
///
/// ```swift
/// EventForwarder(favorite) { sender, ctx in
///   ctx.control(.valueChanged) { [Action.setFavorite(sender.isOn)] }
///   ctx.tapGesture(numberOfTaps: 2) { (product: Product) in [Action.open(product.id)] }
/// }
/// ```
public struct SenderEventMappingContext {
  /// The sender the mappings belong to (held strongly, as upstream; trees are transient).
  let sender: AnyObject?

  init(sender: AnyObject? = nil) {
    self.sender = sender
  }

  // MARK: - Control events

  /// Maps a control event mask.
  public func control<Action>(_ event: ControlEvents, _ actions: @escaping () -> [Action]) -> SenderEventMappings<Action> {
    SenderEventMappings(event: .control(.init(event)), actions: actions)
  }

  /// Maps a control event mask; the closure receives the sender's state at event time.
  public func control<Action, State>(_ event: ControlEvents, _ actions: @escaping (State) -> [Action])
    -> SenderEventMappings<Action>
  {
    SenderEventMappings(event: .control(.init(event)), actions: stateAware(actions))
  }

  // MARK: - Gestures

  /// Maps a gesture built by hand (see ``SenderEvent/Gesture/init(kind:states:numberOfTaps:numberOfTouches:direction:minimumPressDuration:edges:)``).
  public func gesture<Action>(_ event: SenderEvent.Gesture, _ actions: @escaping () -> [Action])
    -> SenderEventMappings<Action>
  {
    SenderEventMappings(event: .gesture(event), actions: actions)
  }

  /// Maps a gesture built by hand; state-aware.
  public func gesture<Action, State>(_ event: SenderEvent.Gesture, _ actions: @escaping (State) -> [Action])
    -> SenderEventMappings<Action>
  {
    SenderEventMappings(event: .gesture(event), actions: stateAware(actions))
  }

  /// Maps a tap (defaults: 1 tap, 1 touch, delivered when recognized).
  public func tapGesture<Action>(
    numberOfTaps: Int = 1, numberOfTouches: Int = 1, on states: Set<GestureState> = [.recognized],
    _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.tap(numberOfTaps, numberOfTouches, states), actions)
  }

  /// Maps a tap; state-aware.
  public func tapGesture<Action, State>(
    numberOfTaps: Int = 1, numberOfTouches: Int = 1, on states: Set<GestureState> = [.recognized],
    _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.tap(numberOfTaps, numberOfTouches, states), actions)
  }

  /// Maps a long press (defaults: 0.5 s, 0 taps, 1 touch, delivered on began and ended).
  public func longPressGesture<Action>(
    minimumPressDuration: TimeInterval = 0.5, numberOfTaps: Int = 0, numberOfTouches: Int = 1,
    on states: Set<GestureState> = [.began, .ended], _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.longPress(minimumPressDuration, numberOfTaps, numberOfTouches, states), actions)
  }

  /// Maps a long press; state-aware.
  public func longPressGesture<Action, State>(
    minimumPressDuration: TimeInterval = 0.5, numberOfTaps: Int = 0, numberOfTouches: Int = 1,
    on states: Set<GestureState> = [.began, .ended], _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.longPress(minimumPressDuration, numberOfTaps, numberOfTouches, states), actions)
  }

  /// Maps a swipe (defaults: to the right, 1 touch, delivered when recognized).
  public func swipeGesture<Action>(
    direction: SwipeDirection = .right, numberOfTouches: Int = 1, on states: Set<GestureState> = [.recognized],
    _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.swipe(direction, numberOfTouches, states), actions)
  }

  /// Maps a swipe; state-aware.
  public func swipeGesture<Action, State>(
    direction: SwipeDirection = .right, numberOfTouches: Int = 1, on states: Set<GestureState> = [.recognized],
    _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(Self.swipe(direction, numberOfTouches, states), actions)
  }

  /// Maps a pan (delivered on changed and ended by default).
  ///
  /// Fix (D-9): `minimumNumberOfTouches` sets the recognizer's minimum touch count (upstream had
  /// no way to). The default `nil` leaves the recognizer's own default (1).
  public func panGesture<Action>(
    minimumNumberOfTouches: Int? = nil, on states: Set<GestureState> = [.changed, .ended],
    _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .pan, states: states, numberOfTouches: minimumNumberOfTouches), actions)
  }

  /// Maps a pan; state-aware.
  public func panGesture<Action, State>(
    minimumNumberOfTouches: Int? = nil, on states: Set<GestureState> = [.changed, .ended],
    _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .pan, states: states, numberOfTouches: minimumNumberOfTouches), actions)
  }

  /// Maps a pinch (delivered on changed and ended by default).
  public func pinchGesture<Action>(
    on states: Set<GestureState> = [.changed, .ended], _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .pinch, states: states), actions)
  }

  /// Maps a pinch; state-aware.
  public func pinchGesture<Action, State>(
    on states: Set<GestureState> = [.changed, .ended], _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .pinch, states: states), actions)
  }

  /// Maps a rotation (delivered on changed and ended by default).
  public func rotationGesture<Action>(
    on states: Set<GestureState> = [.changed, .ended], _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .rotation, states: states), actions)
  }

  /// Maps a rotation; state-aware.
  public func rotationGesture<Action, State>(
    on states: Set<GestureState> = [.changed, .ended], _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .rotation, states: states), actions)
  }

  /// Maps a screen-edge pan (defaults: the left edge, delivered when recognized).
  public func screenEdgeGesture<Action>(
    edges: RectEdge = .left, on states: Set<GestureState> = [.recognized], _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .screenEdge, states: states, edges: edges), actions)
  }

  /// Maps a screen-edge pan; state-aware.
  public func screenEdgeGesture<Action, State>(
    edges: RectEdge = .left, on states: Set<GestureState> = [.recognized], _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .screenEdge, states: states, edges: edges), actions)
  }

  /// Maps a hover (delivered on changed by default).
  public func hoverGesture<Action>(
    on states: Set<GestureState> = [.changed], _ actions: @escaping () -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .hover, states: states), actions)
  }

  /// Maps a hover; state-aware.
  public func hoverGesture<Action, State>(
    on states: Set<GestureState> = [.changed], _ actions: @escaping (State) -> [Action]
  ) -> SenderEventMappings<Action> {
    gesture(.init(kind: .hover, states: states), actions)
  }

  // MARK: - Helpers

  private static func tap(_ taps: Int, _ touches: Int, _ states: Set<GestureState>) -> SenderEvent.Gesture {
    .init(kind: .tap, states: states, numberOfTaps: taps, numberOfTouches: touches)
  }

  private static func longPress(_ duration: TimeInterval, _ taps: Int, _ touches: Int, _ states: Set<GestureState>)
    -> SenderEvent.Gesture
  {
    .init(kind: .longPress, states: states, numberOfTaps: taps, numberOfTouches: touches, minimumPressDuration: duration)
  }

  private static func swipe(_ direction: SwipeDirection, _ touches: Int, _ states: Set<GestureState>)
    -> SenderEvent.Gesture
  {
    .init(kind: .swipe, states: states, numberOfTouches: touches, direction: direction)
  }

  /// Wraps a state-aware closure: reads the sender's bound state each time it is evaluated.
  private func stateAware<Action, State>(_ actions: @escaping (State) -> [Action]) -> () -> [Action] {
    let sender = self.sender
    return {
      guard let storable = sender as? any SideStorageProviding,
        let state = storable.sideStorage.boundState as? State
      else { return [] }
      return actions(state)
    }
  }
}
