/// A view that gesture recognizers can be attached to (the `UIView` role).
///
/// The headless `View` conforms. The core asks it for a recognizer per gesture kind, configured
/// from the gesture key's parameters, then attaches it:
///
/// ```swift
/// let recognizer = view.makeGestureRecognizer(kind: .tap, configuredBy: .init(kind: .tap, numberOfTaps: 2))
/// view.addGestureRecognizer(recognizer)
/// ```
@MainActor
public protocol GestureHosting: AnyObject, Sendable {
  /// A new recognizer of the single kind `kind`, configured with `gesture`'s parameters.
  func makeGestureRecognizer(kind: SenderEvent.Gesture.Kind, configuredBy gesture: SenderEvent.Gesture)
    -> any GestureRecognizing
  /// Attaches `recognizer` to the view.
  func addGestureRecognizer(_ recognizer: any GestureRecognizing)
  /// Detaches `recognizer` from the view.
  func removeGestureRecognizer(_ recognizer: any GestureRecognizing)
}
