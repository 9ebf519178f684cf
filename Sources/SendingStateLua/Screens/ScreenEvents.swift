import Foundation
import SendingState
import SendingStateHeadless

/// Event names, gesture parameters and action shapes of the screen contract.
enum ScreenEvents {
  static var eventNames: String {
    "control events: " + ControlEvents.named.map(\.name).joined(separator: ", ") + "; gestures: "
      + SenderEvent.Gesture.Kind.named.map(\.name).joined(separator: ", ")
  }

  /// Parses `on`'s event argument: a name, or `{ gesture = …, taps = …, … }` / `{ control = … }`.
  @MainActor
  static func parse(_ spec: LuaValue, sender: View) throws -> (SenderEvent, String) {
    try parse(spec, senderID: sender.id, kind: sender.kind, isControl: sender is Control)
  }

  /// Parses `on`'s event argument for a sender of `kind` (with `senderID`, if it has one).
  static func parse(_ spec: LuaValue, senderID: String?, kind: String, isControl: Bool) throws -> (SenderEvent, String) {
    let senderName = "'\(senderID ?? kind)' (\(kind))"
    switch spec {
    case .string(let name):
      if let control = ControlEvents(name: name) {
        guard isControl else {
          throw ScriptError(
            kind: .runtime,
            message: "\(senderName) is not a control, so it has no '\(name)' event (use a gesture such as 'tap')")
        }
        return (.control(.init(control)), name)
      }
      if let kind = SenderEvent.Gesture.Kind(name: name) {
        return (.gesture(SenderEvent.Gesture.standard(kind)), name)
      }
      throw ScriptError(kind: .runtime, message: "unknown event '\(name)' (\(eventNames))")
    case .table(let table):
      if let control = table.fields["control"] {
        return try parse(control, senderID: senderID, kind: kind, isControl: isControl)
      }
      guard let kindName = table.fields["gesture"]?.stringValue, let kind = SenderEvent.Gesture.Kind(name: kindName) else {
        throw ScriptError(
          kind: .runtime, message: "an event table needs gesture = <name> or control = <name> (\(eventNames))")
      }
      var gesture = SenderEvent.Gesture.standard(kind)
      for (key, value) in table.fields where key != "gesture" {
        func integer() throws -> Int {
          guard let number = value.intValue else { throw bad(key, "integer", value) }
          return number
        }
        switch key {
        case "taps": gesture.numberOfTaps = try integer()
        case "touches": gesture.numberOfTouches = try integer()
        case "duration":
          guard let seconds = value.doubleValue else { throw bad(key, "number", value) }
          gesture.minimumPressDuration = seconds
        case "direction":
          guard let name = value.stringValue, let direction = SwipeDirection(name: name) else {
            throw bad(key, "right, left, up or down", value)
          }
          gesture.direction = direction
        case "edges", "edge":
          guard let name = value.stringValue, let edges = RectEdge(name: name) else {
            throw bad(key, "top, left, bottom, right or all", value)
          }
          gesture.edges = edges
        case "states":
          guard case .table(let list) = value, list.fields.isEmpty else { throw bad(key, "a list of state names", value) }
          gesture.states = Set(
            try list.sequence.map { item in
              guard let name = item.stringValue, let state = GestureState(name: name) else {
                throw bad(key, "state names (began, changed, ended, cancelled, recognized…)", item)
              }
              return state
            })
        default:
          throw ScriptError(
            kind: .runtime,
            message: "unknown gesture parameter '\(key)' (taps, touches, duration, direction, edges, states)")
        }
      }
      return (.gesture(gesture), kindName)
    default:
      throw ScriptError(kind: .typeMismatch, message: "bad argument #2 to 'on' (an event name or table expected, got \(spec.typeName))")
    }
  }

  private static func bad(_ key: String, _ expected: String, _ value: LuaValue) -> ScriptError {
    ScriptError(kind: .typeMismatch, message: "gesture parameter '\(key)': expected \(expected), got \(describe(value))")
  }

  /// Normalizes what a callback returned: nil, an action, a bare type string, or a list of them.
  static func actions(from value: LuaValue, context: String?) throws -> [LuaValue] {
    func single(_ item: LuaValue) throws -> LuaValue {
      switch item {
      case .string(let type): return ["type": .string(type)]
      case .table(let table) where table.fields["type"]?.stringValue != nil: return item
      default:
        throw ScriptError(
          kind: .typeMismatch,
          message: "an action is a table with a string 'type' (or a bare type string), got \(describe(item))",
          context: context)
      }
    }
    switch value {
    case .nil: return []
    case .table(let table) where table.fields.isEmpty: return try table.sequence.map(single)
    default: return [try single(value)]
    }
  }
}
