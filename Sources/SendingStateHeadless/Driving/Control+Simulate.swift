import SendingState

/// Driving controls as a user would, for tests and tools.
///
/// Every `simulate…` method fires the events a real interaction would, only when the control is
/// interactive (visible and enabled up its ancestors), and returns whether the interaction
/// happened. Value controls fire `valueChanged` only when the value really changes:
///
/// ```swift
/// button.simulateTap()           // touchDown, touchUpInside (+ primaryActionTriggered for buttons)
/// toggle.simulateSetOn(true)     // valueChanged, once
/// toggle.simulateSetOn(true)     // nothing: already on
/// ```
extension Control {
  /// A tap: `touchDown` then `touchUpInside` (buttons add `primaryActionTriggered`; a switch
  /// toggles and fires `valueChanged` between them).
  @discardableResult
  public func simulateTap() -> Bool {
    guard isInteractive else { return false }
    sendActions(for: .touchDown)
    if let toggle = self as? Switch {
      toggle.isOn.toggle()
      sendActions(for: .valueChanged)
    }
    sendActions(for: .touchUpInside)
    if self is Button {
      sendActions(for: .primaryActionTriggered)
    }
    return true
  }

  /// A touch that lifts outside the control: `touchDown` then `touchUpOutside`.
  @discardableResult
  public func simulateTouchUpOutside() -> Bool {
    guard isInteractive else { return false }
    sendActions(for: .touchDown)
    sendActions(for: .touchUpOutside)
    return true
  }

  /// Fires `events` as user interaction (only when interactive).
  @discardableResult
  public func simulate(_ events: ControlEvents) -> Bool {
    guard isInteractive else { return false }
    sendActions(for: events)
    return true
  }
}

extension Switch {
  /// Sets the switch as a user would: fires `valueChanged` only if the value changes.
  @discardableResult
  public func simulateSetOn(_ on: Bool) -> Bool {
    guard isInteractive, on != isOn else { return false }
    isOn = on
    sendActions(for: .valueChanged)
    return true
  }
}

extension Slider {
  /// Drags to `newValue` (clamped): fires `valueChanged` only if the value changes.
  @discardableResult
  public func simulateValue(_ newValue: Double) -> Bool {
    let target = clamped(newValue)
    guard isInteractive, target != value else { return false }
    value = target
    sendActions(for: .valueChanged)
    return true
  }
}

extension Stepper {
  /// One step up (clamped): fires `valueChanged` only if the value changes.
  @discardableResult
  public func simulateIncrement() -> Bool {
    simulateValue(value + stepValue)
  }

  /// One step down (clamped): fires `valueChanged` only if the value changes.
  @discardableResult
  public func simulateDecrement() -> Bool {
    simulateValue(value - stepValue)
  }
}

extension SegmentedControl {
  /// Selects segment `index` (0-based): fires `valueChanged` only if the selection changes.
  ///
  /// An index outside the segments selects nothing and returns `false`.
  @discardableResult
  public func simulateSelect(_ index: Int) -> Bool {
    guard isInteractive, segments.indices.contains(index), index != selectedIndex else { return false }
    selectedIndex = index
    sendActions(for: .valueChanged)
    return true
  }
}

extension TextField {
  /// Types `text` as a keyboard would.
  ///
  /// Fires `editingDidBegin`, then for each character appended one `editingChanged` (the field's
  /// text growing), then `editingDidEnd`. With `replacing` (the default) the old text is first
  /// cleared, which fires one `editingChanged` if it was not empty.
  @discardableResult
  public func simulateTyping(_ typed: String, replacing: Bool = true) -> Bool {
    guard isInteractive else { return false }
    isEditing = true
    sendActions(for: .editingDidBegin)
    if replacing, !text.isEmpty {
      text = ""
      sendActions(for: .editingChanged)
    }
    for character in typed {
      text.append(character)
      sendActions(for: .editingChanged)
    }
    isEditing = false
    sendActions(for: .editingDidEnd)
    return true
  }

  /// The return key: `primaryActionTriggered`.
  @discardableResult
  public func simulateReturn() -> Bool {
    guard isInteractive else { return false }
    sendActions(for: .primaryActionTriggered)
    return true
  }
}
