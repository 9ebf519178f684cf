/// Holds a binder's state and renders every change of it with the state before (VS-1…VS-6).
///
/// ```swift
/// let profile = RenderedState(for: view, initial: Profile())   // one render, old state nil
/// profile.state.name = "Ada"                                     // one render
/// profile.update { $0.name = "Grace"; $0.isOnline = true }      // one render for both
/// ```
///
/// The holder keeps the binder weakly: once the binder is gone, changes render nothing.
@MainActor
public final class RenderedState<Binder: StateRendering> {
  /// The state; setting it renders the binder if the new state differs (with the old one).
  public var state: Binder.RenderState {
    didSet { binder?.renderIfNeeded(state: state, oldState: oldValue) }
  }

  private weak var binder: Binder?

  /// Creates the holder and renders `initial` once, with no old state and without animation
  /// (VS-3).
  ///
  /// - Parameters:
  ///   - binder: the binder to render.
  ///   - initial: the first state.
  public init(for binder: Binder, initial: Binder.RenderState) {
    self.binder = binder
    self.state = initial
    binder.render(state: initial, oldState: nil, animated: false)
  }

  /// Applies several changes as one: at most one render, whose old state is the state before
  /// `body` (VS-5); none if the state ends equal (VS-6).
  ///
  /// - Parameter body: mutates a copy of the state.
  public func update(_ body: (inout Binder.RenderState) throws -> Void) rethrows {
    var copy = state
    try body(&copy)
    state = copy
  }
}
