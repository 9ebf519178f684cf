/// The `ss` namespace: a stateless wrapper that carries SendingState's features for a base object.
///
/// Every feature is a constrained extension on `SendingState where Base: …`. You rarely build one
/// yourself: hosts expose it as `host.ss`. Build it directly for objects that are not hosts:
///
/// ```swift
/// SendingState(plainConfigurable).configure("Hello")
/// ```
public struct SendingState<Base> {
  /// The object the features act on.
  public let base: Base

  /// Wraps `base`.
  ///
  /// - Parameter base: the object (or value) the namespace acts on.
  public init(_ base: Base) {
    self.base = base
  }
}
