import SendingState
import Testing

@testable import SendingStateHeadless

@Suite("Control target-action")
@MainActor
struct ControlTests {
  @Test("callbacks fire for events in their mask, in registration order")
  func registrationOrder() {
    let control = Control()
    var log: [String] = []
    control.addAction(for: .touchDown) { log.append("first") }
    control.addAction(for: [.touchDown, .touchUpInside]) { log.append("both") }
    control.addAction(for: .touchUpInside) { log.append("up") }
    control.sendActions(for: .touchDown)
    #expect(log == ["first", "both"])
    log.removeAll()
    control.sendActions(for: [.touchDown, .touchUpInside])
    #expect(log == ["first", "both", "both", "up"])
  }

  @Test("several events fire in named order; each sees the callbacks registered when it fires")
  func eventOrderAndChangesDuringDispatch() {
    let control = Control()
    var log: [String] = []
    var late: ActionTargetID?
    control.addAction(for: .primaryActionTriggered) { log.append("primary") }
    control.addAction(for: .editingChanged) { log.append("editing") }
    control.addAction(for: .touchDown) { [unowned control] in
      log.append("down")
      // Added during touchDown: not run for it, run for the events that follow.
      late = control.addAction(for: [.touchDown, .primaryActionTriggered]) { log.append("late") }
    }
    control.sendActions(for: [.primaryActionTriggered, .editingChanged, .touchDown])
    #expect(ControlEvents.named.map(\.event.rawValue) == ControlEvents.named.map(\.event.rawValue).sorted())
    #expect(log == ["down", "editing", "primary", "late"])
    // Bits no event has are ignored.
    log.removeAll()
    control.removeAction(late!)
    control.sendActions(for: ControlEvents(rawValue: 1 << 20))
    #expect(log.isEmpty)
  }

  @Test("removing a callback stops it; unknown ids are ignored; counts follow")
  func removal() {
    let control = Control()
    var fired = 0
    let id = control.addAction(for: .valueChanged) { fired += 1 }
    control.addAction(for: .touchDown) {}
    #expect(control.actionCount() == 2)
    #expect(control.actionCount(for: .valueChanged) == 1)
    control.removeAction(id)
    control.removeAction(ActionTargetID(rawValue: 999))
    control.sendActions(for: .valueChanged)
    #expect(fired == 0)
    #expect(control.actionCount() == 1)
  }

  @Test("setting properties in code fires nothing")
  func programmaticChangesAreSilent() {
    let toggle = Switch()
    let slider = Slider()
    let field = TextField()
    var fired = 0
    for control in [toggle, slider, field] as [Control] {
      control.addAction(for: .allEvents) { fired += 1 }
    }
    toggle.isOn = true
    slider.value = 0.5
    field.text = "x"
    #expect(fired == 0)
  }

  @Test("slider and stepper values stay within bounds")
  func clamping() {
    let slider = Slider(value: 5, minimumValue: 0, maximumValue: 1)
    #expect(slider.value == 1)
    slider.value = -3
    #expect(slider.value == 0)
    slider.value = 0.5
    slider.maximumValue = 0.25
    #expect(slider.value == 0.25)
    let stepper = Stepper(value: 3, minimumValue: 0, maximumValue: 4, stepValue: 2)
    stepper.simulateIncrement()
    #expect(stepper.value == 4)
  }

  @Test("ControlEvents names round-trip")
  func eventNames() {
    for (name, event) in ControlEvents.named {
      #expect(ControlEvents(name: name) == event)
      #expect(event.description == name)
    }
    #expect(ControlEvents(name: "nope") == nil)
    #expect(ControlEvents([.touchDown, .valueChanged]).description == "touchDown|valueChanged")
  }
}
