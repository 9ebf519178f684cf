import SendingState
import SendingStateHeadless
import Testing

private struct Profile: Equatable {
  var name = "Ada"
  var isOnline = false
}

/// Records every render it gets.
private final class ProfileView: View, StateRendering {
  struct Render: Equatable {
    let state: Profile
    let oldState: Profile?
    let animated: Bool
  }
  var renders: [Render] = []

  func render(state: Profile, oldState: Profile?, animated: Bool) {
    renders.append(Render(state: state, oldState: oldState, animated: animated))
  }
}

@Suite("Render with history (ViewState's behaviours)")
@MainActor
struct StateRenderingTests {
  @Test("VS-3: the initial state renders exactly once, with no old state, not animated")
  func firstRender() {
    let view = ProfileView()
    let window = Window()
    window.addSubview(view)
    window.isVisible = true
    view.size = LayoutSize(width: 100, height: 40)  // could animate, but a first render never does
    let holder = RenderedState(for: view, initial: Profile())
    #expect(view.renders == [.init(state: Profile(), oldState: nil, animated: false)])
    _ = holder
  }

  @Test("VS-1 / VS-2: an equal state renders nothing; a different one renders once with the old state")
  func equalSkipAndOldState() {
    let view = ProfileView()
    let holder = RenderedState(for: view, initial: Profile())
    holder.state = Profile()
    #expect(view.renders.count == 1)
    holder.state.isOnline = true
    #expect(view.renders.count == 2)
    #expect(view.renders.last == .init(state: Profile(isOnline: true), oldState: Profile(), animated: false))
  }

  @Test("VS-4: animated only in a visible window with a non-empty size; the state setter cannot choose")
  func derivedAnimatedFlag() {
    let view = ProfileView()
    let holder = RenderedState(for: view, initial: Profile())
    holder.state.name = "a"  // no window
    let window = Window()
    window.addSubview(view)
    holder.state.name = "b"  // a window, not visible
    window.isVisible = true
    holder.state.name = "c"  // visible, but zero size
    view.size = LayoutSize(width: 320, height: 80)
    holder.state.name = "d"  // visible and sized
    view.removeFromSuperview()
    holder.state.name = "e"  // detached again
    #expect(view.renders.dropFirst().map(\.animated) == [false, false, false, true, false])
    view.render(state: Profile(name: "f"), oldState: nil, animated: true)  // a direct call chooses
    #expect(view.renders.last?.animated == true)
  }

  @Test("VS-5 / VS-6: update { } batches changes into one render (old state from before); a no-op batch renders nothing")
  func batchedUpdate() {
    let view = ProfileView()
    let holder = RenderedState(for: view, initial: Profile())
    holder.update {
      $0.name = "Grace"
      $0.isOnline = true
    }
    #expect(view.renders.count == 2)
    #expect(view.renders.last?.oldState == Profile())
    #expect(view.renders.last?.state == Profile(name: "Grace", isOnline: true))
    holder.update { $0.name = "Grace" }
    #expect(view.renders.count == 2)
    holder.state.name = "x"
    holder.state.isOnline = false
    #expect(view.renders.count == 4)  // two assignments, two renders
  }

  @Test("VS-7: renderIfNeeded behaves like the setter, for callers with their own didSet")
  func manualHook() {
    let view = ProfileView()
    view.renderIfNeeded(state: Profile(), oldState: nil)
    view.renderIfNeeded(state: Profile(), oldState: Profile())
    view.renderIfNeeded(state: Profile(name: "b"), oldState: Profile())
    #expect(view.renders.map(\.oldState) == [nil, Profile()])
  }

  @Test("the holder keeps its binder weakly: after the binder is gone, changes render nothing and nothing crashes")
  func weakBinder() {
    var view: ProfileView? = ProfileView()
    let holder = RenderedState(for: view!, initial: Profile())
    weak let gone = view
    view = nil
    #expect(gone == nil)
    holder.state.name = "after"
  }

  @Test("a reducer store renders a StateRendering binder with history, skipping equal states")
  func storeRendersWithHistory() {
    enum Action: Sendable { case rename(String) }
    let store = ReducerStore(
      initialState: Profile(),
      reducer: Reducer<Profile, Action> { profile, action in
        if case .rename(let name) = action { profile.name = name }
        return .none
      })
    let view = ProfileView()
    let token = store.render(on: view)
    store.send(.rename("Ada"))  // equal: no render
    store.send(.rename("Grace"))
    #expect(view.renders == [
      .init(state: Profile(), oldState: nil, animated: false),
      .init(state: Profile(name: "Grace"), oldState: Profile(), animated: false),
    ])
    token.cancel()
    store.send(.rename("Hopper"))
    #expect(view.renders.count == 2)
  }
}
