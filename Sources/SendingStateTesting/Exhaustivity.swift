/// How strictly a ``TestStore`` holds a test to account.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, every received action and every running effect must be asserted
  /// (TCA-10 rules 1–5).
  case on
  /// Assertions are partial: a `send` or `receive` closure checks only what it mutates,
  /// `receive` skips the actions before the one it names, and nothing is owed at the end.
  case off
}
