/// Something a ``ReducerStore`` noticed that is almost always a programming error, reported
/// without stopping the app (the peers' lesson: buffer and warn, never assert).
public enum StoreDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// A reducer called `send` on its own store while reducing. The action was queued and will be
  /// processed after the current one (TCA-3); return `.send(action)` instead.
  case sendFromReducer(String)
  /// An effect sent an action after its `run` operation had returned; the action was dropped
  /// (TCA-12).
  case lateSend(String)
  /// An effect's `run` operation threw an error that no `catch` handler took.
  case effectFailed(String)
  /// An action for an optional child arrived while the child state was nil (TCA-7); it was
  /// ignored. (The child's path, then the action.)
  case childActionWhileNil(child: String, action: String)
  /// An action for an element of a collection arrived for an id the collection does not hold
  /// (TCA-8); it was ignored. (The collection's path, the id, then the action.)
  case elementActionForMissingID(collection: String, id: String, action: String)

  /// A sentence for logs and test failures.
  public var description: String {
    switch self {
    case .sendFromReducer(let action):
      "a reducer sent \(action) to its own store while reducing: it was queued after the current action; return .send(\(action)) from the reducer instead"
    case .lateSend(let action):
      "an effect sent \(action) after its run operation returned: it was dropped; await the work that sends before returning from run"
    case .effectFailed(let error):
      "an effect's run operation threw \(error) and nothing caught it: pass a catch handler to .run to turn errors into actions"
    case .childActionWhileNil(let child, let action):
      "\(action) was sent to the child at \(child) while it was nil, and ignored: send child actions only while the child exists (an effect of the child that outlives it is cancelled when the parent sets it to nil)"
    case .elementActionForMissingID(let collection, let id, let action):
      "\(action) was sent to the element \(id) of \(collection), which holds no such element, and ignored: send element actions only for elements in the collection"
    }
  }
}
