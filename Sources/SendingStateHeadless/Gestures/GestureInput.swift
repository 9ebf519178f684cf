import Foundation
import SendingState

/// What a simulated gesture does: tap count, touches, direction, edge, duration, movement.
///
/// `nil` fields mean "whatever the recognizer asks for", except taps and touches, which default
/// to one as a real finger would:
///
/// ```swift
/// view.simulateGesture(.swipe, GestureInput(direction: .left))
/// view.simulateGesture(.tap, GestureInput(taps: 2))
/// ```
public struct GestureInput: Hashable, Sendable {
  /// Taps (default 1 for taps; a long press's preceding taps default to its requirement).
  public var taps: Int?
  /// Touches (default 1).
  public var touches: Int?
  /// The swipe direction.
  public var direction: SwipeDirection?
  /// The edge a screen-edge pan starts from.
  public var edge: RectEdge?
  /// How long a press lasts, in seconds.
  public var duration: TimeInterval?
  /// The pan translation, in points.
  public var translation: (x: Double, y: Double)? {
    get { translationX.map { ($0, translationY ?? 0) } }
    set {
      translationX = newValue?.x
      translationY = newValue?.y
    }
  }
  private var translationX: Double?
  private var translationY: Double?
  /// The pinch scale.
  public var scale: Double?
  /// The rotation, in radians.
  public var rotation: Double?

  /// Creates an input.
  public init(
    taps: Int? = nil, touches: Int? = nil, direction: SwipeDirection? = nil, edge: RectEdge? = nil,
    duration: TimeInterval? = nil, translation: (x: Double, y: Double)? = nil, scale: Double? = nil,
    rotation: Double? = nil
  ) {
    self.taps = taps
    self.touches = touches
    self.direction = direction
    self.edge = edge
    self.duration = duration
    self.translationX = translation?.x
    self.translationY = translation?.y
    self.scale = scale
    self.rotation = rotation
  }
}
