/// A type whose instances expose the ``SendingState`` namespace as `ss`.
///
/// The headless `View` conforms, as UIKit's `UIView` does upstream. Conform your own types to get
/// `obj.ss.configure(…)` and friends:
///
/// ```swift
/// final class Card: SendingStateHost { … }
/// card.ss.configure(model)
/// ```
public protocol SendingStateHost {}

extension SendingStateHost {
  /// A new namespace wrapper around `self` (a fresh value on every access).
  public var ss: SendingState<Self> {
    SendingState(self)
  }

  /// The namespace's metatype. Kept for parity with upstream; no static features exist yet.
  public static var ss: SendingState<Self>.Type {
    SendingState<Self>.self
  }
}
