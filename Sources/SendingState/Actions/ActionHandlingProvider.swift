/// An object that handles the actions a view's senders produce.
///
/// Deliberately **not** `@MainActor` (as upstream): a handler may live in a model layer. Events
/// call `handle(action:)` synchronously, once per action, in order:
///
/// ```swift
/// final class CounterHandler: ActionHandlingProvider {
///   let store: BindingStore<Counter, CounterView>
///   init(store: BindingStore<Counter, CounterView>) { self.store = store }
///   func handle(action: CounterAction) {
///     if case .increment = action { store.state.count += 1 }
///   }
/// }
/// counterView.ss.addActionHandler(to: handler)
/// ```
///
/// Contract: registrations never retain the handler; keep it alive yourself.
public protocol ActionHandlingProvider: AnyObject {
  /// The action type the handler accepts; actions of other types are dropped silently.
  associatedtype Action
  /// Handles one action.
  func handle(action: Action)
}
