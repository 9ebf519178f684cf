/// Why a type-erased store refused a value or a binder.
///
/// Thrown by ``AnyBindingStore/setState(_:)`` and ``AnyBindingStore/tryApply(to:)`` (and, for a
/// binder, by ``AnyBoundable/tryApply(to:)``):
///
/// ```swift
/// do { try anyStore.setState(42) } catch { print(error) }
/// // "state type mismatch: expected String, got Int"
/// ```
public enum BindingStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A state value of the wrong type was offered.
  case stateTypeMismatch(expected: String, actual: String)
  /// A binder of the wrong type was offered.
  case binderTypeMismatch(expected: String, actual: String)

  /// A one-line explanation with the expected and actual types.
  public var description: String {
    switch self {
    case let .stateTypeMismatch(expected, actual):
      "state type mismatch: expected \(expected), got \(actual)"
    case let .binderTypeMismatch(expected, actual):
      "binder type mismatch: expected \(expected), got \(actual)"
    }
  }
}
