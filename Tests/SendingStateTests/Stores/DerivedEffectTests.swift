import SendingState
import SendingStateTesting
import Testing

private struct Search: Equatable {
  var query: String?
  var isLive = false
  var log: [String] = []
}

private enum SearchAction: Equatable, Sendable {
  case query(String?)
  case live(Bool)
  case found(String)
  case tick
  case note(String)
}

/// Searches the query after 1 s (CF-8); ticks every second while live (CF-9).
private func searchReducer(_ clock: TestClock) -> Reducer<Search, SearchAction> {
  Reducer<Search, SearchAction> { state, action in
    switch action {
    case .query(let query): state.query = query
    case .live(let live): state.isLive = live
    case .found(let result): state.log.append(result)
    case .tick: state.log.append("tick")
    case .note: break
    }
    return .none
  }
  .onChange(of: \.query) { query in
    .run { send in
      try await clock.sleep(for: .seconds(1))
      send(.found("results for \(query)"))
    }
  }
  .whenever(\.isLive) { _ in
    .run { send in
      while true {
        try await clock.sleep(for: .seconds(1))
        send(.tick)
      }
    }
  }
}

private struct Form: Equatable {
  var name = ""
  var isDirty = false
  var count = 0
}

private enum FormAction: BindableAction, Equatable {
  case binding(BindingAction<Form>)
  case setCount(Int)
  case flip

  var binding: BindingAction<Form>? {
    if case .binding(let write) = self { write } else { nil }
  }
}

@Suite("State-derived effects, middleware and bindings (CF-8…CF-11, TCA-11)")
@MainActor
struct DerivedEffectTests {
  @Test("CF-8: the work restarts only when the derived control changes; nil cancels it and starts nothing")
  func skippingRepeated() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: Search(), reducer: searchReducer(clock))
    store.send(.query("tea"))
    await clock.advance(by: .milliseconds(500))
    store.send(.query("tea"))  // equal: the running search goes on
    await clock.advance(by: .milliseconds(500))
    #expect(store.state.log == ["results for tea"])
    store.send(.query("green"))
    await clock.advance(by: .milliseconds(500))
    store.send(.query("matcha"))  // changed: the search for green is cancelled
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["results for tea", "results for matcha"])
    store.send(.query("sencha"))
    store.send(.query(nil))  // nil: cancelled, nothing starts
    await clock.advance(by: .seconds(2))
    #expect(store.state.log == ["results for tea", "results for matcha"])
  }

  @Test("CF-9: the work starts on false → true, does not restart while true, and is cancelled on true → false")
  func edgeTriggered() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: Search(), reducer: searchReducer(clock))
    store.send(.live(true))
    await clock.advance(by: .milliseconds(1500))
    store.send(.live(true))  // still true: the same ticker goes on (no restart of its second)
    await clock.advance(by: .milliseconds(500))
    #expect(store.state.log == ["tick", "tick"])
    store.send(.live(false))
    await clock.advance(by: .seconds(3))
    #expect(store.state.log == ["tick", "tick"])
  }

  @Test("CF-10: middleware gets the state after the action and the action, for every action, never for the initial state")
  func middleware() {
    let seen = Shared<[String]>([])
    let reducer = Reducer<Int, String> { count, action in
      if action == "add" { count += 1 }
      return .none
    }
    .middleware { count, action in
      seen.update { $0.append("\(action) → \(count)") }
      return .none
    }
    let store = ReducerStore(initialState: 10, reducer: reducer)
    #expect(seen.value.isEmpty)
    store.send("add")
    store.send("look")
    #expect(seen.value == ["add → 11", "look → 11"])
  }

  @Test("CF-11: a binding reads the state; a write sends its action and does not mutate; the constant form ignores the value")
  func bindingWriteIsAnEvent() {
    let sent = Shared<[FormAction]>([])
    let reducer = Reducer<Form, FormAction> { form, action in
      sent.update { $0.append(action) }
      if case .setCount(let n) = action, n >= 0 { form.count = n }  // ignores negatives
      if action == .flip { form.isDirty.toggle() }
      return .none
    }
    let store = ReducerStore(initialState: Form(), reducer: reducer)
    let count = store.binding(for: \.count, send: { .setCount($0) })
    #expect(count.value == 0)
    count.value = 3
    #expect(store.state.count == 3)
    count.value = -1  // the reducer ignores it: the binding still reads the old value
    #expect(count.value == 3)
    let dirty = store.binding(for: \.isDirty, send: .flip)
    dirty.value = false  // sends .flip whatever the value
    #expect(store.state.isDirty)
    #expect(sent.value == [.setCount(3), .setCount(-1), .flip])
  }

  @Test("TCA-11: a UI write is a binding action; the binding reducer assigns it; other reducers match its key path; one change per write")
  func bindingAction() {
    let reducer = Reducer<Form, FormAction> { form, action in
      if let write = action.binding, write.matches(\.name) { form.isDirty = true }
      return .none
    }
    .binding()
    let store = ReducerStore(initialState: Form(), reducer: reducer)
    var notified: [Form] = []
    let token = store.observe { notified.append($0) }
    store.binding(\.name).value = "Ada"
    #expect(store.state == Form(name: "Ada", isDirty: true, count: 0))
    store.binding(\.count).value = 2
    #expect(store.state.count == 2)
    #expect(notified.count == 3)  // the initial state, then one per write
    #expect(BindingAction<Form>.set(\.name, "Ada") == .set(\.name, "Ada"))
    #expect(BindingAction<Form>.set(\.name, "Ada") != .set(\.name, "Grace"))
    #expect(BindingAction<Form>.set(\.count, 1).description.contains("count, 1)"))
    token.cancel()
  }

  @Test("TCA-11 in a test store: the write is asserted like any action")
  func bindingInTestStore() async {
    let store = TestStore(initialState: Form(), reducer: Reducer<Form, FormAction> { _, _ in .none }.binding())
    await store.send(.binding(.set(\.name, "Ada"))) { $0.name = "Ada" }
  }
}
