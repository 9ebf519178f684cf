import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("Event mapping and forwarding trees (checklist 36–45)")
@MainActor
struct EventMappingTests {
  let ctx = SenderEventMappingContext()

  @Test("C36: ctx.control(e) is a single-entry map keyed by .control(e) returning the actions")
  func c36_controlMapping() throws {
    let mapping = ctx.control(.touchUpInside) { [TestAction.sendClickLog] }
    #expect(mapping.count == 1)
    let actions = try #require(mapping[.control(.init(.touchUpInside))])
    #expect(actions() == [.sendClickLog])
  }

  @Test("C37: gesture method defaults, and custom arguments stored unchanged")
  func c37_gestureDefaults() {
    func key(_ mappings: SenderEventMappings<Int>) -> SenderEvent.Gesture? {
      if case .gesture(let gesture) = mappings.events.first { return gesture }
      return nil
    }
    #expect(key(ctx.tapGesture { [1] }) == .init(kind: .tap, states: [.recognized], numberOfTaps: 1, numberOfTouches: 1))
    #expect(
      key(ctx.longPressGesture { [1] })
        == .init(kind: .longPress, states: [.began, .ended], numberOfTaps: 0, numberOfTouches: 1, minimumPressDuration: 0.5))
    #expect(key(ctx.swipeGesture { [1] }) == .init(kind: .swipe, states: [.recognized], numberOfTouches: 1, direction: .right))
    #expect(key(ctx.panGesture { [1] }) == .init(kind: .pan, states: [.changed, .ended]))
    #expect(key(ctx.pinchGesture { [1] }) == .init(kind: .pinch, states: [.changed, .ended]))
    #expect(key(ctx.rotationGesture { [1] }) == .init(kind: .rotation, states: [.changed, .ended]))
    #expect(key(ctx.screenEdgeGesture { [1] }) == .init(kind: .screenEdge, states: [.recognized], edges: .left))
    #expect(key(ctx.hoverGesture { [1] }) == .init(kind: .hover, states: [.changed]))

    let custom = key(ctx.longPressGesture(minimumPressDuration: 1.2, numberOfTaps: 7, numberOfTouches: 2, on: [.changed]) { [1] })
    #expect(custom?.minimumPressDuration == 1.2)
    #expect(custom?.numberOfTaps == 7)
    #expect(custom?.numberOfTouches == 2)
    #expect(custom?.states == [.changed])
    #expect(key(ctx.swipeGesture(direction: .left, numberOfTouches: 3) { [1] })?.direction == .left)
    #expect(key(ctx.screenEdgeGesture(edges: .right) { [1] })?.edges == .right)
    #expect(key(ctx.panGesture(minimumNumberOfTouches: 2) { [1] })?.numberOfTouches == 2)  // D-9

    // Gesture.standard(kind) states the same defaults (the Lua host and tools use it).
    let methods: [(SenderEvent.Gesture.Kind, SenderEventMappings<Int>)] = [
      (.tap, ctx.tapGesture { [1] }), (.longPress, ctx.longPressGesture { [1] }), (.swipe, ctx.swipeGesture { [1] }),
      (.pan, ctx.panGesture { [1] }), (.pinch, ctx.pinchGesture { [1] }), (.rotation, ctx.rotationGesture { [1] }),
      (.screenEdge, ctx.screenEdgeGesture { [1] }), (.hover, ctx.hoverGesture { [1] }),
    ]
    for (kind, mappings) in methods {
      #expect(key(mappings) == SenderEvent.Gesture.standard(kind), "\(kind)")
    }
  }

  @Test("C38: Gesture equality covers every field; Control equality is by raw mask")
  func c38_keyEquality() {
    let tap = ctx.tapGesture { [1] }.events[0]
    let doubleTap = ctx.tapGesture(numberOfTaps: 2) { [1] }.events[0]
    #expect(tap != doubleTap)
    #expect(Set([tap, doubleTap, ctx.tapGesture { [2] }.events[0]]).count == 2)
    #expect(SenderEvent.control(.init(.touchDown)) == .control(.init(.touchDown)))
    #expect(SenderEvent.control(.init([.touchDown, .touchUpInside])) != .control(.init(.touchDown)))
    // D-8: the public initializer makes ctx.gesture usable from client code.
    let custom = SenderEvent.Gesture(kind: .tap, states: [], numberOfTaps: 3)
    #expect(ctx.gesture(custom) { [1] }.events == [.gesture(custom)])
  }

  @Test("C39: the state-aware overload reads the sender's state at evaluation time")
  func c39_stateAwareReadsAtEvaluation() {
    let button = Button()
    let forwarder = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { (model: Model) in [TestAction.buttonTapped(model.value)] }
    }
    let event = SenderEvent.control(.init(.touchUpInside))
    button.sideStorage.boundState = Model(value: 1)
    #expect(forwarder.actions(for: button, event: event) as? [TestAction] == [.buttonTapped(1)])
    button.sideStorage.boundState = Model(value: 2)
    #expect(forwarder.actions(for: button, event: event) as? [TestAction] == [.buttonTapped(2)])
  }

  @Test("C40: the state-aware overload yields [] with no state or a mismatched type")
  func c40_stateAwareEmptyWithoutState() {
    let button = Button()
    let forwarder = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { (model: Model) in [TestAction.buttonTapped(model.value)] }
    }
    let event = SenderEvent.control(.init(.touchUpInside))
    #expect(forwarder.actions(for: button, event: event).isEmpty)
    button.sideStorage.boundState = "not a model"
    #expect(forwarder.actions(for: button, event: event).isEmpty)
  }

  @Test("C41: actions(for:event:) returns mapped actions in order; [] for another sender or event")
  func c41_actionsLookup() {
    let button = Button()
    let forwarder = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { [TestAction.buttonTapped(1), .sendClickLog, .custom("x")] }
    }
    #expect(
      forwarder.actions(for: button, event: .control(.init(.touchUpInside))) as? [TestAction] == [
        .buttonTapped(1), .sendClickLog, .custom("x"),
      ])
    #expect(forwarder.actions(for: Button(), event: .control(.init(.touchUpInside))).isEmpty)
    #expect(forwarder.actions(for: button, event: .control(.init(.touchDown))).isEmpty)
  }

  @Test("C42: the same event declared twice concatenates in declaration order (one mapping)")
  func c42_sameEventConcatenates() {
    let button = Button()
    let forwarder = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { [1] }
      ctx.control(.touchDown) { [9] }
      ctx.control(.touchUpInside) { [2, 3] }
    }
    #expect(forwarder.allMappings.count == 2)
    #expect(forwarder.actions(for: button, event: .control(.init(.touchUpInside))) as? [Int] == [1, 2, 3])
    // D-15: declaration order, deterministic.
    #expect(forwarder.allEventKeys.map(\.event) == [.control(.init(.touchUpInside)), .control(.init(.touchDown))])
  }

  @Test("C43: SenderGroup flattens children in order, nested included; an empty group is valid")
  func c43_groupFlattens() {
    let a = Button()
    let b = Button()
    let c = Button()
    let group = SenderGroup {
      EventForwarder(a) { _, ctx in ctx.control(.touchUpInside) { [1] } }
      SenderGroup {
        EventForwarder(b) { _, ctx in ctx.control(.touchUpInside) { [2] } }
        EventForwarder(c) { _, ctx in ctx.control(.touchUpInside) { [3] } }
      }
    }
    #expect(group.allMappings.count == 3)
    #expect(group.allMappings.map { $0.actions as? [Int] } == [[1], [2], [3]])
    #expect(group.allSenders.map(ObjectIdentifier.init) == [a, b, c].map(ObjectIdentifier.init))
    let empty = SenderGroup {}
    #expect(empty.allMappings.isEmpty)
    #expect(empty.actions(for: a, event: .control(.init(.touchUpInside))).isEmpty)
  }

  @Test("C43b: builders accept if, if/else, optionals and for loops")
  func c43b_builderControlFlow() {
    let buttons = [Button(), Button(), Button()]
    let includeDown = true
    let optional: (any EventForwardable)? = nil
    let group = SenderGroup {
      for (index, button) in buttons.enumerated() {
        EventForwarder(button) { _, ctx in
          ctx.control(.touchUpInside) { [index] }
          if includeDown { ctx.control(.touchDown) { [index * 10] } }
          if index == 0 {
            ctx.control(.valueChanged) { [-1] }
          } else {
            ctx.control(.editingChanged) { [-2] }
          }
          for extra in 0..<index { ctx.control(.touchUpOutside) { [extra] } }
        }
      }
      optional
      if buttons.isEmpty { EventForwarder(buttons[0]) { _, ctx in ctx.control(.touchDown) { [0] } } }
    }
    #expect(group.allEventKeys.count == 3 + 3 + 3 + 2)
    #expect(group.actions(for: buttons[2], event: .control(.init(.touchUpOutside))) as? [Int] == [0, 1])
    #expect(group.actions(for: buttons[0], event: .control(.init(.valueChanged))) as? [Int] == [-1])
    #expect(group.actions(for: buttons[1], event: .control(.init(.editingChanged))) as? [Int] == [-2])
  }

  @Test("C44: AnyEventForwarder preserves mapping count, sender identity, keys and action count")
  func c44_anyEventForwarder() {
    let button = Button()
    let base = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { [1, 2] }
      ctx.tapGesture { [3] }
    }
    let erased = AnyEventForwarder(base)
    #expect(erased.allMappings.count == base.allMappings.count)
    #expect(erased.allSenders.first === button)
    #expect(erased.allEventKeys.map(\.event) == base.allEventKeys.map(\.event))
    #expect(erased.actions(for: button, event: .control(.init(.touchUpInside))).count == 2)
    #expect(AnyEventForwarder(erased).base is EventForwarder<Button>)  // not nested
  }

  @Test("C45: allSenders and allEventKeys evaluate no closure; allMappings does")
  func c45_evaluationSideEffects() {
    var evaluations = 0
    let button = Button()
    let forwarder = EventForwarder(button) { _, ctx in
      ctx.control(.touchUpInside) { () -> [Int] in
        evaluations += 1
        return [1]
      }
    }
    _ = forwarder.allSenders
    _ = forwarder.allEventKeys
    _ = SenderGroup { forwarder }.allSenders
    #expect(evaluations == 0)
    _ = forwarder.allMappings
    #expect(evaluations == 1)
  }
}
