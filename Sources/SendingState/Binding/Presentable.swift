/// A holder of state that can present it on a binder of a known type.
///
/// ``BindingStore`` is the standard implementation. Conform your own presenter when the state
/// lives elsewhere:
///
/// ```swift
/// struct Fixed: Presentable {
///   var state: Int
///   var binderType: CountLabel.Type { CountLabel.self }
///   func apply(to binder: CountLabel) { binder.ss.configure(state) }
/// }
/// ```
public protocol Presentable {
  /// The state type.
  associatedtype State
  /// The binder the state is presented on.
  associatedtype Binder: Configurable where Binder.Input == State

  /// The current state.
  var state: State { get set }
  /// The binder's type, for registries and diagnostics.
  var binderType: Binder.Type { get }

  /// Presents the state on `binder` (typically through `binder.ss.configure(state)`).
  @MainActor func apply(to binder: Binder)
}
