/// The identity of a cancellable effect: any hashable, sendable value (a string, an enum case, a
/// type).
///
/// Ids are scoped per root store: the same id in two independent stores names two different
/// effects (TCA-5).
public struct EffectID: Hashable, @unchecked Sendable, CustomStringConvertible {
  // NB: unchecked because `AnyHashable` is not `Sendable`; the wrapped value is, by the
  // initializer's constraint, and is never mutated.
  private let value: AnyHashable

  /// Wraps `id`.
  ///
  /// - Parameter id: the identity; two ids are the same when their values are equal.
  public init(_ id: some Hashable & Sendable) {
    if let already = id as? EffectID {
      self = already
    } else {
      self.value = AnyHashable(id)
    }
  }

  /// The wrapped value, as text.
  public var description: String { String(describing: value.base) }
}
