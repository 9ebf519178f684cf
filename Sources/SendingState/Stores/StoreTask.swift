/// The effects one ``ReducerStore/send(_:)`` started: await them or cancel them (TCA-13).
///
/// ```swift
/// await store.send(.refresh).finish()   // returns when refresh's effects are done
/// ```
public struct StoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  init(_ tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Waits until every effect the send started has finished (or was cancelled).
  public func finish() async {
    for task in tasks {
      await task.value
    }
  }

  /// Cancels every effect the send started; actions they send afterwards are dropped.
  public func cancel() {
    for task in tasks {
      task.cancel()
    }
  }

  /// Whether every effect the send started has been cancelled (false when it started none).
  public var isCancelled: Bool {
    !tasks.isEmpty && tasks.allSatisfy(\.isCancelled)
  }

  /// Whether the send started any effect with async work.
  public var hasEffects: Bool { !tasks.isEmpty }
}
