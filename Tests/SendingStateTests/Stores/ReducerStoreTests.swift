import SendingState
import SendingStateHeadless
import SendingStateTesting
import Testing

/// Appends to a string state (CombineFeedback's tests use the same shape).
private enum Append: Equatable, Sendable {
  case add(String)
  case chain(Int)
}

private func appender(follow: Int = 0) -> Reducer<String, Append> {
  Reducer { state, action in
    switch action {
    case .add(let suffix):
      state += suffix
      return .none
    case .chain(let n):
      state = "\(n)"
      return n < follow ? .send(.chain(n + 1)) : .none
    }
  }
}

/// A reducer as a global constant, as apps declare them: Swift 6 accepts this only because
/// `Reducer` is `Sendable` (this file does not compile otherwise).
private let globalCounter = Reducer<Int, Append> { count, action in
  if case .add = action { count += 1 }
  return .none
}

@Suite("Reducer stores: one writer, a FIFO queue, one notification per send")
@MainActor
struct ReducerStoreTests {
  @Test("a reducer can be a global constant and serve several stores")
  func globalReducer() {
    let first = ReducerStore(initialState: 0, reducer: globalCounter)
    let second = ReducerStore(initialState: 10, reducer: globalCounter)
    first.send(.add("x"))
    second.send(.add("y"))
    second.send(.add("z"))
    #expect(first.state == 1 && second.state == 12)
  }

  @Test("CF-1 / RK-1: a new observer gets the current state at once, the initial state first")
  func initialEmission() {
    let store = ReducerStore(initialState: "initial", reducer: appender())
    var seen: [String] = []
    let token = store.observe { seen.append($0) }
    #expect(seen == ["initial"])
    store.send(.add("_a"))
    var late: [String] = []
    let other = store.observe { late.append($0) }
    #expect(late == ["initial_a"])
    _ = (token, other)
  }

  @Test("CF-4 / TCA-1: when send returns, the state and the observers reflect the action")
  func synchronousSend() {
    let store = ReducerStore(initialState: "s", reducer: appender())
    var seen: [String] = []
    let token = store.observe { seen.append($0) }
    store.send(.add("1"))
    #expect(store.state == "s1")
    #expect(seen == ["s", "s1"])
    token.cancel()
    store.send(.add("2"))
    #expect(seen == ["s", "s1"])  // CF-5: a cancelled observer hears nothing more
  }

  @Test("TCA-2: synchronous follow-ups are coalesced: observers see [0, 3] for 0 → 1 → 2 → 3")
  func coalescing() {
    let store = ReducerStore(initialState: "-", reducer: appender(follow: 3))
    var seen: [String] = []
    let token = store.observe { seen.append($0) }
    store.send(.chain(0))
    #expect(seen == ["-", "3"])
    _ = token
  }

  @Test("CF-6: with everyAction, each reduced action notifies once; observers' sends queue, no recursion (100,000 deep)")
  func everyActionAndDeepObserverChains() {
    let store = ReducerStore(initialState: "-", reducer: appender(follow: 3), notifications: .everyAction)
    var seen: [String] = []
    let token = store.observe { seen.append($0) }
    store.send(.chain(0))
    #expect(seen == ["-", "0", "1", "2", "3"])
    token.cancel()

    // An observer that sends one more action per notification, 100,000 times.
    let counter = ReducerStore(
      initialState: 0, reducer: Reducer<Int, Append> { count, _ in count += 1; return .none }, notifications: .everyAction)
    var depth = 0
    var maxDepth = 0
    var notifications = 0
    let chain = counter.observe { count in
      notifications += 1
      depth += 1
      maxDepth = max(maxDepth, depth)
      if count > 0, count < 100_000 { counter.send(.add("")) }
      depth -= 1
    }
    counter.send(.add(""))
    #expect(counter.state == 100_000)
    #expect(notifications == 100_001)  // the replay, then one per action
    #expect(maxDepth == 1)  // never re-entered
    _ = chain
  }

  @Test("CF-2 / CF-3: actions sent by observers are processed FIFO, in order")
  func observerFeedbackOrder() {
    let store = ReducerStore(initialState: "initial", reducer: appender(), notifications: .everyAction)
    var states: [String] = []
    let first = store.observe { state in
      states.append(state)
      if state.count < 20 { store.send(.add("_a")) }
    }
    _ = first
    #expect(states.prefix(4) == ["initial", "initial_a", "initial_a_a", "initial_a_a_a"])

    // Two feedbacks, registered before the loop starts (a non-Equatable state: every
    // reduced action notifies, the kick-off included).
    struct Text { var value: String }
    let two = ReducerStore(
      initialState: Text(value: "i"),
      reducer: Reducer<Text, Append> { text, action in
        if case .add(let suffix) = action { text.value += suffix }
        return .none
      }, notifications: .everyAction)
    final class Loop {
      var live = false
      var log: [String] = []
    }
    let loop = Loop()
    let a = two.observe { text in if loop.live, text.value.count < 6 { two.send(.add("a")) } }
    let b = two.observe { text in
      guard loop.live else { return }
      loop.log.append(text.value)
      if text.value.count < 6 { two.send(.add("b")) }
    }
    _ = (a, b)
    loop.live = true
    two.send(.add(""))
    #expect(loop.log.prefix(5) == ["i", "ia", "iab", "iaba", "iabab"])
  }

  @Test("TCA-4: a reducer chain of 100,000 .send effects runs in a loop, not on the stack")
  func deepReducerChains() {
    let store = ReducerStore(
      initialState: 0,
      reducer: Reducer<Int, Append> { count, _ in
        count += 1
        return count < 100_000 ? .send(.add("")) : .none
      })
    var notified = 0
    let token = store.observe { _ in notified += 1 }
    store.send(.add(""))
    #expect(store.state == 100_000)
    #expect(notified == 2)
    _ = token
  }

  @Test("TCA-3: a reducer that sends to its own store gets a diagnostic; the action waits its turn")
  func reentrantSendFromReducer() {
    var diagnostics: [StoreDiagnostic] = []
    // (The store runs its reducer on the main actor; the reducer is @Sendable, so it reaches
    // the store through a shared box and says where it runs.)
    let shared = Shared<ReducerStore<[String], Append>?>(nil)
    let store = ReducerStore(
      initialState: [],
      reducer: Reducer<[String], Append> { log, action in
        guard case .add(let name) = action else { return .none }
        log.append("enter \(name)")
        if name == "a" { MainActor.assumeIsolated { _ = shared.value?.send(.add("b")) } }
        log.append("exit \(name)")
        return .none
      },
      diagnostics: { diagnostics.append($0) })
    shared.update { $0 = store }
    store.send(.add("a"))
    #expect(store.state == ["enter a", "exit a", "enter b", "exit b"])  // RK-2
    #expect(diagnostics == [.sendFromReducer("add(\"b\")")])
    shared.update { $0 = nil }  // the reducer holds the box that holds the store: break the cycle
  }

  @Test("an Equatable state that does not change notifies no one; a non-Equatable one always notifies")
  func equalitySkip() {
    let store = ReducerStore(initialState: 1, reducer: Reducer<Int, Append> { _, _ in .none })
    var seen: [Int] = []
    let token = store.observe { seen.append($0) }
    store.send(.add(""))
    #expect(seen == [1])
    _ = token

    struct Box { var value: Int }
    let plain = ReducerStore(initialState: Box(value: 1), reducer: Reducer<Box, Append> { _, _ in .none })
    var count = 0
    let other = plain.observe { _ in count += 1 }
    plain.send(.add(""))
    #expect(count == 2)
    _ = other
  }
}
