import Foundation
import Testing

@testable import SendingState
import SendingStateHeadless

@Suite("BindingStore, AnyBindingStore and tokens (checklist 21–35)")
@MainActor
struct BindingStoreTests {
  typealias ModelStore = BindingStore<Model, ForwardingView<Model>>

  @Test("C21: apply configures the binder once, binds the state and propagates to senders")
  func c21_applyConfiguresOnce() {
    let view = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 1))
    store.apply(to: view)
    #expect(view.configureCount == 1)
    #expect(view.ss.state() == Model(value: 1))
    let sender: Model? = view.button.ss.state()
    #expect(sender == Model(value: 1))
  }

  @Test("C22: invalidateState writes back: store updated, configurer runs again, binder state updated")
  func c22_invalidateWritesBack() {
    let view = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 1))
    store.apply(to: view)
    view.ss.invalidateState { (model: Model) in Model(value: model.value * 5) }
    #expect(store.state == Model(value: 5))
    #expect(view.configureCount == 2)
    #expect(view.ss.state() == Model(value: 5))
  }

  @Test("C23: the same holds through AnyBindingStore.apply(to:)")
  func c23_writeBackThroughAnyStore() {
    let view = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 2))
    let any = store.eraseToAnyBindingStore()
    any.apply(to: view)
    view.ss.invalidateState { (model: Model) in Model(value: model.value + 1) }
    #expect(store.state == Model(value: 3))
    #expect(any.state as? Model == Model(value: 3))
    #expect(view.configureCount == 2)
  }

  @Test("C24: invalidateState with a mismatched type, or on an unconfigured host, changes nothing")
  func c24_invalidateMismatchOrUnconfigured() {
    let view = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 1))
    store.apply(to: view)
    var transformCalled = false
    view.ss.invalidateState { (text: String) in
      transformCalled = true
      return text
    }
    #expect(!transformCalled)
    #expect(view.configureCount == 1)
    #expect(store.state == Model(value: 1))

    let fresh = ForwardingView<Model>()
    fresh.ss.invalidateState { (model: Model) in
      transformCalled = true
      return model
    }
    #expect(!transformCalled)
    #expect(fresh.configureCount == 0)
  }

  @Test("C25: observe calls at once; each later set calls once, no equality de-duplication (D-18)")
  func c25_observeImmediateAndEverySet() {
    let store = ModelStore(state: Model(value: 1))
    var seen: [Int] = []
    let token = store.observe { seen.append($0.value) }
    #expect(seen == [1])
    store.state = Model(value: 2)
    store.state = Model(value: 2)
    #expect(seen == [1, 2, 2])
    token.cancel()
  }

  @Test("C26: cancel stops notifications, is idempotent; a released token cancels; a discarded one gets only the first call")
  func c26_tokenCancellation() {
    let store = ModelStore(state: Model(value: 0))
    var seen: [Int] = []
    let token = store.observe { seen.append($0.value) }
    token.cancel()
    token.cancel()
    #expect(token.isCancelled)
    store.state = Model(value: 1)
    #expect(seen == [0])

    var discarded: [Int] = []
    _ = store.observe { discarded.append($0.value) }
    store.state = Model(value: 2)
    #expect(discarded == [1])

    var released: [Int] = []
    var held: StateObservationToken? = store.observe { released.append($0.value) }
    store.state = Model(value: 3)
    held = nil
    store.state = Model(value: 4)
    #expect(released == [2, 3])
    #expect(held == nil)
    #expect(store.observerCount == 0)
  }

  @Test("C27: store and binder deallocate after apply and invalidate; AnyBindingStore + dead token frees the store")
  func c27_noRetainCycles() {
    weak var weakStore: ModelStore?
    weak var weakView: ForwardingView<Model>?
    do {
      let view = ForwardingView<Model>()
      let store = ModelStore(state: Model(value: 1))
      store.apply(to: view)
      view.ss.invalidateState { (model: Model) in Model(value: model.value + 1) }
      weakStore = store
      weakView = view
    }
    #expect(weakStore == nil)
    #expect(weakView == nil)

    weak var erasedStore: ModelStore?
    do {
      let store = ModelStore(state: Model(value: 1))
      erasedStore = store
      var any: AnyBindingStore? = store.eraseToAnyBindingStore()
      _ = any?.observe { _ in }
      let kept = any?.observe { _ in }
      kept?.cancel()
      any = nil
    }
    #expect(erasedStore == nil)
  }

  @Test("C28: a second store applied to the binder takes over; the first is released")
  func c28_rebindingReleasesFirstStore() {
    let view = ForwardingView<Model>()
    weak var weakFirst: ModelStore?
    var first: ModelStore? = ModelStore(state: Model(value: 1))
    weakFirst = first
    first?.apply(to: view)
    var firstSeen: [Int] = []
    let firstToken = first?.observe { firstSeen.append($0.value) }
    let second = ModelStore(state: Model(value: 10))
    second.apply(to: view)
    view.ss.invalidateState { (model: Model) in Model(value: model.value + 1) }
    #expect(second.state == Model(value: 11))
    #expect(first?.state == Model(value: 1))
    #expect(firstSeen == [1])
    firstToken?.cancel()
    first = nil
    #expect(weakFirst == nil)
  }

  @Test("C29: a store applied to A then B takes write-backs only from B")
  func c29_storeFollowsLastBinder() {
    let a = ForwardingView<Model>()
    let b = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 1))
    store.apply(to: a)
    store.apply(to: b)
    a.ss.invalidateState { (model: Model) in Model(value: 100) }
    #expect(store.state == Model(value: 1))
    b.ss.invalidateState { (model: Model) in Model(value: 200) }
    #expect(store.state == Model(value: 200))
  }

  @Test("C30: setting store.state does not reconfigure the binder")
  func c30_setStateDoesNotReconfigure() {
    let view = ForwardingView<Model>()
    let store = ModelStore(state: Model(value: 1))
    store.apply(to: view)
    store.state = Model(value: 9)
    #expect(view.configureCount == 1)
    #expect(view.ss.state() == Model(value: 1))
  }

  @Test("C31: anyStore.state = x updates the store; a mismatch is reported, not a crash (D-12)")
  func c31_anyStoreSetState() {
    let store = ModelStore(state: Model(value: 1))
    let any = AnyBindingStore(store)
    any.state = Model(value: 2)
    #expect(store.state == Model(value: 2))
    var notified = 0
    let token = store.observe { _ in notified += 1 }
    any.state = "wrong"
    #expect(store.state == Model(value: 2))
    #expect(notified == 1)
    #expect(throws: BindingStoreError.stateTypeMismatch(expected: "Model", actual: "String")) {
      try any.setState("wrong")
    }
    #expect(throws: BindingStoreError.binderTypeMismatch(expected: "ForwardingView<Model>", actual: "Label")) {
      try any.tryApply(to: Label())
    }
    token.cancel()
  }

  @Test("C32: AnyBindingStore works in heterogeneous arrays with state, identifier and binderType")
  func c32_heterogeneousArrays() {
    let stores: [AnyBindingStore] = [
      ModelStore(state: Model(value: 1), identifier: "model").eraseToAnyBindingStore(),
      BindingStore<String, RecordingView<String>>(state: "text", identifier: "text").eraseToAnyBindingStore(),
    ]
    #expect(stores[0].state as? Model == Model(value: 1))
    #expect(stores[1].state as? String == "text")
    #expect(stores.map(\.identifier) == ["model", "text"])
    #expect(ObjectIdentifier(stores[0].binderType) == ObjectIdentifier(ForwardingView<Model>.self))
    #expect(ObjectIdentifier(stores[1].binderType) == ObjectIdentifier(RecordingView<String>.self))
  }

  @Test("C33: anyStore.size(constrainedTo:) is Binder.size(with: current state, ...)")
  func c33_anyStoreSize() {
    let store = BindingStore<String, SizedView>(state: "four")
    let any = store.eraseToAnyBindingStore()
    #expect(any.size(constrainedTo: LayoutSize(width: 100, height: 0)) == LayoutSize(width: 100, height: 40))
    store.state = "ab"
    #expect(any.size(constrainedTo: nil) == LayoutSize(width: 0, height: 20))
  }

  @Test("C34: equality and hashing are by identity")
  func c34_identityEquality() {
    let a = ModelStore(state: Model(value: 1))
    let b = ModelStore(state: Model(value: 1))
    #expect(a == a)
    #expect(a != b)
    #expect(Set([a, a, b]).count == 2)
    let anyA = a.eraseToAnyBindingStore()
    let anyA2 = a.eraseToAnyBindingStore()
    #expect(anyA == anyA)
    #expect(anyA != anyA2)
    #expect(Set([anyA, anyA, anyA2]).count == 2)
  }

  @Test("C35: JSON payload {binderType, state}; decode/update take raw State; AnyBindingStore update works (D-1 fixed)")
  func c35_jsonHelpers() throws {
    let store = ModelStore(state: Model(value: 4))
    #expect(try store.toJSONString() == #"{"binderType":"ForwardingView<Model>","state":{"value":4}}"#)
    let decoded = try ModelStore.decode(from: #"{"value":8}"#, identifier: "d")
    #expect(decoded.state == Model(value: 8))
    #expect(decoded.identifier == "d")
    try store.updateState(fromJSONString: #"{"value":5}"#)
    #expect(store.state == Model(value: 5))
    #expect(throws: DecodingError.self) { try store.updateState(fromJSONString: #"{"value":"x"}"#) }
    #expect(store.state == Model(value: 5))

    let any = store.eraseToAnyBindingStore()
    try any.updateState(fromJSONString: #"{"value":6}"#)
    #expect(store.state == Model(value: 6))
    try any.updateState(fromJSONData: Data(#"{"value":7}"#.utf8))
    #expect(store.state == Model(value: 7))
    #expect(try any.toJSONString() == #"{"binderType":"ForwardingView<Model>","state":{"value":7}}"#)
    #expect(try any.toJSONString(prettyPrinted: true).contains("\n"))

    final class NotCodable {}
    let opaque = BindingStore<NotCodable, RecordingView<NotCodable>>(state: NotCodable()).eraseToAnyBindingStore()
    #expect(throws: DecodingError.self) { try opaque.updateState(fromJSONString: "{}") }
    #expect(throws: EncodingError.self) { try opaque.toJSONData() }
  }

  @Test("D-11: a cancellation that re-enters cancel() on its own token does not deadlock")
  func d11_reentrantCancel() {
    var runs = 0
    var token: StateObservationToken?
    token = StateObservationToken {
      runs += 1
      token?.cancel()
    }
    token?.cancel()
    #expect(runs == 1)
  }

  @Test("C74: state reads and writes are thread-safe; an observer may read state (no deadlock)")
  func c74_threadSafety() async {
    let store = ModelStore(state: Model(value: 0))
    let reads = LifeCounter()
    let token = store.observe { _ in
      _ = store.state
      reads.increment()
    }
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask {
          store.state = Model(value: index)
          _ = store.state
        }
      }
    }
    #expect(reads.alive == 201)
    token.cancel()
  }

  @Test("D-15: store observers are notified in registration order")
  func d15_observerOrder() {
    let store = ModelStore(state: Model(value: 0))
    var order: [String] = []
    let tokens = ["c", "a", "b", "d"].map { name in store.observe { _ in order.append(name) } }
    order.removeAll()
    store.state = Model(value: 1)
    #expect(order == ["c", "a", "b", "d"])
    tokens.forEach { $0.cancel() }
  }
}
