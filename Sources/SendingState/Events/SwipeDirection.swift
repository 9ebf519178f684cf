/// Swipe directions, the headless stand-in for `UISwipeGestureRecognizer.Direction`.
///
/// ```swift
/// ctx.swipeGesture(direction: .left) { [.dismiss] }
/// ```
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The bit mask (UIKit's values).
  public let rawValue: UInt

  /// Creates a set from its bit mask.
  public init(rawValue: UInt) {
    self.rawValue = rawValue
  }

  /// Towards the right.
  public static let right = SwipeDirection(rawValue: 1 << 0)
  /// Towards the left.
  public static let left = SwipeDirection(rawValue: 1 << 1)
  /// Upwards.
  public static let up = SwipeDirection(rawValue: 1 << 2)
  /// Downwards.
  public static let down = SwipeDirection(rawValue: 1 << 3)

  /// Every single direction with its name.
  public static let named: [(name: String, direction: SwipeDirection)] = [
    ("right", .right), ("left", .left), ("up", .up), ("down", .down),
  ]

  /// The single direction called `name`, or `nil`.
  public init?(name: String) {
    guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
    self = match.direction
  }

  /// The names in the set, `|`-separated.
  public var description: String {
    let names = Self.named.filter { contains($0.direction) }.map(\.name)
    return names.isEmpty ? "[]" : names.joined(separator: "|")
  }
}
