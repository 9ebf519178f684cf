import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("AnyActionHandlingProvider (checklist 65–70)")
@MainActor
struct AnyActionHandlingProviderTests {
  func makeView() -> ForwardingView<Model> {
    let view = ForwardingView<Model>()
    view.tree = { view in
      EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [TestAction.sendClickLog] } }
    }
    return view
  }

  @Test("C65: handle forwards actions of the base's type and ignores others")
  func c65_forwardsMatchingType() {
    let handler = RecordingHandler<TestAction>()
    let erased = AnyActionHandlingProvider(handler)
    erased.handle(action: TestAction.sendClickLog)
    erased.handle(action: "other")
    #expect(handler.received == [.sendClickLog])
  }

  @Test("C66: it holds the base weakly; after release, handle does nothing")
  func c66_weakBase() {
    weak var weakHandler: RecordingHandler<TestAction>?
    var handler: RecordingHandler<TestAction>? = RecordingHandler<TestAction>()
    weakHandler = handler
    let erased = AnyActionHandlingProvider(handler!)
    handler = nil
    #expect(weakHandler == nil)
    erased.handle(action: TestAction.sendClickLog)
  }

  @Test("C67: attach behaves like addAnyActionHandler; detach removes only that wrapper")
  func c67_attachDetach() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    let w1 = AnyActionHandlingProvider(h1)
    let w2 = AnyActionHandlingProvider(h2)
    w1.attach(to: view)
    view.ss.addAnyActionHandler(to: w2)
    view.button.simulate(.touchUpInside)
    w1.detach(from: view)
    view.button.simulate(.touchUpInside)
    #expect(h1.received == [.sendClickLog])
    #expect(h2.received == [.sendClickLog, .sendClickLog])
  }

  @Test("C68: attaching the same wrapper repeatedly is idempotent")
  func c68_attachIdempotent() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    let wrapper = AnyActionHandlingProvider(handler)
    for _ in 0..<5 { wrapper.attach(to: view) }
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.sendClickLog])
  }

  @Test("C69: two wrappers around one handler are two owners; both deliver (D-7)")
  func c69_twoWrappersTwoOwners() {
    let view = makeView()
    let handler = RecordingHandler<TestAction>()
    let w1 = AnyActionHandlingProvider(handler)
    let w2 = AnyActionHandlingProvider(handler)
    w1.attach(to: view)
    w2.attach(to: view)
    view.button.simulate(.touchUpInside)
    #expect(handler.received == [.sendClickLog, .sendClickLog])
  }

  @Test("C70: assignAnyActionHandler(to: W2) after W1 leaves only W2")
  func c70_assignAny() {
    let view = makeView()
    let h1 = RecordingHandler<TestAction>()
    let h2 = RecordingHandler<TestAction>()
    let w1 = AnyActionHandlingProvider(h1)
    let w2 = AnyActionHandlingProvider(h2)
    w1.attach(to: view)
    view.ss.assignAnyActionHandler(to: w2)
    view.button.simulate(.touchUpInside)
    #expect(h1.received.isEmpty)
    #expect(h2.received == [.sendClickLog])
  }
}
