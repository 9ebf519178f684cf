import Foundation

/// An event a sender can emit: a control event or a gesture with its parameters.
///
/// It is the key of an event mapping. Built by ``SenderEventMappingContext``'s methods:
///
/// ```swift
/// SenderEvent.control(.init(.touchUpInside))
/// SenderEvent.gesture(.init(kind: .tap, numberOfTaps: 2))
/// ```
public enum SenderEvent: Hashable, Sendable, CustomStringConvertible {
  /// A control event mask.
  case control(Control)
  /// A gesture and its recognizer parameters.
  case gesture(Gesture)

  /// A control event key. Equality is by raw mask: a composite mask differs from its parts.
  public struct Control: Hashable, Sendable {
    /// The mask.
    public let value: ControlEvents

    /// Wraps a mask.
    public init(_ event: ControlEvents) {
      self.value = event
    }
  }

  /// A gesture key. Equality and hashing cover every field, so the same kind with other
  /// parameters is another key (and gets its own recognizer).
  public struct Gesture: Hashable, Sendable, CustomStringConvertible {
    /// The recognizer kind(s). A multi-bit kind installs one recognizer per bit.
    public var kind: Kind
    /// The recognizer states that deliver. Empty means every state.
    public var states: Set<GestureState>
    /// Taps required (tap, long press).
    public var numberOfTaps: Int?
    /// Touches required (tap, long press, swipe) or the minimum touches (pan).
    public var numberOfTouches: Int?
    /// The swipe direction.
    public var direction: SwipeDirection?
    /// The minimum press duration of a long press, in seconds.
    public var minimumPressDuration: TimeInterval?
    /// The screen edges of a screen-edge pan.
    public var edges: RectEdge?

    /// Creates a gesture key.
    ///
    /// Fix (D-8): this initializer is public (upstream's was internal), so ``SenderEventMappingContext/gesture(_:_:)-(_,()->[Action])``
    /// is usable from client code.
    public init(
      kind: Kind, states: Set<GestureState> = [.recognized], numberOfTaps: Int? = nil, numberOfTouches: Int? = nil,
      direction: SwipeDirection? = nil, minimumPressDuration: TimeInterval? = nil, edges: RectEdge? = nil
    ) {
      self.kind = kind
      self.states = states
      self.numberOfTaps = numberOfTaps
      self.numberOfTouches = numberOfTouches
      self.direction = direction
      self.minimumPressDuration = minimumPressDuration
      self.edges = edges
    }

    /// The gesture a mapping context method makes for `kind` with its default arguments.
    ///
    /// tap: 1 tap, 1 touch, `[.recognized]`; longPress: 0.5 s, 0 taps, 1 touch,
    /// `[.began, .ended]`; swipe: `.right`, 1 touch, `[.recognized]`; pan, pinch, rotation:
    /// `[.changed, .ended]`; screenEdge: `.left`, `[.recognized]`; hover: `[.changed]`.
    ///
    /// ```swift
    /// SenderEvent.Gesture.standard(.longPress).minimumPressDuration   // 0.5
    /// ```
    public static func standard(_ kind: Kind) -> Gesture {
      switch kind {
      case .tap: Gesture(kind: .tap, states: [.recognized], numberOfTaps: 1, numberOfTouches: 1)
      case .longPress:
        Gesture(kind: .longPress, states: [.began, .ended], numberOfTaps: 0, numberOfTouches: 1, minimumPressDuration: 0.5)
      case .swipe: Gesture(kind: .swipe, states: [.recognized], numberOfTouches: 1, direction: .right)
      case .screenEdge: Gesture(kind: .screenEdge, states: [.recognized], edges: .left)
      case .hover: Gesture(kind: .hover, states: [.changed])
      default: Gesture(kind: kind, states: [.changed, .ended])
      }
    }

    /// `tap(taps: 2, touches: 1; recognized)` style, for diagnostics.
    public var description: String {
      var parts: [String] = []
      if let numberOfTaps { parts.append("taps: \(numberOfTaps)") }
      if let numberOfTouches { parts.append("touches: \(numberOfTouches)") }
      if let direction { parts.append("direction: \(direction)") }
      if let minimumPressDuration { parts.append("duration: \(minimumPressDuration)") }
      if let edges { parts.append("edges: \(edges)") }
      let states = states.map(\.description).sorted().joined(separator: ",")
      return "\(kind)(\(parts.joined(separator: ", "))\(parts.isEmpty ? "" : "; ")\(states))"
    }

    /// Gesture kinds, one bit each.
    public struct Kind: OptionSet, Hashable, Sendable, CustomStringConvertible {
      /// The bit mask.
      public let rawValue: UInt

      /// Creates a set from its bit mask.
      public init(rawValue: UInt) {
        self.rawValue = rawValue
      }

      /// A tap (discrete).
      public static let tap = Kind(rawValue: 1 << 0)
      /// A long press (continuous).
      public static let longPress = Kind(rawValue: 1 << 1)
      /// A swipe (discrete).
      public static let swipe = Kind(rawValue: 1 << 2)
      /// A pan (continuous).
      public static let pan = Kind(rawValue: 1 << 3)
      /// A pinch (continuous).
      public static let pinch = Kind(rawValue: 1 << 4)
      /// A rotation (continuous).
      public static let rotation = Kind(rawValue: 1 << 5)
      /// A pan from a screen edge (continuous).
      public static let screenEdge = Kind(rawValue: 1 << 6)
      /// A pointer hover (continuous).
      public static let hover = Kind(rawValue: 1 << 7)

      /// Every single kind with its name, in bit order.
      public static let named: [(name: String, kind: Kind)] = [
        ("tap", .tap), ("longPress", .longPress), ("swipe", .swipe), ("pan", .pan), ("pinch", .pinch),
        ("rotation", .rotation), ("screenEdge", .screenEdge), ("hover", .hover),
      ]

      /// The single kind called `name`, or `nil`.
      public init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match.kind
      }

      /// The single-bit kinds in this set, in bit order.
      public var singleKinds: [Kind] {
        Self.named.map(\.kind).filter { contains($0) }
      }

      /// Whether the kind is discrete (recognized at once) rather than continuous.
      public var isDiscrete: Bool {
        self == .tap || self == .swipe
      }

      /// The names in the set, `|`-separated.
      public var description: String {
        let names = Self.named.filter { contains($0.kind) }.map(\.name)
        return names.isEmpty ? "[]" : names.joined(separator: "|")
      }
    }
  }

  /// `control(touchUpInside)` or the gesture's description.
  public var description: String {
    switch self {
    case .control(let control): "control(\(control.value))"
    case .gesture(let gesture): "gesture(\(gesture))"
    }
  }
}
