/// Screen edges, the headless stand-in for `UIRectEdge`.
///
/// ```swift
/// ctx.screenEdgeGesture(edges: .right) { [.back] }
/// ```
public struct RectEdge: OptionSet, Hashable, Sendable, CustomStringConvertible {
  /// The bit mask (UIKit's values).
  public let rawValue: UInt

  /// Creates a set from its bit mask.
  public init(rawValue: UInt) {
    self.rawValue = rawValue
  }

  /// The top edge.
  public static let top = RectEdge(rawValue: 1 << 0)
  /// The left edge.
  public static let left = RectEdge(rawValue: 1 << 1)
  /// The bottom edge.
  public static let bottom = RectEdge(rawValue: 1 << 2)
  /// The right edge.
  public static let right = RectEdge(rawValue: 1 << 3)
  /// All four edges.
  public static let all: RectEdge = [.top, .left, .bottom, .right]

  /// Every single edge with its name.
  public static let named: [(name: String, edge: RectEdge)] = [
    ("top", .top), ("left", .left), ("bottom", .bottom), ("right", .right),
  ]

  /// The single edge called `name` (or `"all"`), or `nil`.
  public init?(name: String) {
    if name == "all" {
      self = .all
      return
    }
    guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
    self = match.edge
  }

  /// The names in the set, `|`-separated.
  public var description: String {
    let names = Self.named.filter { contains($0.edge) }.map(\.name)
    return names.isEmpty ? "[]" : names.joined(separator: "|")
  }
}
