import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("Sender propagation (checklist 17–20)")
@MainActor
struct SenderPropagationTests {
  @Test("C17: every sender in the tree receives the state (single forwarder and group)")
  func c17_sendersReceiveState() {
    let single = ForwardingView<Model>()
    single.ss.configure(Model(value: 1))
    let read: Model? = single.button.ss.state()
    #expect(read == Model(value: 1))

    let grouped = ForwardingView<Model>()
    grouped.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [1] } }
        EventForwarder(view.other) { _, ctx in ctx.control(.touchDown) { [2] } }
      }
    }
    grouped.ss.configure(Model(value: 2))
    let a: Model? = grouped.button.ss.state()
    let b: Model? = grouped.other.ss.state()
    #expect(a == Model(value: 2) && b == Model(value: 2))
  }

  @Test("C18: reconfiguring overwrites every sender's state (Sun/Moon)")
  func c18_reconfigureOverwritesSenders() {
    let view = ForwardingView<String>()
    view.ss.configure("Sun")
    view.ss.configure("Moon")
    let read: String? = view.button.ss.state()
    #expect(read == "Moon")
  }

  @Test("C19: senders are exactly the objects named in the tree, nested and borrowed included")
  func c19_sendersAreExactlyTheNamedObjects() {
    let child = ForwardingView<String>()
    let nestedConfigurable = RecordingView<String>()
    let parent = ForwardingView<String>()
    parent.addSubview(child)
    parent.addSubview(nestedConfigurable)
    parent.tree = { view in
      SenderGroup {
        SenderGroup {
          EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [1] } }
        }
        child.eventForwarder  // borrowed: names child.button
      }
    }
    parent.ss.configure("P")
    let own: String? = parent.button.ss.state()
    let borrowed: String? = child.button.ss.state()
    let unnamed: String? = parent.other.ss.state()
    let plain: String? = parent.plainSubview.ss.state()
    #expect(own == "P")
    #expect(borrowed == "P")
    #expect(unnamed == nil)
    #expect(plain == nil)
    #expect(nestedConfigurable.calls.isEmpty)  // no hierarchy traversal
    #expect(child.configureCount == 0)
  }

  @Test("C20: propagation also happens on invalidateState")
  func c20_propagationOnInvalidate() {
    let view = ForwardingView<Int>()
    view.ss.configure(1)
    view.ss.invalidateState { (value: Int) in value + 10 }
    let read: Int? = view.button.ss.state()
    #expect(read == 11)
    #expect(view.configureCount == 2)
  }

  @Test("S12: a binder must be an EventForwardingProvider at its first configure")
  func s12_senderProviderInstalledOnce() {
    let view = ForwardingView<Int>()
    view.ss.configure(1)
    // The provider reads the tree on every update, so a tree changed later is honoured.
    view.tree = { view in EventForwarder(view.other) { _, ctx in ctx.control(.touchDown) { [1] } } }
    view.ss.configure(2)
    let other: Int? = view.other.ss.state()
    #expect(other == 2)
  }

  @Test("D-6: a sender named twice is listed once and assigned once")
  func d06_duplicateSendersDeduplicated() {
    let view = ForwardingView<Int>()
    view.tree = { view in
      SenderGroup {
        EventForwarder(view.button) { _, ctx in ctx.control(.touchUpInside) { [1] } }
        EventForwarder(view.button) { _, ctx in ctx.control(.touchDown) { [2] } }
      }
    }
    #expect(view.eventForwarder.allSenders.count == 1)
  }
}
