import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("Bound state (checklist 8–16)")
@MainActor
struct BoundStateTests {
  @Test("C8: state() on a host never configured is nil")
  func c08_neverConfiguredIsNil() {
    let view = RecordingView<String>()
    #expect(view.ss.state() == nil)
    let generic: Int? = view.ss.state()
    #expect(generic == nil)
  }

  @Test("C9: after configure, the typed and the generic state() both equal the input")
  func c09_stateEqualsInput() {
    let view = RecordingView<Model>()
    view.ss.configure(Model(value: 7))
    #expect(view.ss.state() == Model(value: 7))
    let generic: Model? = view.ss.state()
    #expect(generic == Model(value: 7))
  }

  @Test("C10: state<T>() with a mismatched T is nil")
  func c10_mismatchedTypeIsNil() {
    let view = RecordingView<String>()
    view.ss.configure("x")
    let wrong: Int? = view.ss.state()
    #expect(wrong == nil)
  }

  @Test("C11: after removeState(), state() is nil")
  func c11_removeStateClears() {
    let view = RecordingView<String>()
    view.ss.configure("x")
    view.ss.removeState()
    #expect(view.ss.state() == nil)
    #expect(view.sideStorage.observer?.state == nil)
  }

  @Test("C12: state is per instance")
  func c12_statePerInstance() {
    let v1 = RecordingView<String>()
    let v2 = RecordingView<String>()
    v1.ss.configure("Go")
    v2.ss.configure("Rust")
    #expect(v1.ss.state() == "Go")
    #expect(v2.ss.state() == "Rust")
  }

  @Test("C13: a class input is released on reconfigure, on removeState (no senders) and with the host")
  func c13_classInputLifetime() {
    let view = RecordingView<ClassInput>()
    weak var first: ClassInput?
    weak var second: ClassInput?
    weak var third: ClassInput?
    do {
      let input = ClassInput("one")
      first = input
      view.ss.configure(input)
    }
    view.calls.removeAll()
    #expect(first != nil)
    do {
      let input = ClassInput("two")
      second = input
      view.ss.configure(input)
    }
    view.calls.removeAll()
    view.stateSeenInConfigurer.removeAll()
    #expect(first == nil)
    view.ss.removeState()
    #expect(second == nil)

    var host: RecordingView<ClassInput>? = RecordingView<ClassInput>()
    do {
      let input = ClassInput("three")
      third = input
      host?.ss.configure(input)
      host?.calls.removeAll()
      host?.stateSeenInConfigurer.removeAll()
    }
    #expect(third != nil)
    host = nil
    #expect(third == nil)
  }

  @Test("C14: an orphaned observer (host released) notifies but never runs the configurer")
  func c14_orphanedObserverDoesNotConfigure() throws {
    final class Calls { var count = 0 }
    let calls = Calls()
    var host: RecordingView<String>? = RecordingView<String>()
    host?.onConfigure = { _, _ in calls.count += 1 }
    host?.ss.configure("a")
    let observer = try #require(host?.sideStorage.observer)
    weak let weakHost = host
    host = nil
    #expect(weakHost == nil)
    var notified: [String] = []
    let token = observer.observe { notified.append($0 as? String ?? "?") }
    observer.update("b")
    #expect(calls.count == 1)
    #expect(notified == ["b"])
    token.cancel()
  }

  @Test("C14b: the observer dies with its host when nobody else holds it")
  func c14b_observerDiesWithHost() {
    weak var weakObserver: StateObserver?
    do {
      let host = RecordingView<String>()
      host.ss.configure("a")
      weakObserver = host.sideStorage.observer
      #expect(weakObserver != nil)
    }
    #expect(weakObserver == nil)
  }

  @Test("C15: a value stored directly in a sender's slot reads through sender.ss.state()")
  func c15_directSlotWriteIsReadable() {
    let sender = Button()
    sender.sideStorage.boundState = Model(value: 3)
    let read: Model? = sender.ss.state()
    #expect(read == Model(value: 3))
    let none: String? = Button().ss.state()
    #expect(none == nil)
  }

  @Test("C16: the host's state is set before the configurer runs; senders after it")
  func c16_orderHostThenConfigurerThenSenders() {
    let recording = RecordingView<String>()
    recording.ss.configure("new")
    #expect(recording.stateSeenInConfigurer == ["new"])

    let view = ForwardingView<String>()
    view.ss.configure("first")
    view.ss.configure("second")
    // During the second configure the sender still held the first value.
    #expect(view.senderStatesDuringConfigure == [nil, "first"])
    let after: String? = view.button.ss.state()
    #expect(after == "second")
  }

  @Test("D-10: removeState keeps the senders' state and notifies no observer")
  func d10_removeStateKeepsSenders() {
    let view = ForwardingView<String>()
    let store = BindingStore<String, ForwardingView<String>>(state: "kept")
    store.apply(to: view)
    var notified = 0
    let token = store.observe { _ in notified += 1 }
    view.ss.removeState()
    let sender: String? = view.button.ss.state()
    #expect(sender == "kept")
    #expect(view.ss.state() == nil)
    #expect(notified == 1)
    token.cancel()
  }
}
