import SendingState
import SendingStateTesting
import Testing

private enum Act: Equatable, Sendable {
  case start(String)
  case startLatest(String)
  case got(String)
  case stop
  case search(String)
  case cancelSearch
  case tick(String)
  case forever
  case late
  case fail
  case failed(String)
}

private struct Boom: Error {}

/// A reducer whose effects are driven by a test clock (or wait for ever).
private func effects(clock: TestClock, sleeps: @escaping @MainActor @Sendable () -> Void = {}) -> Reducer<[String], Act> {
  Reducer { log, action in
    switch action {
    case .start(let name):
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.got(name))
      }
      .cancellable(id: "work")
    case .startLatest(let name):
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.got(name))
      }
      .cancellable(id: "work", cancelInFlight: true)
    case .got(let name):
      log.append(name)
      return .none
    case .stop:
      return .cancel(id: "work")
    case .search(let query):
      return .send(.got("searched \(query)")).debounce(id: "search", for: .milliseconds(300), clock: clock)
    case .cancelSearch:
      return .cancel(id: "search")
    case .tick(let name):
      return .send(.got(name)).throttle(id: "tick", for: .seconds(1), clock: clock, latest: true)
    case .forever:
      return .run { _ in
        sleeps()
        try await Task.sleep(for: .seconds(3600))
      }
    case .late:
      return .run { send in
        Task { @MainActor in send(.got("too late")) }
      }
    case .fail:
      return .run(operation: { _ in throw Boom() }, catch: { error, send in send(.failed("\(error)")) })
    case .failed(let message):
      log.append("failed: \(message)")
      return .none
    }
  }
}

@Suite("Effects: cancellation by id, debounce, throttle, lifetime (virtual time, no real waiting)")
@MainActor
struct EffectTests {
  @Test("TCA-5: cancel(id:) stops an effect before it sends; its later actions never arrive")
  func cancelByID() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    store.send(.start("a"))
    await clock.advance(by: .milliseconds(500))
    store.send(.stop)
    await clock.advance(by: .seconds(2))
    #expect(store.state == [])
    store.send(.start("b"))
    await clock.advance(by: .seconds(1))
    #expect(store.state == ["b"])
  }

  @Test("TCA-5 / CF-7: cancelInFlight: a new effect with the same id replaces the running one (latest wins)")
  func cancelInFlight() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    store.send(.startLatest("a"))
    await clock.advance(by: .milliseconds(500))
    store.send(.startLatest("b"))
    await clock.advance(by: .seconds(2))
    #expect(store.state == ["b"])
    // Without cancelInFlight both run (equal deadlines: in either order).
    store.send(.start("c"))
    store.send(.start("d"))
    await clock.advance(by: .seconds(1))
    #expect(store.state.count == 3 && Set(store.state) == ["b", "c", "d"])
  }

  @Test("TCA-5: ids are scoped per root store")
  func idsPerStore() async {
    let clock = TestClock()
    let one = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    let two = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    one.send(.start("one"))
    two.send(.start("two"))
    two.send(.stop)
    await clock.advance(by: .seconds(1))
    #expect(one.state == ["one"])
    #expect(two.state == [])
  }

  @Test("debounce: only the last of a burst runs, after the quiet time")
  func debounce() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    store.send(.search("t"))
    await clock.advance(by: .milliseconds(100))
    store.send(.search("te"))
    await clock.advance(by: .milliseconds(100))
    store.send(.search("tea"))
    await clock.advance(by: .milliseconds(299))
    #expect(store.state == [])
    await clock.advance(by: .milliseconds(1))
    #expect(store.state == ["searched tea"])
    store.send(.search("x"))
    store.send(.cancelSearch)
    await clock.advance(by: .seconds(1))
    #expect(store.state == ["searched tea"])
  }

  @Test("throttle: the first runs at once, the latest of a window at its end, the rest are dropped")
  func throttle() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    store.send(.tick("1"))
    #expect(store.state == ["1"])
    await clock.advance(by: .milliseconds(200))
    store.send(.tick("2"))
    store.send(.tick("3"))
    #expect(store.state == ["1"])
    await clock.advance(by: .milliseconds(800))
    #expect(store.state == ["1", "3"])
    await clock.advance(by: .seconds(1))  // a quiet window closes
    store.send(.tick("4"))
    #expect(store.state == ["1", "3", "4"])
  }

  @Test("TCA-6: releasing the root store cancels its effects; an effect awaiting for ever sees the cancellation")
  func releaseCancels() async {
    var store: ReducerStore<[String], Act>? = ReducerStore(initialState: [], reducer: effects(clock: TestClock()))
    let task = store!.send(.forever)
    #expect(task.hasEffects && !task.isCancelled)
    for _ in 0..<10 { await Task.yield() }
    store = nil
    await task.finish()  // returns: the effect's Task.sleep threw CancellationError
    #expect(task.isCancelled)
  }

  @Test("TCA-6: a store released while its debounced work runs goes away and cancels it")
  func releaseDuringDebouncedWork() async {
    let clock = TestClock()
    final class Seen: @unchecked Sendable { var cancelled = false }
    let seen = Seen()
    var store: ReducerStore<Int, Act>? = ReducerStore(
      initialState: 0,
      reducer: Reducer { _, _ in
        .run { _ in
          do { try await Task.sleep(for: .seconds(3600)) } catch { seen.cancelled = true }
        }
        .debounce(id: "d", for: .milliseconds(100), clock: clock)
      })
    weak let released = store
    store?.send(.forever)
    await clock.advance(by: .milliseconds(100))  // the debounce fired: the work runs
    store = nil
    for _ in 0..<100 where !seen.cancelled { await Task.yield() }
    #expect(released == nil)
    #expect(seen.cancelled)
  }

  @Test("cancelling an outer id closes the throttle window inside it: the next effect runs at once")
  func outerCancelClosesThrottleWindow() async {
    let clock = TestClock()
    let store = ReducerStore(
      initialState: [String](),
      reducer: Reducer<[String], Act> { log, action in
        switch action {
        case .tick(let name):
          return Effect.send(.got(name)).throttle(id: "t", for: .seconds(1), clock: clock).cancellable(id: "outer")
        case .stop:
          return .cancel(id: "outer")
        case .got(let name):
          log.append(name)
          return .none
        default:
          return .none
        }
      })
    store.send(.tick("a"))
    store.send(.tick("b"))  // waits for the window's end
    store.send(.stop)
    await clock.advance(by: .seconds(2))
    #expect(store.state == ["a"])
    store.send(.tick("c"))
    #expect(store.state == ["a", "c"])
  }

  @Test("StoreTask.cancel() after a debounce fired cancels the work it started")
  func cancelAfterDebounceFired() async {
    let clock = TestClock()
    let store = ReducerStore(
      initialState: [String](),
      reducer: Reducer<[String], Act> { log, action in
        switch action {
        case .search(let query):
          return Effect<Act>.run { send in
            try await clock.sleep(for: .seconds(1))
            send(.got(query))
          }
          .debounce(id: "s", for: .milliseconds(300), clock: clock)
        case .got(let name):
          log.append(name)
          return .none
        default:
          return .none
        }
      })
    let task = store.send(.search("late"))
    await clock.advance(by: .milliseconds(300))  // the debounce fired; the work sleeps
    task.cancel()
    await clock.advance(by: .seconds(2))
    #expect(store.state == [])
    #expect(task.isCancelled)
  }

  @Test("TCA-13: send(…).finish() waits for the action's effects; cancel() cancels them")
  func storeTask() async {
    let clock = TestClock()
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: clock))
    let task = store.send(.start("a"))
    let finished = Task { @MainActor in await task.finish() }
    await clock.advance(by: .seconds(1))
    await finished.value
    #expect(store.state == ["a"])
    let other = store.send(.start("b"))
    other.cancel()
    await other.finish()
    await clock.advance(by: .seconds(1))
    #expect(store.state == ["a"])
    #expect(other.isCancelled)
  }

  @Test("TCA-12: a send after the run operation returned is dropped with a diagnostic")
  func lateSend() async {
    var diagnostics: [StoreDiagnostic] = []
    let store = ReducerStore(
      initialState: [String](), reducer: effects(clock: TestClock()), diagnostics: { diagnostics.append($0) })
    await store.send(.late).finish()
    for _ in 0..<20 { await Task.yield() }
    #expect(store.state == [])
    #expect(diagnostics == [.lateSend("got(\"too late\")")])
  }

  @Test("an effect's error goes to its catch handler as an action; with none, to the diagnostics")
  func effectErrors() async {
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: TestClock()))
    await store.send(.fail).finish()
    #expect(store.state == ["failed: Boom()"])

    var diagnostics: [StoreDiagnostic] = []
    let bare = ReducerStore(
      initialState: 0,
      reducer: Reducer<Int, Act> { _, _ in .run { _ in throw Boom() } },
      diagnostics: { diagnostics.append($0) })
    await bare.send(.fail).finish()
    #expect(diagnostics == [.effectFailed("Boom()")])
  }

  @Test("handle(action:) called off the main actor delivers the action on the main actor, never lost")
  func offMainSend() async {
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: TestClock()))
    await Task.detached {
      for index in 0..<100 { store.handle(action: .got("\(index)")) }
    }.value
    for _ in 0..<1_000 where store.state.count < 100 { await Task.yield() }
    #expect(store.state == (0..<100).map { "\($0)" })  // all of them, in the order handed over
  }

  @Test("CF-14: 8 threads each handing over 1,000 actions: all 8,000 are reduced exactly once, each thread's in order")
  func concurrentSends() async {
    let store = ReducerStore(initialState: [String](), reducer: effects(clock: TestClock()))
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<8 {
        group.addTask {
          for index in 0..<1_000 { store.handle(action: .got("\(thread):\(index)")) }
        }
      }
    }
    for _ in 0..<10_000 where store.state.count < 8_000 { await Task.yield() }
    #expect(store.state.count == 8_000)
    #expect(Set(store.state).count == 8_000)  // none twice (and with the count: none lost)
    for thread in 0..<8 {
      let mine = store.state.filter { $0.hasPrefix("\(thread):") }
      #expect(mine == (0..<1_000).map { "\(thread):\($0)" })
    }
  }
}
