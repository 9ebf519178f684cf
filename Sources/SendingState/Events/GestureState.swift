/// The state of a gesture recognizer, the headless stand-in for `UIGestureRecognizer.State`.
///
/// As in UIKit, ``recognized`` is the same value as ``ended``: a discrete gesture (a tap) ends
/// by being recognized.
///
/// ```swift
/// ctx.panGesture(on: [.changed, .ended]) { [.dragged] }
/// ```
public struct GestureState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The raw value (UIKit's numbering).
  public let rawValue: Int

  /// Creates a state from its raw value.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Not recognized yet (the resting state).
  public static let possible = GestureState(rawValue: 0)
  /// A continuous gesture started.
  public static let began = GestureState(rawValue: 1)
  /// A continuous gesture moved.
  public static let changed = GestureState(rawValue: 2)
  /// A continuous gesture ended.
  public static let ended = GestureState(rawValue: 3)
  /// A continuous gesture was cancelled.
  public static let cancelled = GestureState(rawValue: 4)
  /// The gesture failed to be recognized.
  public static let failed = GestureState(rawValue: 5)
  /// A discrete gesture was recognized (equal to ``ended``).
  public static let recognized = GestureState.ended

  /// Every distinct state with its name (`recognized` is listed for `ended`'s value too).
  public static let named: [(name: String, state: GestureState)] = [
    ("possible", .possible), ("began", .began), ("changed", .changed), ("ended", .ended),
    ("cancelled", .cancelled), ("failed", .failed), ("recognized", .recognized),
  ]

  /// The state called `name` (as in ``named``), or `nil`.
  public init?(name: String) {
    guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
    self = match.state
  }

  /// The state's name (`ended` for the shared value of `ended` and `recognized`).
  public var description: String {
    Self.named.first { $0.state == self }?.name ?? "state(\(rawValue))"
  }
}
