/// How an effect's async work sends actions back into its store.
///
/// An effect's `run` operation receives one; calling it feeds the action to the store on the main
/// actor, after any action the store is processing (FIFO, never recursively):
///
/// ```swift
/// return .run { send in
///   let results = try await search(query)
///   await send(.loaded(results))
/// }
/// ```
///
/// A send from an effect that was cancelled is dropped. A send after the operation has returned
/// is dropped with a ``StoreDiagnostic/lateSend(_:)`` diagnostic (TCA-12): await your work
/// before returning.
public struct Send<Action: Sendable>: Sendable {
  private let body: @MainActor @Sendable (Action) -> Void

  /// Creates a sender that calls `body` with each action.
  ///
  /// - Parameter body: what sending an action does.
  public init(_ body: @escaping @MainActor @Sendable (Action) -> Void) {
    self.body = body
  }

  /// Sends `action` to the store.
  ///
  /// - Parameter action: the action to process.
  @MainActor
  public func callAsFunction(_ action: Action) {
    body(action)
  }
}
