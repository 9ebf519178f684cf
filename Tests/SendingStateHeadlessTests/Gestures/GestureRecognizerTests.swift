import SendingState
import Testing

@testable import SendingStateHeadless

@Suite("Gesture recognizers: state machine and parameters")
@MainActor
struct GestureRecognizerTests {
  @Test("discrete kinds go possible → recognized; targets see the state; then reset to possible")
  func discreteSequence() throws {
    let tap = TapGestureRecognizer()
    var seen: [GestureState] = []
    tap.addTarget { [unowned tap] in seen.append(tap.state) }
    try tap.perform([.recognized])
    #expect(seen == [.recognized])
    #expect(tap.state == .possible)
  }

  @Test("continuous kinds go began → changed… → ended or cancelled")
  func continuousSequence() throws {
    let pan = PanGestureRecognizer()
    var seen: [GestureState] = []
    pan.addTarget { [unowned pan] in seen.append(pan.state) }
    try pan.perform([.began, .changed, .changed, .ended])
    try pan.perform([.began, .cancelled])
    #expect(seen == [.began, .changed, .changed, .ended, .began, .cancelled])
  }

  @Test("failed is reported to no target", arguments: SenderEvent.Gesture.Kind.named.map(\.kind))
  func failedIsSilent(kind: SenderEvent.Gesture.Kind) throws {
    let recognizer = GestureRecognizer.make(kind: kind, configuredBy: .init(kind: kind))
    var calls = 0
    recognizer.addTarget { calls += 1 }
    try recognizer.perform([.failed])
    #expect(calls == 0)
    #expect(recognizer.kind == kind)
  }

  @Test("invalid sequences throw, name the rule, and fire nothing")
  func invalidSequences() {
    let tap = TapGestureRecognizer()
    var calls = 0
    tap.addTarget { calls += 1 }
    #expect(throws: GestureTransitionError(kind: .tap, from: .possible, to: .began)) { try tap.perform([.began]) }
    let pan = PanGestureRecognizer()
    pan.addTarget { calls += 1 }
    #expect(throws: GestureTransitionError(kind: .pan, from: .possible, to: .changed)) {
      try pan.perform([.changed])
    }
    #expect(throws: GestureTransitionError.self) { try pan.perform([.began, .ended, .changed]) }
    #expect(calls == 0)
    #expect(pan.state == .possible)
    let message = GestureTransitionError(kind: .tap, from: .possible, to: .began).description
    #expect(message == "tap gesture cannot go from possible to began (a discrete gesture goes possible → recognized or failed)")
  }

  @Test("the factory configures each kind from the gesture key")
  func factory() throws {
    let tap = try #require(
      GestureRecognizer.make(kind: .tap, configuredBy: .init(kind: .tap, numberOfTaps: 2, numberOfTouches: 3))
        as? TapGestureRecognizer)
    #expect(tap.numberOfTapsRequired == 2 && tap.numberOfTouchesRequired == 3)
    let swipe = try #require(
      GestureRecognizer.make(kind: .swipe, configuredBy: .init(kind: .swipe, direction: .up)) as? SwipeGestureRecognizer)
    #expect(swipe.direction == .up)
    let edge = try #require(
      GestureRecognizer.make(kind: .screenEdge, configuredBy: .init(kind: .screenEdge, edges: .right))
        as? ScreenEdgePanGestureRecognizer)
    #expect(edge.edges == .right)
    let pan = try #require(
      GestureRecognizer.make(kind: .pan, configuredBy: .init(kind: .pan, numberOfTouches: 2)) as? PanGestureRecognizer)
    #expect(pan.minimumNumberOfTouches == 2)
    #expect(GestureRecognizer.make(kind: .hover, configuredBy: .init(kind: .hover)) is HoverGestureRecognizer)
    #expect(GestureRecognizer.make(kind: .pinch, configuredBy: .init(kind: .pinch)) is PinchGestureRecognizer)
    #expect(GestureRecognizer.make(kind: .rotation, configuredBy: .init(kind: .rotation)) is RotationGestureRecognizer)
    let press = try #require(
      GestureRecognizer.make(kind: .longPress, configuredBy: .init(kind: .longPress, minimumPressDuration: 2))
        as? LongPressGestureRecognizer)
    #expect(press.minimumPressDuration == 2)
  }
}
