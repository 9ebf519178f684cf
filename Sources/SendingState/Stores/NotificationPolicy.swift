/// When a ``ReducerStore`` notifies its observers (the peers disagree; choose per store).
public enum NotificationPolicy: Sendable, Equatable {
  /// Once per `send`, after the action and every synchronous follow-up (`.send` effects) are
  /// reduced: observers see only the final state (TCA-2). The default: a render per user
  /// intent, not per internal step.
  case coalesced
  /// Once per reduced action, follow-ups included (CF-6): for observers that must see every
  /// intermediate state, like a log or an undo history.
  case everyAction
}
