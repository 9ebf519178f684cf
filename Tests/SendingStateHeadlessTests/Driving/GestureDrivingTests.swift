import SendingState
import Testing

@testable import SendingStateHeadless

/// A screen with one card whose every gesture mapping records its name.
@MainActor
private final class GestureScreen: View, EventForwardingProvider {
  let card = View(id: "card")
  override init(id: String? = nil) {
    super.init(id: id)
    addSubview(card)
  }
  var eventForwarder: any EventForwardable {
    EventForwarder(card) { _, ctx in
      ctx.tapGesture { ["tap"] }
      ctx.tapGesture(numberOfTaps: 2) { ["doubleTap"] }
      ctx.longPressGesture(minimumPressDuration: 1) { ["longPress"] }
      ctx.swipeGesture(direction: .left) { ["swipeLeft"] }
      ctx.panGesture(minimumNumberOfTouches: 2) { ["pan"] }
      ctx.pinchGesture { ["pinch"] }
      ctx.rotationGesture { ["rotation"] }
      ctx.screenEdgeGesture(edges: .right) { ["screenEdge"] }
      ctx.hoverGesture { ["hover"] }
    }
  }
}

private final class Names: ActionHandlingProvider {
  var received: [String] = []
  func handle(action: String) { received.append(action) }
}

@Suite("Driving gestures: every kind through the core's registrations")
@MainActor
struct GestureDrivingTests {
  fileprivate func make() -> (GestureScreen, Names) {
    let screen = GestureScreen()
    let names = Names()
    screen.ss.addActionHandler(to: names)
    return (screen, names)
  }

  @Test("each kind delivers its mapping, with the default state set filtering", arguments: [
    ("tap", GestureInput(), ["tap"]),
    ("tap", GestureInput(taps: 2), ["doubleTap"]),
    ("longPress", GestureInput(duration: 1.5), ["longPress", "longPress"]),  // began + ended
    ("longPress", GestureInput(duration: 0.2), []),
    ("swipe", GestureInput(direction: .left), ["swipeLeft"]),
    ("swipe", GestureInput(direction: .right), []),
    ("pan", GestureInput(touches: 2, translation: (x: 10, y: 0)), ["pan", "pan"]),  // changed + ended
    ("pan", GestureInput(touches: 1), []),
    ("pinch", GestureInput(scale: 2), ["pinch", "pinch"]),
    ("rotation", GestureInput(rotation: 1), ["rotation", "rotation"]),
    ("screenEdge", GestureInput(edge: .right), ["screenEdge"]),  // ended == recognized
    ("screenEdge", GestureInput(edge: .left), []),
    ("hover", GestureInput(), ["hover"]),  // changed only
  ])
  func everyKind(kindName: String, input: GestureInput, expected: [String]) throws {
    let (screen, names) = make()
    let kind = try #require(SenderEvent.Gesture.Kind(name: kindName))
    try screen.card.simulateGesture(kind, input)
    #expect(names.received == expected)
  }

  @Test("continuous values reach the recognizer")
  func continuousValues() throws {
    let (screen, _) = make()
    try screen.card.simulateGesture(.pan, GestureInput(touches: 2, translation: (x: 40, y: -5)))
    try screen.card.simulateGesture(.pinch, GestureInput(scale: 3))
    let pan = try #require(screen.card.gestureRecognizers.compactMap { $0 as? PanGestureRecognizer }.first)
    let pinch = try #require(screen.card.gestureRecognizers.compactMap { $0 as? PinchGestureRecognizer }.first)
    #expect(pan.translation.x == 40 && pan.translation.y == -5)
    #expect(pinch.scale == 3)
  }

  @Test("an explicit state sequence is checked before anything fires")
  func explicitSequence() throws {
    let (screen, names) = make()
    #expect(throws: GestureTransitionError.self) { try screen.card.simulateGesture(.tap, states: [.began]) }
    #expect(names.received.isEmpty)
    try screen.card.simulateGesture(.longPress, GestureInput(duration: 2), states: [.began, .changed, .cancelled])
    #expect(names.received == ["longPress"])
  }

  @Test("a hidden view takes no gesture")
  func hiddenViewIgnoresGestures() throws {
    let (screen, names) = make()
    screen.card.isHidden = true
    #expect(try screen.card.simulateGesture(.tap) == 0)
    #expect(names.received.isEmpty)
  }
}
