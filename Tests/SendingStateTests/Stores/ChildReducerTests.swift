import SendingState
import SendingStateTesting
import Testing

/// A child with work: `start` finishes after 1 s of the test clock under the child's own id
/// "work" (cancelling its previous one), `done` records it.
private struct Child: Equatable, Identifiable {
  var id: Int
  var log: [String] = []
}

private enum ChildAction: Equatable, Sendable {
  case start(String)
  case done(String)
  case stop
}

private func childReducer(_ clock: TestClock) -> Reducer<Child, ChildAction> {
  Reducer { child, action in
    switch action {
    case .start(let name):
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.done(name))
      }
      .cancellable(id: "work", cancelInFlight: true)
    case .done(let name):
      child.log.append(name)
      return .none
    case .stop:
      return .cancel(id: "work")
    }
  }
}

private struct Parent: Equatable {
  var child: Child?
  var children: [Child] = []
  var log: [String] = []
}

private enum ParentAction: Equatable, Sendable {
  case child(ChildAction)
  case element(Int, ChildAction)
  case present
  case dismiss
  case remove(Int)
  case startOwn
  case ownDone
}

private func parentReducer(_ clock: TestClock) -> Reducer<Parent, ParentAction> {
  Reducer<Parent, ParentAction> { state, action in
    switch action {
    case .present: state.child = Child(id: 0)
    case .dismiss: state.child = nil
    case .remove(let id): state.children.removeAll { $0.id == id }
    case .startOwn:
      // The parent's own "work": a child's `.cancel(id: "work")` must not reach it.
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.ownDone)
      }
      .cancellable(id: "work")
    case .ownDone: state.log.append("own done")
    case .child, .element: break
    }
    return .none
  }
  .ifLet(
    \.child, action: { if case .child(let a) = $0 { a } else { nil } }, embed: { .child($0) }, then: childReducer(clock)
  )
  .forEach(
    \.children, action: { if case .element(let id, let a) = $0 { (id, a) } else { nil } }, embed: { .element($0, $1) },
    element: childReducer(clock))
}

@Suite("Child reducers: optional and collection children own their effects (TCA-7, TCA-8)")
@MainActor
struct ChildReducerTests {
  fileprivate func store(_ clock: TestClock, _ state: Parent = Parent()) -> (ReducerStore<Parent, ParentAction>, () -> [StoreDiagnostic]) {
    var diagnostics: [StoreDiagnostic] = []
    let store = ReducerStore(initialState: state, reducer: parentReducer(clock), diagnostics: { diagnostics.append($0) })
    return (store, { diagnostics })
  }

  @Test("TCA-7: a child action while the child is nil is ignored with a diagnostic")
  func childActionWhileNil() {
    let (store, diagnostics) = store(TestClock())
    store.send(.child(.done("x")))
    #expect(store.state == Parent())
    #expect(diagnostics().count == 1)
    guard case .childActionWhileNil(let child, let action)? = diagnostics().first else {
      Issue.record("no diagnostic")
      return
    }
    #expect(child.hasSuffix("Parent.child"))
    #expect(action.contains("done(\"x\")"))
    #expect(diagnostics().first?.description.contains("while it was nil, and ignored") == true)
  }

  @Test("TCA-7: setting the child to nil cancels the child's running effects; a new child starts afresh")
  func dismissCancels() async {
    let clock = TestClock()
    let (store, diagnostics) = store(clock)
    store.send(.present)
    store.send(.child(.start("a")))
    await clock.advance(by: .milliseconds(500))
    store.send(.dismiss)
    store.send(.present)
    await clock.advance(by: .seconds(2))
    #expect(store.state.child == Child(id: 0))  // "a" never arrived, at the old child or the new
    store.send(.child(.start("b")))
    await clock.advance(by: .seconds(1))
    #expect(store.state.child?.log == ["b"])
    #expect(diagnostics().isEmpty)
  }

  @Test("TCA-7: a child's effect ids are its own: its cancel(id:) leaves the parent's effect with that id")
  func childIDsAreScoped() async {
    let clock = TestClock()
    let (store, _) = store(clock)
    store.send(.present)
    store.send(.startOwn)
    store.send(.child(.start("a")))
    store.send(.child(.stop))
    await clock.advance(by: .seconds(1))
    #expect(store.state.log == ["own done"])
    #expect(store.state.child?.log == [])
  }

  @Test("TCA-8: an action for an id the collection does not hold is ignored with a diagnostic")
  func missingElement() {
    let (store, diagnostics) = store(TestClock(), Parent(children: [Child(id: 1)]))
    store.send(.element(7, .done("x")))
    #expect(store.state.children == [Child(id: 1)])
    guard case .elementActionForMissingID(let collection, let id, _)? = diagnostics().first else {
      Issue.record("no diagnostic")
      return
    }
    #expect(collection.hasSuffix("Parent.children"))
    #expect(id == "7")
  }

  @Test("TCA-8: removing an element cancels that element's effects only; elements' ids do not collide")
  func removeCancels() async {
    let clock = TestClock()
    let (store, diagnostics) = store(clock, Parent(children: [Child(id: 1), Child(id: 2)]))
    store.send(.element(1, .start("one")))
    store.send(.element(2, .start("two")))  // the same id "work", cancelInFlight: not element 1's
    await clock.advance(by: .milliseconds(500))
    store.send(.remove(1))
    await clock.advance(by: .seconds(1))
    #expect(store.state.children == [Child(id: 2, log: ["two"])])
    #expect(diagnostics().isEmpty)
  }

  @Test("TCA-7/TCA-8 in a test store: the child's effect is cancelled, so nothing is owed at the end")
  func testStore() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent(), reducer: parentReducer(clock))
    await store.send(.present) { $0.child = Child(id: 0) }
    await store.send(.child(.start("a")))
    await store.send(.dismiss) { $0.child = nil }
    await clock.advance(by: .seconds(2))
    await store.finish()
  }
}
