import SendingState
import SendingStateTesting
import Testing

private struct Feature: Equatable {
  var count = 0
  var text = ""
}

private enum FeatureAction: Equatable, Sendable {
  case increment
  case nothing
  case load
  case loaded(String)
  case twice
  case wait
  case waited
}

private func feature(clock: TestClock) -> Reducer<Feature, FeatureAction> {
  Reducer { state, action in
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .nothing:
      return .none
    case .load:
      return .run { send in send(.loaded("tea")) }
    case .loaded(let text):
      state.text = text
      return .none
    case .twice:
      return .merge(.send(.loaded("one")), .send(.loaded("two")))
    case .wait:
      return .run { send in
        try await clock.sleep(for: .seconds(5))
        send(.waited)
      }
    case .waited:
      state.count = -1
      return .none
    }
  }
}

/// A test store whose failures are collected instead of recorded, so tests can check them.
@MainActor
private func collecting(_ clock: TestClock = TestClock()) -> (TestStore<Feature, FeatureAction>, Failures) {
  let failures = Failures()
  let store = TestStore(initialState: Feature(), reducer: feature(clock: clock))
  store.reportFailure = { message, _ in failures.messages.append(message) }
  return (store, failures)
}

@MainActor
private final class Failures {
  var messages: [String] = []
}

@Suite("TCA-10: the exhaustive test store")
@MainActor
struct TestStoreTests {
  @Test("TCA-10.1: a send's closure must turn the previous state into the actual one; a mismatch shows a diff")
  func stateMismatch() async {
    let (store, failures) = collecting()
    await store.send(.increment) { $0.count = 1 }
    #expect(failures.messages.isEmpty)
    await store.send(.increment) { $0.count = 3 }
    #expect(failures.messages.count == 1)
    let message = failures.messages.first ?? ""
    #expect(message.hasPrefix("A state change does not match expectation (after increment): (Expected \u{2212}, Actual +)"))
    #expect(message.contains("\u{2212}   - count: 3"))
    #expect(message.contains("+   - count: 2"))
  }

  @Test("TCA-10.2 / 10.3: an unasserted change fails; a closure where nothing changed fails")
  func unexpectedAndMissingChanges() async {
    let (store, failures) = collecting()
    await store.send(.increment)
    #expect(failures.messages.first?.hasPrefix("State was not expected to change, but a change occurred (after increment)") == true)
    failures.messages.removeAll()
    await store.send(.nothing) { $0.count = 1 }
    #expect(failures.messages.first?.hasPrefix("Expected state to change, but no change occurred (after nothing)") == true)
    failures.messages.removeAll()
    await store.send(.nothing)
    #expect(failures.messages.isEmpty)
  }

  @Test("TCA-10.1: an error thrown by the assertion closure is reported")
  func throwingClosure() async {
    struct Oops: Error {}
    let (store, failures) = collecting()
    await store.send(.increment) { _ in throw Oops() }
    #expect(failures.messages == ["The assertion closure for increment threw Oops()"])
  }

  @Test("TCA-10.4: effect actions are received in order; sending before receiving them fails; a wrong one shows a diff")
  func receiveInOrder() async {
    let (store, failures) = collecting()
    await store.send(.twice)
    await store.receive(.loaded("one")) { $0.text = "one" }
    await store.receive(.loaded("two")) { $0.text = "two" }
    #expect(failures.messages.isEmpty)

    await store.send(.twice)
    await store.send(.increment) { $0.count = 1 }
    #expect(failures.messages == ["Must handle 2 received action(s) before sending an action:\n  loaded(\"one\")\n  loaded(\"two\")"])
    failures.messages.removeAll()  // reported once: the test goes on from the actual state

    await store.send(.twice)
    await store.receive(.loaded("two")) { $0.text = "two" }
    #expect(failures.messages.first?.hasPrefix("Received unexpected action: (Expected \u{2212}, Received +)") == true)
    #expect(failures.messages.first?.contains("\u{2212}   - loaded: \"two\"") == true)
    #expect(failures.messages.first?.contains("+   - loaded: \"one\"") == true)
    await store.skipReceivedActions()
  }

  @Test("TCA-10.5 / 10.7: actions not received and effects still running fail at the end; finish() waits for effects")
  func obligationsAtTheEnd() async {
    let failures = Failures()
    do {
      let store = TestStore(initialState: Feature(), reducer: feature(clock: TestClock()))
      store.reportFailure = { message, _ in failures.messages.append(message) }
      await store.send(.wait)
      await store.send(.load)
    }
    #expect(failures.messages.count == 2)
    #expect(failures.messages.contains { $0.hasPrefix("The store received 1 unexpected action(s) that the test did not receive:\n  loaded(\"tea\")") })
    #expect(failures.messages.contains { $0.hasPrefix("An effect returned for this action is still running: wait") })

    let clock = TestClock()
    let (store, others) = collecting(clock)
    await store.send(.wait)
    let finished = Task { @MainActor in await store.finish(timeout: .seconds(30)) }
    await clock.advance(by: .seconds(5))
    await finished.value
    await store.receive(.waited) { $0.count = -1 }
    #expect(others.messages.isEmpty)
  }

  @Test("TCA-10.6: receive fails when nothing arrives within its timeout")
  func receiveTimeout() async {
    let (store, failures) = collecting()
    await store.send(.wait)
    await store.receive(.waited, timeout: .milliseconds(20)) { $0.count = -1 }
    #expect(failures.messages == ["Expected to receive waited, but received nothing within 0.02 seconds"])
    await store.skipInFlightEffects()
  }

  @Test("TCA-10.8: skipReceivedActions and skipInFlightEffects clear what is owed")
  func skipping() async {
    let failures = Failures()
    do {
      let store = TestStore(initialState: Feature(), reducer: feature(clock: TestClock()))
      store.reportFailure = { message, _ in failures.messages.append(message) }
      await store.send(.twice)
      await store.skipReceivedActions()
      #expect(store.state.text == "two")
      await store.send(.wait)
      await store.skipInFlightEffects()
    }
    #expect(failures.messages.isEmpty)
  }

  @Test("TCA-10.9: exhaustivity off: partial assertions, receive skips to the named action, nothing owed at the end")
  func nonExhaustive() async {
    let failures = Failures()
    do {
      let store = TestStore(initialState: Feature(), reducer: feature(clock: TestClock()))
      store.reportFailure = { message, _ in failures.messages.append(message) }
      store.exhaustivity = .off
      await store.send(.increment)  // not asserted: fine
      await store.send(.twice)
      await store.receive(.loaded("two")) { $0.text = "two" }  // skips "one"
      await store.send(.increment) { $0.count = 2 }
      await store.send(.increment) { $0.count = 5 }  // still checked: what the closure sets must hold
      await store.send(.wait)
    }
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.hasPrefix("A state change does not match expectation") == true)
  }

  @Test("TCA-10.9: with exhaustivity off, receive waits for the named action past others that came first")
  func nonExhaustiveReceiveWaits() async {
    let clock = TestClock()
    let failures = Failures()
    let store = TestStore(
      initialState: Feature(),
      reducer: Reducer<Feature, FeatureAction> { state, action in
        switch action {
        case .load:
          return .run { send in
            send(.increment)
            try await clock.sleep(for: .seconds(1))
            send(.loaded("late"))
          }
        case .increment:
          state.count += 1
          return .none
        case .loaded(let text):
          state.text = text
          return .none
        default:
          return .none
        }
      })
    store.reportFailure = { message, _ in failures.messages.append(message) }
    store.exhaustivity = .off
    await store.send(.load)
    let advancing = Task { @MainActor in
      // Once the effect sleeps on the clock (it sent .increment first), time moves on.
      var spins = 0
      while clock.sleeperCount == 0, spins < 1_000_000 {
        await Task.yield()
        spins += 1
      }
      await clock.advance(by: .seconds(1))
    }
    // Waits (the main actor is shared with every other test: a generous real-time bound).
    await store.receive(.loaded("late"), timeout: .seconds(60)) { $0.text = "late" }
    await advancing.value
    #expect(failures.messages.isEmpty, "\(failures.messages)")
    #expect(store.state.count == 1 && store.state.text == "late")
  }

  @Test("store diagnostics (an uncaught effect error) fail the test at the send")
  func diagnosticsFail() async {
    struct Broken: Error {}
    let failures = Failures()
    let store = TestStore(
      initialState: 0, reducer: Reducer<Int, FeatureAction> { _, _ in .run { _ in throw Broken() } })
    store.reportFailure = { message, _ in failures.messages.append(message) }
    await store.send(.load)
    await store.finish()
    #expect(failures.messages.count == 1)
    #expect(failures.messages.first?.contains("threw Broken()") == true)
  }

  @Test("by default failures are Swift Testing issues at the failing line")
  func recordsIssues() async {
    let store = TestStore(initialState: Feature(), reducer: feature(clock: TestClock()))
    await withKnownIssue {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      issue.sourceLocation?.line == #line - 2 && "\(issue)".contains("does not match expectation")
    }
  }
}
