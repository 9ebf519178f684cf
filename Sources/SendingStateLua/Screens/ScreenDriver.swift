import Foundation
import SendingState
import SendingStateHeadless

/// Drives the views of a screen (or of one list row) as a user would, one step at a time.
///
/// Returned by ``LuaScreen/row(_:_:)``; ``LuaScreen`` uses it for its own views:
///
/// ```swift
/// try screen.row("items", 2).tap("delete")
/// ```
@MainActor
public struct ScreenDriver {
  let screen: LuaScreen
  let views: [String: View]
  var owner = "the screen"

  func view(_ id: String) throws -> View {
    guard let view = views[id] else { throw ScreenUsageError.unknownView(id, known: views.keys.sorted()) }
    return view
  }

  /// Taps `id`: a full tap on a control, a tap gesture on another view.
  @discardableResult
  public func tap(_ id: String) throws -> LuaScreen.Step {
    let target = try view(id)
    if let control = target as? Control {
      return try screen.step(on: target, id: id, in: owner, .control(Self.tapEvents(of: control), verb: "a tap")) { control.simulateTap() }
    }
    return try screen.step(on: target, id: id, in: owner, .gesture(.tap, GestureInput(), [.recognized])) {
      try target.simulateGesture(.tap) > 0
    }
  }

  /// Fires `eventName` on `id`: a control event, or a gesture with its default sequence.
  @discardableResult
  public func send(_ id: String, _ eventName: String) throws -> LuaScreen.Step {
    let target = try view(id)
    if let event = ControlEvents(name: eventName) {
      guard let control = target as? Control else {
        throw ScreenUsageError.unsupported("'\(id)' is a \(target.kind), not a control: it has no '\(eventName)' event")
      }
      return try screen.step(on: target, id: id, in: owner, .control(event, verb: "send")) { control.simulate(event) }
    }
    guard let kind = SenderEvent.Gesture.Kind(name: eventName) else { throw ScreenUsageError.unknownEvent(eventName) }
    let phases = GestureRecognizer(kind: kind).defaultSequence
    return try screen.step(on: target, id: id, in: owner, .gesture(kind, GestureInput(), phases)) {
      try target.simulateGesture(kind) > 0
    }
  }

  /// Sets the value of `id` as a user would.
  @discardableResult
  public func set(_ id: String, _ value: LuaValue) throws -> LuaScreen.Step {
    let target = try view(id)
    switch target {
    case let toggle as Switch:
      let on: Bool
      switch value {
      case .boolean(let flag): on = flag
      case .string("on"), .string("true"), .integer(1): on = true
      case .string("off"), .string("false"), .integer(0): on = false
      default: throw ScreenUsageError.badValue("switch '\(id)' takes on/off or true/false, got \(describe(value))")
      }
      return try screen.step(on: target, id: id, in: owner, .control(.valueChanged, verb: "set")) { toggle.simulateSetOn(on) }
    case let segments as SegmentedControl:
      guard let index = value.intValue ?? value.stringValue.flatMap({ Int($0) }), index >= 1, index <= segments.segments.count else {
        throw ScreenUsageError.badValue("segmented '\(id)' takes a segment number 1…\(segments.segments.count), got \(describe(value))")
      }
      return try screen.step(on: target, id: id, in: owner, .control(.valueChanged, verb: "set")) {
        segments.simulateSelect(index - 1)
      }
    case let slider as Slider:
      guard let number = value.doubleValue ?? value.stringValue.flatMap({ Double($0) }) else {
        throw ScreenUsageError.badValue("\(slider.kind) '\(id)' takes a number, got \(describe(value))")
      }
      return try screen.step(on: target, id: id, in: owner, .control(.valueChanged, verb: "set")) { slider.simulateValue(number) }
    case let field as TextField:
      guard let text = value.stringValue else { throw ScreenUsageError.badValue("textfield '\(id)' takes text") }
      let fired = Self.typing(text, into: field)
      return try screen.step(on: target, id: id, in: owner, .control(fired, verb: "typing")) { field.simulateTyping(text) }
    default:
      throw ScreenUsageError.unsupported("'\(id)' is a \(target.kind): set works on switches, sliders, steppers, segmented controls and text fields")
    }
  }

  /// Types `text` into the text field `id`.
  @discardableResult
  public func type(_ id: String, _ text: String) throws -> LuaScreen.Step {
    guard let field = try view(id) as? TextField else {
      throw ScreenUsageError.unsupported("'\(id)' is not a text field: type works on text fields")
    }
    let fired = Self.typing(text, into: field)
    return try screen.step(on: field, id: id, in: owner, .control(fired, verb: "typing")) { field.simulateTyping(text) }
  }

  /// The events a tap on `control` fires.
  static func tapEvents(of control: Control) -> ControlEvents {
    var fired: ControlEvents = [.touchDown, .touchUpInside]
    if control is Switch { fired.insert(.valueChanged) }
    if control is Button { fired.insert(.primaryActionTriggered) }
    return fired
  }

  /// The events typing `text` into `field` fires: editingChanged only when a character is typed
  /// or the old text cleared.
  static func typing(_ text: String, into field: TextField) -> ControlEvents {
    text.isEmpty && field.text.isEmpty ? [.editingDidBegin, .editingDidEnd] : [.editingDidBegin, .editingChanged, .editingDidEnd]
  }

  /// Performs a gesture of `kindName` on `id` with parameters.
  @discardableResult
  public func gesture(_ id: String, _ kindName: String, _ parameters: [String: LuaValue] = [:]) throws -> LuaScreen.Step {
    let target = try view(id)
    guard let kind = SenderEvent.Gesture.Kind(name: kindName) else { throw ScreenUsageError.unknownEvent(kindName) }
    var input = GestureInput()
    var states: [GestureState]?
    for (key, value) in parameters {
      switch key {
      case "taps": input.taps = value.intValue
      case "touches": input.touches = value.intValue
      case "direction": input.direction = value.stringValue.flatMap(SwipeDirection.init(name:))
      case "edge", "edges": input.edge = value.stringValue.flatMap(RectEdge.init(name:))
      case "duration": input.duration = value.doubleValue
      case "scale": input.scale = value.doubleValue
      case "rotation": input.rotation = value.doubleValue
      case "x", "y":
        let current = input.translation ?? (0, 0)
        let number = value.doubleValue ?? 0
        input.translation = key == "x" ? (number, current.y) : (current.x, number)
      case "states":
        states = value.tableValue?.sequence.compactMap { $0.stringValue.flatMap(GestureState.init(name:)) }
      default:
        throw ScreenUsageError.badValue(
          "unknown gesture parameter '\(key)' (taps, touches, direction, edge, duration, scale, rotation, x, y, states)")
      }
      if key != "states", key != "x", key != "y", value == .nil {
        throw ScreenUsageError.badValue("gesture parameter '\(key)' has no value")
      }
    }
    do {
      let phases = states ?? GestureRecognizer(kind: kind).defaultSequence
      return try screen.step(on: target, id: id, in: owner, .gesture(kind, input, phases)) {
        try target.simulateGesture(kind, input, states: states) > 0
      }
    } catch let error as GestureTransitionError {
      throw ScreenUsageError.badValue(error.description)
    }
  }
}
