import Foundation

extension Reducer {
  /// This reducer with an optional child: `child` runs on the child state at `state` for the
  /// actions `action` extracts, before this reducer (TCA's `ifLet`).
  ///
  /// - While the child state is nil, a child action is ignored and the store reports
  ///   ``StoreDiagnostic/childActionWhileNil(child:action:)`` (TCA-7).
  /// - When this reducer sets the child state to nil, every effect the child started is
  ///   cancelled: a child's work never outlives it. (Replacing the child with another non-nil
  ///   value keeps them: without an identity the two are one child; set it to nil first, or
  ///   use ``forEach(_:action:embed:element:)`` with ids.)
  /// - The child's effect ids are its own: `.cancel(id: "search")` in the child cancels only
  ///   the child's "search".
  ///
  /// - Parameters:
  ///   - state: where the optional child state lives.
  ///   - action: extracts a child action from an action (nil: not the child's).
  ///   - embed: wraps a child action as an action (for the child's effects).
  ///   - child: the child's reducer.
  /// - Returns: the combined reducer.
  public func ifLet<Child, ChildAction: Sendable>(
    _ state: any WritableKeyPath<State, Child?> & Sendable,
    action: @escaping @Sendable (Action) -> ChildAction?,
    embed: @escaping @Sendable (ChildAction) -> Action,
    then child: Reducer<Child, ChildAction>
  ) -> Reducer {
    let scope = EffectID(ChildScope(id: UUID(), element: nil as String?))
    let path = String(describing: state)
    return Reducer { parent, parentAction in
      var childEffect: Effect<Action> = .none
      if let childAction = action(parentAction) {
        if var wrapped = parent[keyPath: state] {
          childEffect = child.reduce(&wrapped, childAction).scoped(in: scope).map(embed).cancellable(id: scope)
          parent[keyPath: state] = wrapped
        } else {
          childEffect = Effect(.report(.childActionWhileNil(child: path, action: String(describing: parentAction))))
        }
      }
      let wasPresent = parent[keyPath: state] != nil
      let parentEffect = reduce(&parent, parentAction)
      let dismissed = wasPresent && parent[keyPath: state] == nil
      return .merge(childEffect, parentEffect, dismissed ? .cancel(id: scope) : .none)
    }
  }

  /// This reducer with a collection of children: `element` runs on the element with the id
  /// that `action` extracts, before this reducer (TCA's `forEach`).
  ///
  /// - An action for an id the collection does not hold is ignored and the store reports
  ///   ``StoreDiagnostic/elementActionForMissingID(collection:id:action:)`` (TCA-8).
  /// - When this reducer removes an element, every effect that element started is cancelled.
  /// - Each element's effect ids are its own: two elements' `"search"` effects do not cancel
  ///   each other.
  ///
  /// - Parameters:
  ///   - elements: where the collection lives.
  ///   - action: extracts an element's id and action from an action (nil: not an element's).
  ///   - embed: wraps an element's action, with its id, as an action (for its effects).
  ///   - element: the element's reducer.
  /// - Returns: the combined reducer.
  public func forEach<Element: Identifiable, ElementAction: Sendable>(
    _ elements: any WritableKeyPath<State, [Element]> & Sendable,
    action: @escaping @Sendable (Action) -> (id: Element.ID, action: ElementAction)?,
    embed: @escaping @Sendable (Element.ID, ElementAction) -> Action,
    element: Reducer<Element, ElementAction>
  ) -> Reducer where Element.ID: Sendable, Element: SendableMetatype {
    let scope = UUID()
    let path = String(describing: elements)
    @Sendable func scopeOf(_ id: Element.ID) -> EffectID { EffectID(ChildScope(id: scope, element: id)) }
    return Reducer { parent, parentAction in
      var elementEffect: Effect<Action> = .none
      if let (id, elementAction) = action(parentAction) {
        if let index = parent[keyPath: elements].firstIndex(where: { $0.id == id }) {
          let effect = element.reduce(&parent[keyPath: elements][index], elementAction)
          let elementScope = scopeOf(id)
          elementEffect = effect.scoped(in: elementScope).map { embed(id, $0) }.cancellable(id: elementScope)
        } else {
          elementEffect = Effect(
            .report(
              .elementActionForMissingID(
                collection: path, id: String(describing: id), action: String(describing: parentAction))))
        }
      }
      let before = Set(parent[keyPath: elements].map(\.id))
      let parentEffect = reduce(&parent, parentAction)
      var cancels: [Effect<Action>] = []
      if !before.isEmpty {
        let after = Set(parent[keyPath: elements].map(\.id))
        for removed in before.subtracting(after) { cancels.append(.cancel(id: scopeOf(removed))) }
      }
      return .merge([elementEffect, parentEffect] + cancels)
    }
  }
}

/// The effects of one child: the combinator that made it, and which element (nil for an
/// optional child).
struct ChildScope<Element: Hashable & Sendable>: Hashable, Sendable {
  let id: UUID
  let element: Element?
}

/// An effect id inside a child's scope (the child's own "search" is not another child's).
struct ScopedEffectID: Hashable, Sendable {
  let scope: EffectID
  let id: EffectID
}

extension Effect {
  /// The same work, with every effect id it names moved into `scope`.
  func scoped(in scope: EffectID) -> Effect {
    func inner(_ id: EffectID) -> EffectID { EffectID(ScopedEffectID(scope: scope, id: id)) }
    switch kind {
    case .none, .send, .run, .report: return self
    case .merge(let effects): return Effect(.merge(effects.map { $0.scoped(in: scope) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect(.cancellable(inner(id), cancelInFlight: cancelInFlight, effect.scoped(in: scope)))
    case .cancel(let id): return Effect(.cancel(inner(id)))
    case .debounce(let id, let duration, let clock, let effect):
      return Effect(.debounce(inner(id), duration, clock, effect.scoped(in: scope)))
    case .throttle(let id, let duration, let clock, let latest, let effect):
      return Effect(.throttle(inner(id), duration, clock, latest: latest, effect.scoped(in: scope)))
    }
  }
}
