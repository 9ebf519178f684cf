/// Where an object's named states stand: ready in a state, or in a transition between two
/// (a ``StateDispatcher``'s phase, and a Lua screen's `states`).
public enum NamedStatePhase: Equatable, Sendable {
  /// No transition runs; `current` is the state (nil before the first one is applied).
  case ready(current: String?)
  /// A transition from `previous` to `target` runs; `previous` is still the current state.
  case inTransition(previous: String?, target: String)
}
