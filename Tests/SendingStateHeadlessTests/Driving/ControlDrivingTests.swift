import SendingState
import Testing

@testable import SendingStateHeadless

/// Records every control event a control fires, by name.
@MainActor
private func record(_ control: Control) -> () -> [String] {
  final class Log { var names: [String] = [] }
  let log = Log()
  for (name, event) in ControlEvents.named {
    control.addAction(for: event) { log.names.append(name) }
  }
  return { log.names }
}

@Suite("Driving controls: every control event")
@MainActor
struct ControlDrivingTests {
  @Test("tap on a button: touchDown, touchUpInside, primaryActionTriggered")
  func buttonTap() {
    let button = Button()
    let events = record(button)
    #expect(button.simulateTap())
    #expect(events() == ["touchDown", "touchUpInside", "primaryActionTriggered"])
  }

  @Test("a touch lifted outside: touchDown, touchUpOutside")
  func touchUpOutside() {
    let button = Button()
    let events = record(button)
    button.simulateTouchUpOutside()
    #expect(events() == ["touchDown", "touchUpOutside"])
  }

  @Test("switch: valueChanged only when the value really changes; a tap toggles")
  func switchValue() {
    let toggle = Switch(isOn: false)
    let events = record(toggle)
    #expect(!toggle.simulateSetOn(false))
    #expect(events().isEmpty)
    #expect(toggle.simulateSetOn(true))
    #expect(events() == ["valueChanged"])
    toggle.simulateTap()
    #expect(!toggle.isOn)
    #expect(events() == ["valueChanged", "touchDown", "valueChanged", "touchUpInside"])
  }

  @Test("slider, stepper, segmented control: valueChanged only on a real change")
  func valueControls() {
    let slider = Slider(value: 0.5)
    let sliderEvents = record(slider)
    slider.simulateValue(0.5)
    slider.simulateValue(7)  // clamped to 1
    slider.simulateValue(1)
    #expect(sliderEvents() == ["valueChanged"])
    #expect(slider.value == 1)

    let stepper = Stepper(value: 0, minimumValue: 0, maximumValue: 1)
    let stepperEvents = record(stepper)
    stepper.simulateDecrement()
    stepper.simulateIncrement()
    stepper.simulateIncrement()
    #expect(stepperEvents() == ["valueChanged"])

    let segments = SegmentedControl(segments: ["a", "b"], selectedIndex: 0)
    let segmentEvents = record(segments)
    segments.simulateSelect(0)
    segments.simulateSelect(5)
    segments.simulateSelect(1)
    #expect(segmentEvents() == ["valueChanged"])
    #expect(segments.selectedIndex == 1)
  }

  @Test("typing: editingDidBegin, one editingChanged per character, editingDidEnd; return is primary")
  func typing() {
    let field = TextField(text: "old")
    let events = record(field)
    field.simulateTyping("ab")
    #expect(field.text == "ab")
    #expect(events() == ["editingDidBegin", "editingChanged", "editingChanged", "editingChanged", "editingDidEnd"])
    field.simulateTyping("c", replacing: false)
    #expect(field.text == "abc")
    field.simulateReturn()
    #expect(events().last == "primaryActionTriggered")
  }

  @Test("disabled or hidden controls take no interaction")
  func nonInteractive() {
    let button = Button()
    button.isEnabled = false
    let events = record(button)
    #expect(!button.simulateTap())
    let parent = View()
    let field = TextField()
    parent.addSubview(field)
    parent.isHidden = true
    #expect(!field.simulateTyping("x"))
    #expect(field.text.isEmpty)
    #expect(!button.simulate(.valueChanged))
    #expect(events().isEmpty)
  }
}
