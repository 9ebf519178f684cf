/// How a named state's changes are applied: the transition gets the object, the changes and a
/// completion, runs the changes exactly once (inside an animation, say) and then calls the
/// completion once, with whether it finished.
///
/// ```swift
/// let fade = Transition<Spinner> { spinner, changes, completion in
///   animator.animate(spinner, duration: 0.25, changes: changes) { finished in completion(finished) }
/// }
/// spinner.states.apply(.loading(), via: fade) { finished in … }
/// ```
///
/// The dispatcher holds the contract: changes run at most once, a completion counts once, and a
/// completion before the changes ran counts as not finished (the state was not applied).
public struct Transition<Target: AnyObject> {
  /// The transition's work: `(object, changes, completion)`.
  public typealias Body = @MainActor (
    _ target: Target, _ changes: @escaping @MainActor () -> Void, _ completion: @escaping @MainActor (_ finished: Bool) -> Void
  ) -> Void

  let body: Body

  /// A transition doing `body`.
  ///
  /// - Parameter body: runs the changes once and then calls the completion once.
  public init(_ body: @escaping Body) {
    self.body = body
  }

  /// Runs the changes and completes, synchronously, in the call to `apply`.
  public static var instantly: Transition {
    Transition { _, changes, completion in
      changes()
      completion(true)
    }
  }
}
