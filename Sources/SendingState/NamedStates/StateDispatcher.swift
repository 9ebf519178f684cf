/// Applies the named states of one object, one at a time (XCEState's dispatcher).
///
/// Rules (XS-1…XS-8):
/// - Applying a state the object is not in runs its `onSet`, then its `onUpdate`, inside the
///   transition; the object is in the state (``phase`` `.ready(current:)`) once the transition
///   completes.
/// - Applying the current state again runs only its `onUpdate` (nothing, without one) and
///   completes with `true`.
/// - Applies are served in order: while a transition runs (``phase`` `.inTransition`), later
///   applies wait, and their changes run only after it completes.
/// - Each apply's completion is called exactly once, in order, with whether its transition
///   finished.
/// - A transition that completes with `false` was interrupted: the applies waiting behind it
///   are dropped (their completions get `false`, in order): they were asked for on the
///   assumption that it would land. If its changes had not run, the current state stays what it
///   was; if they had, the object looks like neither state, so none is current and the next
///   apply of any state runs its `onSet`. Apply again to go on.
/// - The object is held weakly: once it is gone, no changes run and every waiting apply
///   completes with `false`.
@MainActor
public final class StateDispatcher<Target: Stateful> {
  private struct Pending {
    let state: NamedState<Target>
    let transition: Transition<Target>?
    let completion: (@MainActor (Bool) -> Void)?
  }

  /// The object whose states this dispatcher applies (nil once it is gone).
  public private(set) weak var target: Target?
  /// Where the dispatcher stands: ready in a state, or in a transition.
  public private(set) var phase: NamedStatePhase = .ready(current: nil)
  /// Waiting applies; a started one's slot is emptied at once, so the dispatcher holds no
  /// completion (and nothing it captured) longer than needed.
  private var queue: [Pending?] = []
  private var queueHead = 0
  private var isDraining = false
  /// Counts transitions, so a late or repeated completion acts only on its own transition.
  private var transitionToken = 0

  /// A dispatcher for `target`, ready with no current state. Most code uses
  /// ``Stateful/states`` instead, which keeps one per object.
  ///
  /// - Parameter target: the object; held weakly.
  public init(for target: Target) {
    self.target = target
  }

  /// The name of the object's current state (nil before the first apply completes).
  public var current: String? {
    switch phase {
    case .ready(let current): current
    case .inTransition(let previous, _): previous
    }
  }

  /// The number of applies waiting for the running transition.
  public var waiting: Int { queue.count - queueHead }

  /// Applies `state`, now or once the applies before it are done.
  ///
  /// - Parameters:
  ///   - state: the state to apply.
  ///   - transition: how; nil (the default) uses the type's ``Stateful/defaultTransition``;
  ///     ``Transition/instantly`` applies synchronously whatever the default.
  ///   - completion: called once, with whether the transition finished.
  public func apply(
    _ state: NamedState<Target>, via transition: Transition<Target>? = nil,
    completion: (@MainActor (_ finished: Bool) -> Void)? = nil
  ) {
    queue.append(Pending(state: state, transition: transition, completion: completion))
    drain()
  }

  /// Starts waiting applies while the dispatcher is ready. (A loop, not recursion: a long run
  /// of instant applies, or a completion that applies again, never deepens the stack.)
  private func drain() {
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    while case .ready(let current) = phase, queueHead < queue.count {
      let next = queue[queueHead]
      queue[queueHead] = nil
      queueHead += 1
      if queueHead == queue.count {
        queue = []
        queueHead = 0
      } else if queueHead > 64, queueHead * 2 > queue.count {
        queue.removeFirst(queueHead)
        queueHead = 0
      }
      if let next { start(next, from: current) }
    }
  }

  private func start(_ pending: Pending, from current: String?) {
    guard let target else {
      // The object is gone: nothing runs; this apply and every waiting one end unfinished.
      dropWaiting(after: pending.completion)
      return
    }
    let name = pending.state.name
    let isUpdate = current == name
    transitionToken += 1
    let token = transitionToken
    phase = .inTransition(previous: current, target: name)
    var changed = false
    let state = pending.state
    // The closures hold the dispatcher strongly (only while a transition keeps them: the
    // dispatcher never stores them) and the object weakly.
    let changes: @MainActor () -> Void = { [self, weak target] in
      guard token == self.transitionToken, !changed, let target else { return }
      changed = true
      if !isUpdate { state.onSet(target) }
      state.onUpdate?(target)
    }
    // The completion keeps only the caller's completion (not the transition, which may hold
    // whatever holds this completion: a cycle).
    let done = pending.completion
    let completion: @MainActor (Bool) -> Void = { [self] finished in
      guard token == self.transitionToken, case .inTransition = self.phase else { return }
      // Finished means the changes ran (a transition that completes without them did not
      // apply the state). Interrupted after its changes ran, the object looks like neither
      // state: no state is current, so the next apply of any state runs its onSet.
      let landed = finished && changed
      self.transitionToken += 1  // later calls of this completion or these changes do nothing
      self.phase = .ready(current: landed ? name : (changed ? nil : current))
      if landed { done?(true) } else { self.dropWaiting(after: done) }
      self.drain()
    }
    (pending.transition ?? Target.defaultTransition).body(target, changes, completion)
  }

  /// Ends `first` and every waiting apply unfinished, in order (an interrupted transition, or
  /// the object gone). The queue is emptied first, so an apply made by one of these completions
  /// is a new request, served afterwards.
  private func dropWaiting(after first: (@MainActor (Bool) -> Void)?) {
    let dropped = queue[queueHead...].compactMap { $0 }
    queue = []
    queueHead = 0
    // Draining is held off while the completions run, so an apply one of them makes waits
    // until every dropped completion has been called (the caller drains afterwards).
    let wasDraining = isDraining
    isDraining = true
    first?(false)
    for pending in dropped { pending.completion?(false) }
    isDraining = wasDraining
  }
}

extension StateDispatcher: TargetHolding {
  var holdsTarget: Bool { target != nil }
}
