/// Work a reducer asks its store to do after a state change: follow-up actions, async work that
/// sends actions back, and cancellation of earlier work.
///
/// A reducer returns one effect per action; the store starts it at once:
///
/// ```swift
/// case .queryChanged(let query):
///   state.query = query
///   return .run { send in
///     await send(.loaded(try await search(query)))
///   }
///   .debounce(id: "search", for: .milliseconds(300), clock: clock)
/// case .cancelTapped:
///   return .cancel(id: "search")
/// ```
///
/// Semantics (the same as a Lua screen's effects): `.send` actions are processed right after the
/// action that returned them, before anything sent later (FIFO, no recursion); `run` operations
/// run concurrently and send on the main actor; cancelling an id stops the operations started
/// under it, and actions they send afterwards are dropped; releasing the root store cancels
/// everything it started (TCA-6).
public struct Effect<Action: Sendable>: Sendable {
  /// The operation of a `run` effect. It runs on the main actor, like the store (decision:
  /// effects are deterministic under a test clock); await `nonisolated` functions for work
  /// that must leave it.
  public typealias Operation = @MainActor @Sendable (Send<Action>) async throws -> Void
  /// What a `run` effect does with an error its operation threw.
  public typealias Catch = @MainActor @Sendable (any Error, Send<Action>) async -> Void

  indirect enum Kind: Sendable {
    case none
    case send(Action)
    case run(priority: TaskPriority?, operation: Operation, catch: Catch?)
    case merge([Effect<Action>])
    case cancellable(EffectID, cancelInFlight: Bool, Effect<Action>)
    case cancel(EffectID)
    case debounce(EffectID, Duration, any Clock<Duration>, Effect<Action>)
    case throttle(EffectID, Duration, any Clock<Duration>, latest: Bool, Effect<Action>)
    /// A diagnostic for the store to report (a combinator's, from inside a pure reducer).
    case report(StoreDiagnostic)
  }

  let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// No work.
  public static var none: Effect { Effect(.none) }

  /// Processes `action` right after the current action (before anything sent later).
  ///
  /// - Parameter action: the follow-up action.
  public static func send(_ action: Action) -> Effect {
    Effect(.send(action))
  }

  /// Async work that may send actions back.
  ///
  /// - Parameters:
  ///   - priority: the task priority of the work.
  ///   - operation: the work; it receives a ``Send`` for its actions. Cancellation reaches it
  ///     as task cancellation.
  ///   - catch: turns an error the operation throws into actions. Without it an error (other
  ///     than cancellation) is reported as ``StoreDiagnostic/effectFailed(_:)``.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping Operation,
    catch: Catch? = nil
  ) -> Effect {
    Effect(.run(priority: priority, operation: operation, catch: `catch`))
  }

  /// Several effects started together, in order.
  ///
  /// - Parameter effects: the effects.
  public static func merge(_ effects: Effect...) -> Effect {
    merge(effects)
  }

  /// Several effects started together, in order.
  ///
  /// - Parameter effects: the effects.
  public static func merge(_ effects: [Effect]) -> Effect {
    let work = effects.filter { if case .none = $0.kind { false } else { true } }
    switch work.count {
    case 0: return .none
    case 1: return work[0]
    default: return Effect(.merge(work))
    }
  }

  /// Cancels every effect started under `id` (including pending debounced and throttled work).
  ///
  /// - Parameter id: the id given to ``cancellable(id:cancelInFlight:)``, ``debounce(id:for:clock:)``
  ///   or ``throttle(id:for:clock:latest:)``.
  public static func cancel(id: some Hashable & Sendable) -> Effect {
    Effect(.cancel(EffectID(id)))
  }

  /// This effect, cancellable by `id`.
  ///
  /// - Parameters:
  ///   - id: the identity to cancel it by, scoped to the root store.
  ///   - cancelInFlight: cancel the effects already running under `id` before starting this one.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
    if case .none = kind { return self }
    return Effect(.cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// This effect, started only after `duration` passes on `clock` without another effect under
  /// the same `id`: each new one cancels the one waiting (and any running under `id`).
  ///
  /// - Parameters:
  ///   - id: the debounce's identity (also cancels it).
  ///   - duration: the quiet time before the effect starts.
  ///   - clock: the clock to wait on (a test clock in tests: no real waiting).
  public func debounce(id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>) -> Effect {
    if case .none = kind { return self }
    return Effect(.debounce(EffectID(id), duration, clock, self))
  }

  /// This effect, started at most once per `duration` under `id`.
  ///
  /// The first effect starts at once and opens a window of `duration`. Effects throttled under
  /// the same id during the window wait; when it ends, the one kept starts (the latest, or the
  /// first with `latest: false`) and opens the next window; the others are dropped.
  ///
  /// - Parameters:
  ///   - id: the throttle's identity (also cancels it).
  ///   - duration: the window.
  ///   - clock: the clock the window is measured on.
  ///   - latest: keep the latest effect of a window (true) or the first (false).
  public func throttle(
    id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>, latest: Bool = true
  ) -> Effect {
    if case .none = kind { return self }
    return Effect(.throttle(EffectID(id), duration, clock, latest: latest, self))
  }

  /// The same work, with its actions transformed (for a child reducer's effects in a parent).
  ///
  /// - Parameter transform: turns each action into the parent's action.
  public func map<Other: Sendable>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
    switch kind {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .run(let priority, let operation, let handler):
      let lifted: Effect<Other>.Operation = { send in try await operation(Self.lift(send, transform)) }
      var caught: Effect<Other>.Catch?
      if let handler {
        caught = { error, send in await handler(error, Self.lift(send, transform)) }
      }
      return .run(priority: priority, operation: lifted, catch: caught)
    case .merge(let effects): return .merge(effects.map { $0.map(transform) })
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<Other>(.cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case .cancel(let id): return Effect<Other>(.cancel(id))
    case .debounce(let id, let duration, let clock, let effect):
      return Effect<Other>(.debounce(id, duration, clock, effect.map(transform)))
    case .throttle(let id, let duration, let clock, let latest, let effect):
      return Effect<Other>(.throttle(id, duration, clock, latest: latest, effect.map(transform)))
    case .report(let diagnostic): return Effect<Other>(.report(diagnostic))
    }
  }

  private static func lift<Other: Sendable>(_ send: Send<Other>, _ transform: @escaping @Sendable (Action) -> Other) -> Send<Action> {
    Send<Action> { action in send(transform(action)) }
  }
}
