/// A UI write to one field of the state, as an action (TCA-11): the view writes through a
/// ``StoreBinding``, the store receives `.binding(.set(\.field, value))`, and the binding
/// reducer (``Reducer/binding()``) assigns it. Other reducers can react to writes of a given
/// field by matching its key path (``matches(_:)``).
///
/// ```swift
/// enum SettingsAction: BindableAction {
///   case binding(BindingAction<Settings>)
///   case save
/// }
/// let reducer = Reducer<Settings, SettingsAction> { state, action in
///   if case .binding(let write) = action, write.matches(\.name) { state.isDirty = true }
///   return .none
/// }
/// .binding()
/// store.binding(\.name).value = "Ada"   // one action, one change, one notification
/// ```
public struct BindingAction<Root>: @unchecked Sendable, Equatable, CustomStringConvertible {
  // NB: unchecked because it stores the key path as a plain `PartialKeyPath` (for equality);
  // `set` takes only key paths that are `Sendable` (no non-Sendable subscript arguments), and
  // the written value is `Sendable` by the same constraint.

  /// The field written.
  public let keyPath: PartialKeyPath<Root>
  private let assign: (inout Root) -> Void
  private let value: any Sendable
  private let isEqualValue: @Sendable (any Sendable) -> Bool
  private let valueText: @Sendable () -> String

  /// A write of `value` to the field at `keyPath`.
  ///
  /// - Parameters:
  ///   - keyPath: the field.
  ///   - value: its new value.
  /// - Returns: the action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: any WritableKeyPath<Root, Value> & Sendable, _ value: Value
  ) -> BindingAction {
    BindingAction(
      keyPath: keyPath, assign: { $0[keyPath: keyPath] = value }, value: value,
      isEqualValue: { ($0 as? Value) == value }, valueText: { String(describing: value) })
  }

  /// Whether this writes the field at `keyPath`.
  ///
  /// - Parameter keyPath: a field of the state.
  public func matches<Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Bool {
    self.keyPath == keyPath
  }

  /// Assigns the value to the field in `root`.
  ///
  /// - Parameter root: the state.
  public func apply(to root: inout Root) {
    assign(&root)
  }

  /// Two writes are equal when they write equal values to the same field.
  public static func == (lhs: BindingAction, rhs: BindingAction) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }

  /// `set(\Root.field, value)`.
  public var description: String { "set(\(keyPath), \(valueText()))" }
}

/// An action type that can carry a ``BindingAction`` (an enum with a `binding` case).
public protocol BindableAction: Sendable {
  /// The state the bindings write to.
  associatedtype State

  /// Wraps a binding write as an action.
  ///
  /// - Parameter action: the write.
  /// - Returns: the action.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding write this action carries, if it is one.
  var binding: BindingAction<State>? { get }
}

extension Reducer where Action: BindableAction, Action.State == State {
  /// This reducer, preceded by the assignment of binding writes: a `.binding(.set(\.x, v))`
  /// action sets `x` to `v`, then this reducer sees the action (and the state already written).
  public func binding() -> Reducer {
    Reducer { state, action in
      action.binding?.apply(to: &state)
      return reduce(&state, action)
    }
  }
}

/// A two-way handle on a value of a store's state, for a view: reading gives the current value;
/// writing sends an action (the store's reducer decides what changes), never the state itself
/// (CF-11).
@MainActor
public struct StoreBinding<Value> {
  private let read: @MainActor () -> Value
  private let write: @MainActor (Value) -> Void

  /// A binding from a getter and a setter.
  ///
  /// - Parameters:
  ///   - get: reads the value.
  ///   - set: handles a write.
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.read = get
    self.write = set
  }

  /// The value now; setting it sends the binding's action.
  public var value: Value {
    get { read() }
    nonmutating set { write(newValue) }
  }
}

extension ReducerStore {
  /// A binding on the value at `keyPath`: its value is the state's; a write sends
  /// `action(newValue)`, and the state changes only as the reducer says (CF-11).
  ///
  /// - Parameters:
  ///   - keyPath: the value.
  ///   - action: the action a write sends.
  /// - Returns: the binding.
  public func binding<Value>(for keyPath: KeyPath<State, Value>, send action: @escaping (Value) -> Action) -> StoreBinding<Value> {
    StoreBinding(get: { self.state[keyPath: keyPath] }, set: { self.send(action($0)) })
  }

  /// A binding on the value at `keyPath` whose writes all send `action`, whatever the value
  /// written (CF-11's constant-event form, for a toggle that means "flip").
  ///
  /// - Parameters:
  ///   - keyPath: the value.
  ///   - action: the action every write sends.
  /// - Returns: the binding.
  public func binding<Value>(for keyPath: KeyPath<State, Value>, send action: Action) -> StoreBinding<Value> {
    StoreBinding(get: { self.state[keyPath: keyPath] }, set: { _ in self.send(action) })
  }
}

extension ReducerStore where Action: BindableAction, Action.State == State {
  /// A binding on the field at `keyPath` that writes through `.binding(.set(keyPath, value))`
  /// (TCA-11): one write is one action and one change.
  ///
  /// - Parameter keyPath: the field.
  /// - Returns: the binding.
  public func binding<Value: Equatable & Sendable>(_ keyPath: any WritableKeyPath<State, Value> & Sendable) -> StoreBinding<Value> {
    StoreBinding(get: { self.state[keyPath: keyPath] }, set: { self.send(.binding(.set(keyPath, $0))) })
  }
}
