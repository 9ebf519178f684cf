import Foundation

extension Reducer {
  /// This reducer, then `body` with the state after the action and the action (CombineFeedback's
  /// event-aware middleware, CF-10): for work that depends on what happened, such as analytics.
  /// It sees every reduced action and never the initial state (no action made it).
  ///
  /// - Parameter body: gets the new state (read-only) and the action; returns work to start.
  /// - Returns: the combined reducer.
  public func middleware(_ body: @escaping @Sendable (_ state: State, _ action: Action) -> Effect<Action>) -> Reducer {
    Reducer { state, action in
      let effect = reduce(&state, action)
      return .merge(effect, body(state, action))
    }
  }

  /// This reducer, with work derived from the state (CombineFeedback's `skippingRepeated`,
  /// CF-8): whenever an action changes `control(state)`, the work for the old value is
  /// cancelled and `effect(newValue)` starts; an action that leaves the control equal starts
  /// nothing; a nil control cancels the work and starts none.
  ///
  /// Work starts from actions only: a store whose initial state already has a control starts
  /// nothing until an action changes it (send an "appeared" action to start at once).
  ///
  /// - Parameters:
  ///   - control: the part of the state the work depends on (nil: no work).
  ///   - effect: the work for a control value.
  /// - Returns: the combined reducer.
  public func onChange<Control: Equatable & SendableMetatype>(
    of control: @escaping @Sendable (State) -> Control?, run effect: @escaping @Sendable (Control) -> Effect<Action>
  ) -> Reducer {
    let id = EffectID(DerivedEffects(id: UUID()))
    return Reducer { state, action in
      let before = control(state)
      let own = reduce(&state, action)
      let after = control(state)
      guard before != after else { return own }
      guard let after else { return .merge(own, .cancel(id: id)) }
      return .merge(own, effect(after).cancellable(id: id, cancelInFlight: true))
    }
  }

  /// This reducer, with work while a condition holds (CombineFeedback's edge-triggered
  /// predicate, CF-9): when an action makes `predicate` true, `effect(state)` starts; while it
  /// stays true nothing restarts; when an action makes it false, the work is cancelled.
  ///
  /// - Parameters:
  ///   - predicate: the condition on the state.
  ///   - effect: the work, from the state that made the condition true.
  /// - Returns: the combined reducer.
  public func whenever(_ predicate: @escaping @Sendable (State) -> Bool, run effect: @escaping @Sendable (State) -> Effect<Action>) -> Reducer {
    let id = EffectID(DerivedEffects(id: UUID()))
    return Reducer { state, action in
      let before = predicate(state)
      let own = reduce(&state, action)
      let after = predicate(state)
      switch (before, after) {
      case (false, true): return .merge(own, effect(state).cancellable(id: id, cancelInFlight: true))
      case (true, false): return .merge(own, .cancel(id: id))
      default: return own
      }
    }
  }
}

/// The work of one state-derived effect combinator.
struct DerivedEffects: Hashable, Sendable {
  let id: UUID
}
