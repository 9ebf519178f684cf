/// A set of control events, the headless stand-in for `UIControl.Event`.
///
/// ```swift
/// ctx.control(.touchUpInside) { [.tapped] }
/// ControlEvents(name: "valueChanged")   // .valueChanged
/// ```
public struct ControlEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The bit mask.
  public let rawValue: UInt

  /// Creates a set from its bit mask.
  public init(rawValue: UInt) {
    self.rawValue = rawValue
  }

  /// A touch went down in the control.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// A touch lifted inside the control's bounds (a tap).
  public static let touchUpInside = ControlEvents(rawValue: 1 << 1)
  /// A touch lifted outside the control's bounds.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 2)
  /// The control's value changed through user interaction.
  public static let valueChanged = ControlEvents(rawValue: 1 << 3)
  /// Editing began in a text field.
  public static let editingDidBegin = ControlEvents(rawValue: 1 << 4)
  /// The text of a text field changed through editing.
  public static let editingChanged = ControlEvents(rawValue: 1 << 5)
  /// Editing ended in a text field.
  public static let editingDidEnd = ControlEvents(rawValue: 1 << 6)
  /// The control's primary action fired (a button tap, return in a text field).
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 7)

  /// Every event above.
  public static let allEvents: ControlEvents = ControlEvents(rawValue: (1 << 8) - 1)

  /// Every single event with its name, in declaration order.
  public static let named: [(name: String, event: ControlEvents)] = [
    ("touchDown", .touchDown), ("touchUpInside", .touchUpInside), ("touchUpOutside", .touchUpOutside),
    ("valueChanged", .valueChanged), ("editingDidBegin", .editingDidBegin),
    ("editingChanged", .editingChanged), ("editingDidEnd", .editingDidEnd),
    ("primaryActionTriggered", .primaryActionTriggered),
  ]

  /// The single event called `name` (as in ``named``), or `nil`.
  public init?(name: String) {
    guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
    self = match.event
  }

  /// The names of the events in the set, `|`-separated (`"touchDown|touchUpInside"`).
  public var description: String {
    let names = Self.named.filter { contains($0.event) }.map(\.name)
    return names.isEmpty ? "[]" : names.joined(separator: "|")
  }
}
