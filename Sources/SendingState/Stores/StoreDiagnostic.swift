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

  /// A sentence for logs and test failures.
  public var description: String {
    switch self {
    case .sendFromReducer(let action):
      "a reducer sent \(action) to its own store while reducing: it was queued after the current action; return .send(\(action)) from the reducer instead"
    case .lateSend(let action):
      "an effect sent \(action) after its run operation returned: it was dropped; await the work that sends before returning from run"
    case .effectFailed(let error):
      "an effect's run operation threw \(error) and nothing caught it: pass a catch handler to .run to turn errors into actions"
    }
  }
}
