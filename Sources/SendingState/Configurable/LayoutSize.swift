/// A width and a height, the headless stand-in for `CGSize`.
///
/// Used by ``Configurable/size(with:constrainedTo:)`` to measure a binder for some input:
///
/// ```swift
/// LayoutSize(width: 320, height: 44)
/// ```
public struct LayoutSize: Hashable, Sendable, CustomStringConvertible {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// A size of zero by zero.
  public static let zero = LayoutSize(width: 0, height: 0)

  /// `"W×H"`, for diagnostics.
  public var description: String { "\(width)×\(height)" }
}
