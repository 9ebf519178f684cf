/// A named state of a ``Stateful`` object: the changes made when the object enters it
/// (`onSet`) and when the state is applied again while current (`onUpdate`).
///
/// Two named states are the same state when their names are equal, whatever the values they
/// captured. Declare them in an extension (see ``Stateful``).
public struct NamedState<Target: AnyObject> {
  /// The state's identity (the declaring function's name with its labels, or an explicit name).
  public let name: String
  let onSet: @MainActor (Target) -> Void
  let onUpdate: (@MainActor (Target) -> Void)?

  /// Declares a named state.
  ///
  /// - Parameters:
  ///   - name: the state's identity; by default the declaring function's name with its labels
  ///     (`highlighted(_:)`), so applying it with other arguments re-applies the same state.
  ///   - onSet: the changes made when the object enters the state.
  public init(named name: String = #function, onSet: @escaping @MainActor (Target) -> Void = { _ in }) {
    self.init(name: name, onSet: onSet, onUpdate: nil)
  }

  private init(name: String, onSet: @escaping @MainActor (Target) -> Void, onUpdate: (@MainActor (Target) -> Void)?) {
    self.name = name
    self.onSet = onSet
    self.onUpdate = onUpdate
  }

  /// The changes made each time the state is applied: after `onSet` when the object enters the
  /// state, and alone when the state is applied again while current.
  ///
  /// - Parameter body: the changes (for instance the values this application of the state
  ///   carries).
  /// - Returns: the state with `body` as its update.
  public func onUpdate(_ body: @escaping @MainActor (Target) -> Void) -> NamedState {
    NamedState(name: name, onSet: onSet, onUpdate: body)
  }
}
