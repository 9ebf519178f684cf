/// The gesture event being delivered right now, for mapping closures that need its phase.
///
/// UIKit hands a gesture's action its recognizer, and the action reads `recognizer.state`;
/// mapping closures here return actions instead, so the core publishes the same facts while it
/// delivers a gesture: the recognizer's state and a token for the recognizer (the same during
/// all phases of one gesture, so `began` and `ended` can be matched). Outside a gesture
/// delivery, ``current`` is `nil`.
///
/// ```swift
/// ctx.longPressGesture(on: [.began, .ended]) {
///   [Action.press(phase: GestureDelivery.current?.state)]
/// }
/// ```
@MainActor
public enum GestureDelivery {
  /// The phase and recognizer token of the gesture being delivered, if one is.
  public private(set) static var current: (state: GestureState, token: ObjectIdentifier)?

  /// Runs `body` with `state` and `token` as the current delivery (restored afterwards).
  static func deliver(_ state: GestureState, token: ObjectIdentifier, _ body: () -> Void) {
    let saved = current
    current = (state, token)
    defer { current = saved }
    body()
  }
}
