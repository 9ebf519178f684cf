/// A pure state transition: applies an action to the state and says what work follows.
///
/// ```swift
/// let counter = Reducer<Int, CounterAction> { count, action in
///   switch action {
///   case .increment: count += 1
///   case .decrement: count -= 1
///   }
///   return .none
/// }
/// ```
///
/// A reducer changes nothing but the state it is given (no views, no stores); work with
/// side effects goes in the returned ``Effect``. Reducers are `Sendable`, so an app may keep
/// them in global constants (`let counter = Reducer { … }` compiles in Swift 6): their closures
/// are `@Sendable`, and what they capture must be too. A ``ReducerStore`` runs them on the
/// main actor. Reducers compose: ``combine(_:)`` runs several
/// in order, ``pullback(state:action:embed:)`` lifts a child reducer to a parent's state and
/// actions, ``optional()`` runs a reducer only while its state exists.
public struct Reducer<State, Action: Sendable>: Sendable {
  /// The transition: mutate the state, return the follow-up work.
  public let reduce: @Sendable (inout State, Action) -> Effect<Action>

  /// Creates a reducer from its transition.
  ///
  /// - Parameter reduce: mutates the state for an action and returns the effect.
  public init(_ reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// A reducer that changes nothing.
  public static var empty: Reducer { Reducer { _, _ in .none } }

  /// Runs `reducers` in order on each action; their effects are merged.
  ///
  /// - Parameter reducers: the reducers.
  public static func combine(_ reducers: Reducer...) -> Reducer {
    Reducer { state, action in
      .merge(reducers.map { $0.reduce(&state, action) })
    }
  }

  /// This reducer, lifted to a parent: it runs on `state` of the parent's state for the parent
  /// actions that `action` extracts, and ignores every other action (CF-13).
  ///
  /// - Parameters:
  ///   - state: where this reducer's state lives in the parent's.
  ///   - action: extracts this reducer's action from a parent action (nil: not ours).
  ///   - embed: wraps this reducer's action as a parent action (for its effects).
  public func pullback<Parent, ParentAction: Sendable>(
    state: any WritableKeyPath<Parent, State> & Sendable,
    action: @escaping @Sendable (ParentAction) -> Action?,
    embed: @escaping @Sendable (Action) -> ParentAction
  ) -> Reducer<Parent, ParentAction> {
    Reducer<Parent, ParentAction> { parent, parentAction in
      guard let child = action(parentAction) else { return .none }
      return reduce(&parent[keyPath: state], child).map(embed)
    }
  }

  /// This reducer on an optional state: it runs while the state exists and ignores actions
  /// while it is nil (CF-13).
  public func optional() -> Reducer<State?, Action> {
    Reducer<State?, Action> { state, action in
      guard var wrapped = state else { return .none }
      let effect = reduce(&wrapped, action)
      state = wrapped
      return effect
    }
  }
}
