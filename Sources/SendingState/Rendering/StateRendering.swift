/// A binder that renders a state knowing the state it rendered before (ViewState's model).
///
/// ```swift
/// final class ProfileView: View, StateRendering {
///   func render(state: Profile, oldState: Profile?, animated: Bool) {
///     if state.name != oldState?.name { nameLabel.text = state.name }
///     if state.isOnline != oldState?.isOnline { badge.isHidden = !state.isOnline }
///   }
/// }
/// let profile = RenderedState(for: view, initial: Profile(name: "Ada"))  // renders once
/// profile.state.isOnline = true                                          // renders (old, new)
/// ```
///
/// Rules (VS-1…VS-7): an equal state is not rendered; the first render has no old state and is
/// not animated; `animated` is derived from where the binder is (on screen, with a size: see
/// ``AnimationHosting``), never passed through the state.
@MainActor
public protocol StateRendering: AnyObject {
  /// The rendered state.
  associatedtype RenderState: Equatable

  /// Renders `state`. `oldState` is the state rendered before (nil the first time).
  ///
  /// - Parameters:
  ///   - state: the state to show.
  ///   - oldState: the state shown until now, nil on the first render.
  ///   - animated: whether the change may animate.
  func render(state: RenderState, oldState: RenderState?, animated: Bool)
}

extension StateRendering {
  /// Renders `state` unless it equals `oldState` (VS-7: for callers that use `didSet`); a nil
  /// old state always renders. `animated` is derived: true when the binder is an
  /// ``AnimationHosting`` that can animate now and there is an old state.
  ///
  /// - Parameters:
  ///   - state: the new state.
  ///   - oldState: the previous state, nil if nothing was rendered.
  public func renderIfNeeded(state: RenderState, oldState: RenderState?) {
    if let oldState, oldState == state { return }
    let animated = oldState != nil && ((self as? any AnimationHosting)?.canAnimate ?? false)
    render(state: state, oldState: oldState, animated: animated)
  }
}

/// Something that knows whether a change to it may animate now (a headless view: attached to a
/// visible window, with a non-empty size).
@MainActor
public protocol AnimationHosting: AnyObject {
  /// Whether a render may animate now.
  var canAnimate: Bool { get }
}
