import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("Namespace and Configurable (checklist 1–7)")
@MainActor
struct ConfigureTests {
  @Test("C1: SendingState(x) wraps any value; .ss is a fresh wrapper whose base is the host")
  func c01_namespaceWrapsAnyValue() {
    #expect(SendingState(42).base == 42)
    #expect(SendingState("text").base == "text")
    let view = Label(id: "l")
    #expect(view.ss.base === view)
    let button = Button()
    #expect(button.ss.base === button)
    #expect(type(of: View.ss) == SendingState<View>.Type.self)
  }

  @Test("C2: configure calls the configurer exactly once, synchronously, before returning")
  func c02_configureCallsConfigurerOnce() {
    let view = RecordingView<String>()
    view.ss.configure("a")
    #expect(view.calls == ["a"])
  }

  @Test("C3: three configures give three calls; the last input wins")
  func c03_lastConfigureWins() {
    let view = RecordingView<String>()
    view.ss.configure("m1")
    view.ss.configure("m2")
    view.ss.configure("m3")
    #expect(view.calls == ["m1", "m2", "m3"])
    #expect(view.ss.state() == "m3")
  }

  @Test("C4: configure(nil) with an optional Input calls the configurer once with nil")
  func c04_optionalInputNil() {
    let view = RecordingView<String?>()
    view.ss.configure(nil)
    #expect(view.calls.count == 1)
    #expect(view.calls[0] == nil)
  }

  @Test("C5: a Configurable without side storage only runs its configurer")
  func c05_noSideStorageRunsConfigurerOnly() {
    let object = PlainConfigurable()
    SendingState(object).configure("x")
    SendingState(object).configure("y")
    #expect(object.calls == ["x", "y"])
  }

  @Test("C6: default size is nil; a custom size passes through unchanged")
  func c06_sizeDefaultAndCustom() {
    #expect(RecordingView<String>.size(with: "x", constrainedTo: LayoutSize(width: 10, height: 10)) == nil)
    #expect(RecordingView<String>.size(with: nil, constrainedTo: nil) == nil)
    #expect(SizedView.size(with: "abc", constrainedTo: LayoutSize(width: 320, height: 0)) == LayoutSize(width: 320, height: 30))
  }

  @Test("C7: configures sent to the main actor from concurrent tasks all run", arguments: [50, 100])
  func c07_concurrentConfiguresAllLand(count: Int) async {
    let view = RecordingView<Int>()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<count {
        group.addTask { @MainActor in view.ss.configure(index) }
      }
    }
    #expect(view.calls.count == count)
    #expect(Set(view.calls) == Set(0..<count))
  }
}
