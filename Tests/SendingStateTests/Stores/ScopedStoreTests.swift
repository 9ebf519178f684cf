import SendingState
import SendingStateHeadless
import Testing

private struct Parent: Equatable {
  var child = Child()
  var other = 0
  var optional: Child?
}

private struct Child: Equatable {
  var count = 0
}

private enum ParentAction: Equatable, Sendable {
  case child(ChildAction)
  case optional(ChildAction)
  case other
  case clearOptional
}

private enum ChildAction: Equatable, Sendable {
  case increment
}

@MainActor private let childReducer = Reducer<Child, ChildAction> { child, _ in
  child.count += 1
  return .none
}

@MainActor private let parentReducer = Reducer<Parent, ParentAction>.combine(
  childReducer.pullback(
    state: \.child, action: { if case .child(let a) = $0 { a } else { nil } }, embed: ParentAction.child),
  childReducer.optional().pullback(
    state: \.optional, action: { if case .optional(let a) = $0 { a } else { nil } }, embed: ParentAction.optional),
  Reducer { parent, action in
    switch action {
    case .other: parent.other += 1
    case .clearOptional: parent.optional = nil
    default: break
    }
    return .none
  }
)

@Suite("Scoped stores and composed reducers")
@MainActor
struct ScopedStoreTests {
  @Test("CF-12 / TCA-9: a child store reads the parent's part and sends through it; both see each other's changes")
  func scoping() {
    let store = ReducerStore(initialState: Parent(), reducer: parentReducer)
    let child = store.scope(state: \.child, action: ParentAction.child)
    #expect(child.state.count == 0)
    child.send(.increment)
    #expect(store.state.child.count == 1)
    store.send(.child(.increment))
    #expect(child.state.count == 2)

    var seen: [Int] = []
    let token = child.observe { seen.append($0.count) }
    store.send(.other)  // the child's part is unchanged: its observers hear nothing
    child.send(.increment)
    #expect(seen == [2, 3])
    _ = token
  }

  @Test("scoping twice gives stores that behave the same; the same path with another embedding wraps its own way; scopes compose")
  func scopeComposition() {
    let store = ReducerStore(initialState: Parent(), reducer: parentReducer)
    let a = store.scope(state: \.child, action: ParentAction.child)
    let b = store.scope(state: \.child, action: ParentAction.child)
    a.send(.increment)
    #expect(b.state.count == 1)
    // The same key path and action type, embedded another way: not a cached `a`.
    let viaOptional = store.scope(state: \.child, action: ParentAction.optional)
    viaOptional.send(.increment)  // becomes .optional(.increment): ignored while optional is nil
    #expect(store.state.child.count == 1)
    let count = a.scope(state: \.count, action: { (action: ChildAction) in action })
    a.send(.increment)
    #expect(count.state == 2)
  }

  @Test("CF-13: a pulled-back reducer ignores actions it does not extract; optional() ignores actions while nil")
  func pullbackFilters() {
    let store = ReducerStore(initialState: Parent(), reducer: parentReducer)
    store.send(.other)
    #expect(store.state.child.count == 0)
    store.send(.optional(.increment))
    #expect(store.state.optional == nil)
    var withChild = Parent()
    withChild.optional = Child()
    let other = ReducerStore(initialState: withChild, reducer: parentReducer)
    other.send(.optional(.increment))
    #expect(other.state.optional?.count == 1)
  }

  @Test("a store drives a Configurable binder and handles its senders' actions (ActionHandlingProvider)")
  func plugsIntoSendingState() {
    final class CounterView: View, Configurable, EventForwardingProvider {
      let label = Label(id: "count")
      let plus = Button(id: "plus")
      var renders = 0
      override init(id: String? = nil) {
        super.init(id: id)
        addSubview(label)
        addSubview(plus)
      }
      var configurer: (CounterView, Child) -> Void {
        { view, child in
          view.renders += 1
          view.label.text = "\(child.count)"
        }
      }
      var eventForwarder: any EventForwardable {
        EventForwarder(plus) { _, ctx in ctx.control(.touchUpInside) { [ChildAction.increment] } }
      }
    }
    let store = ReducerStore(initialState: Child(), reducer: childReducer)
    let view = CounterView()
    store.apply(to: view)
    #expect(view.ss.addActionHandler(to: store).isEmpty)
    #expect(view.label.text == "0" && view.renders == 1)
    #expect(view.plus.simulateTap())
    #expect(store.state.count == 1)
    #expect(view.label.text == "1" && view.renders == 2)
    store.detachBinder()
    store.send(.increment)
    #expect(view.label.text == "1")

    // Type-erased, the store still takes its senders' actions synchronously.
    let erased = AnyActionHandlingProvider(store)
    let other = CounterView()
    #expect(erased.attach(to: other).isEmpty)
    #expect(other.plus.simulateTap())
    #expect(store.state.count == 3)
  }
}
