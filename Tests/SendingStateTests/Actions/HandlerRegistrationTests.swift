import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("Handler registration and dispatch (checklist 46–64)")
@MainActor
struct HandlerRegistrationTests {
  /// A view whose button maps three actions on touchUpInside and one on touchDown.
  func makeView() -> ForwardingView<Model> {
    let view = ForwardingView<Model>()
    view.tree = { view in
      EventForwarder(view.button) { sender, ctx in
        ctx.control(.touchUpInside) { [TestAction.buttonTapped(11), .sendClickLog, .custom("c")] }
        ctx.control(.touchDown) { [TestAction.custom("down")] }
      }
    }
    return view
  }

  @Test("C46: with no handler added, triggering does nothing and does not crash")
  func c46_noHandlerNoEffect() {
    let view = makeView()
    view.button.simulateTap()
    #expect(view.button.actionCount() == 0)
  }

  @Test("C47: an added handler receives each action once, in array order")
  func c47_deliveryInOrder() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.buttonTapped(11), .sendClickLog, .custom("c")])
  }

  @Test("C48: adding the same handler twice delivers once; assigning twice delivers once")
  func c48_addTwiceDeliversOnce() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.ss.addActionHandler(to: handler)
    view.button.simulate(.touchDown)
    #expect(handler.received == [.custom("down")])
    let assigned = RecordingHandler<TestAction>()
    view.ss.assignActionHandler(to: assigned)
    view.ss.assignActionHandler(to: assigned)
    view.button.simulate(.touchDown)
    #expect(assigned.received == [.custom("down")])
  }

  @Test("C49: two handlers each receive every event once")
  func c49_twoHandlers() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: h1)
    view.ss.addActionHandler(to: h2)
    view.button.simulate(.touchDown)
    #expect(h1.received == [.custom("down")])
    #expect(h2.received == [.custom("down")])
  }

  @Test("C50: removing H1 leaves H2; removing a never-added handler does nothing")
  func c50_removeOne() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: h1)
    view.ss.addActionHandler(to: h2)
    view.ss.removeActionHandler(from: h1)
    view.ss.removeActionHandler(from: RecordingHandler<TestAction>())
    view.button.simulate(.touchDown)
    #expect(h1.received.isEmpty)
    #expect(h2.received == [.custom("down")])
  }

  @Test("C51: removeAllActionHandlers stops every handler on every sender")
  func c51_removeAll() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: h1)
    view.ss.addActionHandler(to: h2)
    view.ss.removeAllActionHandlers()
    view.button.simulateTap()
    #expect(h1.received.isEmpty && h2.received.isEmpty)
    #expect(view.button.actionCount() == 0)
  }

  @Test("C52: assign after H1 and H2 leaves only H3; assigning on a view with no handlers works")
  func c52_assignReplaces() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    let h3 = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: h1)
    view.ss.addActionHandler(to: h2)
    view.ss.assignActionHandler(to: h3)
    view.button.simulate(.touchDown)
    #expect(h1.received.isEmpty && h2.received.isEmpty)
    #expect(h3.received == [.custom("down")])

    let fresh = makeView()
    let sole = RecordingHandler<TestAction>()
    fresh.ss.assignActionHandler(to: sole)
    fresh.button.simulate(.touchDown)
    #expect(sole.received == [.custom("down")])
  }

  @Test("C53: exactly one registration per (sender, event, handler); zero after removal")
  func c53_oneRegistrationPerTriple() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.ss.addActionHandler(to: handler)
    #expect(view.button.actionCount(for: .touchUpInside) == 1)
    #expect(view.button.actionCount(for: .touchDown) == 1)
    #expect(view.button.sideStorage.existingPool?.count == 2)
    view.ss.removeActionHandler(from: handler)
    #expect(view.button.actionCount() == 0)
    #expect(view.button.sideStorage.existingPool?.count == 0)
  }

  @Test("C54: unregistered events deliver nothing; several events deliver independently in trigger order")
  func c54_independentEvents() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.button.simulate(.valueChanged)
    #expect(handler.received.isEmpty)
    view.button.simulate(.touchDown)
    view.button.simulate(.touchUpInside)
    view.button.simulate(.touchDown)
    #expect(handler.received == [.custom("down"), .buttonTapped(11), .sendClickLog, .custom("c"), .custom("down")])
  }

  @Test("C55: repeated triggers deliver each time (5 → 5)")
  func c55_repeatedTriggers() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    for _ in 0..<5 { view.button.simulate(.touchDown) }
    #expect(handler.received.count == 5)
  }

  @Test("C56: stateless closures read live sender properties at event time")
  func c56_statelessReadsLiveProperties() {
    let view = ForwardingView<Model>()
    view.tree = { view in
      EventForwarder(view.button) { sender, ctx in
        ctx.control(.touchUpInside) { [TestAction.custom(sender.title)] }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.button.title = "late"
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.custom("late")])
  }

  @Test("C57: state-aware end to end: add, configure(1) → 1, configure(99) → 99; two senders share the state")
  func c57_stateAwareEndToEnd() {
    let view = ForwardingView<Model>()
    view.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in
          ctx.control(.touchUpInside) { (model: Model) in [TestAction.buttonTapped(model.value)] }
        }
        EventForwarder(view.other) { _, ctx in
          ctx.control(.touchUpInside) { (model: Model) in [TestAction.buttonTapped(-model.value)] }
        }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.ss.configure(Model(value: 1))
    view.button.simulate(.touchUpInside)
    view.ss.configure(Model(value: 99))
    view.button.simulate(.touchUpInside)
    view.other.simulate(.touchUpInside)
    #expect(handler.received == [.buttonTapped(1), .buttonTapped(99), .buttonTapped(-99)])
  }

  @Test("C58 / S19: actions of another type are dropped; mixed types across forwarders are allowed")
  func c58_mismatchedActionsDropped() {
    let view = ForwardingView<Model>()
    view.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { ["a string"] } }
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.sendClickLog] } }
      }
    }
    let handler = RecordingHandler<TestAction>()
    let strings = RecordingHandler<String>()
    view.ss.addActionHandler(to: handler)
    view.ss.addActionHandler(to: strings)
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.sendClickLog])
    #expect(strings.received == ["a string"])
    let erased = AnyActionHandlingProvider(handler)
    erased.handle(action: 42)
    #expect(handler.received == [.sendClickLog])
  }

  @Test("C59: gesture mappings install one configured recognizer per mapping on the sender view")
  func c59_gestureRecognizersInstalled() throws {
    let view = ForwardingView<Model>()
    let card = View(id: "card")
    view.addSubview(card)
    view.tree = { _ in
      EventForwarder(card) { _, ctx in
        ctx.tapGesture(numberOfTaps: 5, numberOfTouches: 3) { [TestAction.custom("tap")] }
        ctx.longPressGesture(minimumPressDuration: 1.2, numberOfTaps: 7, numberOfTouches: 2) { [TestAction.custom("press")] }
        ctx.swipeGesture(direction: .left) { [TestAction.custom("swipe")] }
      }
    }
    view.ss.addActionHandler(to: RecordingHandler<TestAction>())
    #expect(card.gestureRecognizers.count == 3)
    #expect(view.gestureRecognizers.isEmpty)
    let tap = try #require(card.gestureRecognizers[0] as? TapGestureRecognizer)
    #expect(tap.numberOfTapsRequired == 5 && tap.numberOfTouchesRequired == 3)
    let press = try #require(card.gestureRecognizers[1] as? LongPressGestureRecognizer)
    #expect(press.minimumPressDuration == 1.2 && press.numberOfTapsRequired == 7 && press.numberOfTouchesRequired == 2)
    let swipe = try #require(card.gestureRecognizers[2] as? SwipeGestureRecognizer)
    #expect(swipe.direction == .left)
  }

  @Test("C60: recognizers do not cancel touches; a multi-kind gesture installs one recognizer per kind")
  func c60_touchFlagAndMultiKind() throws {
    let view = ForwardingView<Model>()
    let card = View(id: "card")
    view.tree = { _ in
      EventForwarder(card) { _, ctx in
        ctx.gesture(.init(kind: [.pinch, .rotation], states: [.changed])) { [TestAction.custom("transform")] }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    #expect(card.gestureRecognizers.map(\.kind) == [.pinch, .rotation])
    #expect(card.gestureRecognizers.allSatisfy { !$0.cancelsTouchesInView })
    try card.simulateGesture(.pinch)
    try card.simulateGesture(.rotation)
    #expect(handler.received == [.custom("transform"), .custom("transform")])
  }

  @Test("C61: after removal the view has no recognizer for the handler; a captured one delivers 0")
  func c61_removeDetachesRecognizers() throws {
    let view = ForwardingView<Model>()
    let card = View(id: "card")
    view.tree = { _ in EventForwarder(card) { _, ctx in ctx.tapGesture { [TestAction.custom("tap")] } } }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    let captured = try #require(card.gestureRecognizers.first)
    view.ss.removeActionHandler(from: handler)
    #expect(card.gestureRecognizers.isEmpty)
    #expect(captured.targetCount == 0)
    try captured.perform([.recognized])
    #expect(handler.received.isEmpty)
  }

  @Test("C62: a gesture delivers only in the states of its set; an empty set means all states (D-17)")
  func c62_gestureStateFilter() throws {
    let view = ForwardingView<Model>()
    let card = View(id: "card")
    view.tree = { _ in
      EventForwarder(card) { _, ctx in
        ctx.panGesture { [TestAction.custom("pan")] }  // changed, ended
        ctx.longPressGesture { [TestAction.custom("press")] }  // began, ended
        ctx.hoverGesture(on: []) { [TestAction.custom("hover")] }  // every state
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    try card.simulateGesture(.pan, states: [.began, .changed, .changed, .ended])
    #expect(handler.received == Array(repeating: .custom("pan"), count: 3))
    try card.simulateGesture(.longPress, states: [.began, .changed, .cancelled])
    #expect(handler.received.filter { $0 == .custom("press") }.count == 1)
    try card.simulateGesture(.hover, states: [.began, .changed, .cancelled])
    #expect(handler.received.filter { $0 == .custom("hover") }.count == 3)
  }

  @Test("C63: in a cell-reuse loop of 10 cells, the handler receives tags 0…9 in order")
  func c63_cellReuseLoop() {
    final class Cell: View, EventForwardingProvider {
      let button = Button()
      var eventForwarder: any EventForwardable {
        EventForwarder(button) { [weak self] _, ctx in
          ctx.control(.touchUpInside) { [TestAction.buttonTapped(self?.tag ?? -1)] }
        }
      }
    }
    let handler = RecordingHandler<TestAction>()
    let cell = Cell()
    for tag in 0..<10 {
      cell.tag = tag
      cell.ss.addActionHandler(to: handler)
      cell.button.simulate(.touchUpInside)
    }
    #expect(handler.received == (0..<10).map(TestAction.buttonTapped))
  }

  @Test("C64: a parent group borrowing child trees delivers the children's events in trigger order")
  func c64_borrowedChildTrees() {
    let parent = ForwardingView<Model>()
    let first = ForwardingView<Model>()
    let second = ForwardingView<Model>()
    first.tree = { view in EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("first")] } } }
    second.tree = { view in EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("second")] } } }
    parent.tree = { _ in
      SenderGroup {
        first.eventForwarder
        second.eventForwarder
      }
    }
    let handler = RecordingHandler<TestAction>()
    parent.ss.addActionHandler(to: handler)
    second.button.simulate(.touchUpInside)
    first.button.simulate(.touchUpInside)
    #expect(handler.received == [.custom("second"), .custom("first")])
  }

  // MARK: - Decisions

  @Test("D-2: a wrong sender is skipped and reported; the remaining mappings are installed")
  func d02_wrongSenderSkippedAndReported() {
    final class NotAControl: SideStorageProviding { let sideStorage = SideStorage() }
    let plain = NotAControl()
    let view = ForwardingView<Model>()
    view.tree = { view in
      SenderGroup {
        EventForwarder(plain) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("never")] } }
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("ok")] } }
      }
    }
    let handler = RecordingHandler<TestAction>()
    let issues = view.ss.addActionHandler(to: handler)
    #expect(issues.map(\.reason) == [.senderIsNotAControl])
    #expect(issues.first?.description.contains("NotAControl") == true)
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.custom("ok")])
  }

  @Test("D-3: the same sender and event in two children installs once and delivers each action once")
  func d03_duplicateInstallsDeduplicated() {
    let view = ForwardingView<Model>()
    view.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("a")] } }
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("b")] } }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    #expect(view.button.actionCount() == 1)
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.custom("a"), .custom("b")])
  }

  @Test("D-4: a dead handler's registrations never block a new handler (no address-reuse hazard)")
  func d04_deadOwnerDoesNotBlock() {
    let view = makeView()
    for _ in 0..<50 {
      // Allocate and free handlers repeatedly: addresses get reused by the allocator.
      var dead: RecordingHandler<TestAction>? = RecordingHandler<TestAction>()
      view.ss.addActionHandler(to: dead!)
      dead = nil
      let fresh = RecordingHandler<TestAction>()
      view.ss.addActionHandler(to: fresh)
      view.button.simulate(.touchDown)
      #expect(fresh.received == [.custom("down")])
      view.ss.removeActionHandler(from: fresh)
    }
    #expect(view.button.actionCount() <= 2)
  }

  @Test("D-5: adding again after the tree gained a sender installs just the missing registration")
  func d05_guardPerSenderEventOwner() {
    let view = ForwardingView<Model>()
    var includeOther = false
    view.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("button")] } }
        if includeOther {
          EventForwarder(view.other) { _, ctx in ctx.control(.touchUpInside) { [TestAction.custom("other")] } }
        }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    includeOther = true
    view.ss.addActionHandler(to: handler)
    view.button.simulate(.touchUpInside)
    view.other.simulate(.touchUpInside)
    #expect(handler.received == [.custom("button"), .custom("other")])
    #expect(view.button.actionCount() == 1)
  }

  @Test("D-14: add, remove and removeAll evaluate no action closure")
  func d14_registrationEvaluatesNothing() {
    var evaluations = 0
    let view = ForwardingView<Model>()
    view.tree = { view in
      EventForwarder(view.button) { _, ctx in
        ctx.control(.touchUpInside) { () -> [TestAction] in
          evaluations += 1
          return [.sendClickLog]
        }
      }
    }
    let handler = RecordingHandler<TestAction>()
    view.ss.addActionHandler(to: handler)
    view.ss.removeActionHandler(from: handler)
    view.ss.addActionHandler(to: handler)
    view.ss.removeAllActionHandlers()
    #expect(evaluations == 0)
  }

  @Test("D-16: several handlers on one event receive it in registration order")
  func d16_crossHandlerOrder() {
    final class Log { var entries: [String] = [] }
    final class Named: ActionHandlingProvider {
      let name: String
      let log: Log
      init(_ name: String, _ log: Log) {
        self.name = name
        self.log = log
      }
      func handle(action: TestAction) { log.entries.append(name) }
    }
    let log = Log()
    let view = makeView()
    let handlers = ["c", "a", "b"].map { Named($0, log) }
    handlers.forEach { view.ss.addActionHandler(to: $0) }
    view.button.simulate(.touchDown)
    #expect(log.entries == ["c", "a", "b"])
  }
}
