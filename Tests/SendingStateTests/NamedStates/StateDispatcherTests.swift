import SendingState
import SendingStateHeadless
import Testing

/// A lamp with named states; it records every change made to it.
@MainActor
private final class Lamp: Stateful {
  var log: [String] = []
  var color = 0
  var isOn = false
}

extension NamedState<Lamp> {
  static func off() -> Self {
    Self {
      $0.isOn = false
      $0.log.append("set off")
    }
  }
  static func highlighted(_ color: Int) -> Self {
    Self {
      $0.isOn = true
      $0.log.append("set highlighted")
    }
    .onUpdate {
      $0.color = color
      $0.log.append("update highlighted \(color)")
    }
  }
  static func highlighted(_ name: String) -> Self {
    Self { $0.log.append("set highlighted \(name)") }
  }
  static func tinted(_ name: String) -> Self {
    Self(named: "tinted(name)") { $0.log.append("set tinted \(name)") }
  }
  static func tinted(_ color: Int) -> Self {
    Self(named: "tinted(color)") { $0.log.append("set tinted \(color)") }
  }
  static func plain() -> Self { Self { $0.log.append("set plain") } }
}

/// A lamp whose default transition is a recorded, manual one.
@MainActor
private final class SlowLamp: Stateful {
  var log: [String] = []
  static let transitions = Recorder<SlowLamp>()
  static var defaultTransition: Transition<SlowLamp> { transitions.transition(named: "default") }
}

extension NamedState<SlowLamp> {
  static func on() -> Self { Self { $0.log.append("set on") } }
  static func off() -> Self { Self { $0.log.append("set off") } }
}

/// Transitions that wait for the test to run their changes and complete them.
@MainActor
private final class Recorder<Target: AnyObject> {
  struct Started {
    let name: String
    let changes: @MainActor () -> Void
    let completion: @MainActor (Bool) -> Void
  }
  var started: [Started] = []

  func transition(named name: String) -> Transition<Target> {
    Transition { [self] _, changes, completion in
      started.append(Started(name: name, changes: changes, completion: completion))
    }
  }

  /// Runs the changes of the latest transition and completes it.
  func finishLatest(_ finished: Bool = true) {
    let last = started.removeLast()
    last.changes()
    last.completion(finished)
  }
}

/// A headless view whose configurer picks its named state from a search phase.
private final class SearchBar: View, Stateful, Configurable {
  let status = Label(id: "status")
  var configurer: (SearchBar, String) -> Void {
    { bar, phase in bar.states.apply(phase == "loading" ? .loading() : .idle()) }
  }
}

extension NamedState<SearchBar> {
  static func idle() -> Self { Self { $0.status.text = "idle" } }
  static func loading() -> Self {
    Self { $0.status.text = "loading" }.onUpdate { $0.status.text += "." }
  }
}

@Suite("Named states (XCEState's behaviours)")
@MainActor
struct StateDispatcherTests {
  @Test("XS-1: identity is the declaration's name with labels; values do not count; an explicit name overrides it")
  func identityByDeclaration() {
    #expect(NamedState<Lamp>.highlighted(1).name == "highlighted(_:)")
    #expect(NamedState<Lamp>.highlighted(1).name == NamedState<Lamp>.highlighted(2).name)
    #expect(NamedState<Lamp>.off().name == "off()")
    let lamp = Lamp()
    lamp.states.apply(.highlighted(1))
    lamp.states.apply(.highlighted(2))
    #expect(lamp.log == ["set highlighted", "update highlighted 1", "update highlighted 2"])
    // Overloads with the same labels are one state (documented); an explicit name separates them.
    #expect(NamedState<Lamp>.highlighted("red").name == NamedState<Lamp>.highlighted(3).name)
    #expect(NamedState<Lamp>.tinted("red").name != NamedState<Lamp>.tinted(3).name)
    lamp.log = []
    lamp.states.apply(.tinted("red"))
    lamp.states.apply(.tinted(3))
    #expect(lamp.log == ["set tinted red", "set tinted 3"])
  }

  @Test("XS-2: applying another state runs onSet then onUpdate, and it becomes current only when its transition completes")
  func setRunsOnSetThenUpdate() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    #expect(lamp.states.phase == .ready(current: nil))
    lamp.states.apply(.highlighted(7), via: recorder.transition(named: "fade"))
    #expect(lamp.states.phase == .inTransition(previous: nil, target: "highlighted(_:)"))
    #expect(lamp.log.isEmpty)  // the transition has not run the changes yet
    recorder.started[0].changes()
    #expect(lamp.log == ["set highlighted", "update highlighted 7"])
    #expect(lamp.states.current == nil)  // not before the completion
    recorder.started[0].completion(true)
    #expect(lamp.states.phase == .ready(current: "highlighted(_:)"))
    lamp.states.apply(.off())
    #expect(lamp.log.last == "set off")
    #expect(lamp.states.phase == .ready(current: "off()"))
  }

  @Test("XS-3: re-applying the current state runs only onUpdate; without onUpdate nothing changes and it completes with true")
  func updateOnly() {
    let lamp = Lamp()
    lamp.states.apply(.highlighted(1))
    lamp.states.apply(.highlighted(2))
    #expect(lamp.color == 2)
    #expect(lamp.log.filter { $0 == "set highlighted" }.count == 1)
    lamp.states.apply(.plain())
    lamp.log = []
    var results: [Bool] = []
    lamp.states.apply(.plain()) { results.append($0) }
    #expect(lamp.log.isEmpty)
    #expect(results == [true])
    #expect(lamp.states.phase == .ready(current: "plain()"))
  }

  @Test("XS-4: instantly runs the changes synchronously and ignores the default; no transition uses the default; via uses the one given")
  func transitionContract() {
    let lamp = SlowLamp()
    let explicit = Recorder<SlowLamp>()
    SlowLamp.transitions.started = []
    var done: [Bool] = []
    lamp.states.apply(.on(), via: .instantly) { done.append($0) }
    #expect(lamp.log == ["set on"])
    #expect(done == [true])
    #expect(SlowLamp.transitions.started.isEmpty)
    lamp.states.apply(.off())
    #expect(SlowLamp.transitions.started.map(\.name) == ["default"])
    SlowLamp.transitions.finishLatest()
    lamp.states.apply(.on(), via: explicit.transition(named: "explicit"))
    #expect(explicit.started.map(\.name) == ["explicit"])
    #expect(SlowLamp.transitions.started.isEmpty)
    explicit.finishLatest()
    #expect(lamp.log == ["set on", "set off", "set on"])
  }

  @Test("XS-4: a transition's changes run at most once, its completion counts once, and completing without the changes is not finished")
  func contractIsHeld() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    var done: [Bool] = []
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "t")) { done.append($0) }
    let first = recorder.started[0]
    first.changes()
    first.changes()
    #expect(lamp.log == ["set highlighted", "update highlighted 1"])
    first.completion(true)
    first.completion(false)
    first.changes()
    #expect(done == [true])
    #expect(lamp.log.count == 2)
    lamp.states.apply(.off(), via: recorder.transition(named: "lazy")) { done.append($0) }
    recorder.started[1].completion(true)  // without running the changes
    #expect(done == [true, false])
    #expect(lamp.states.phase == .ready(current: "highlighted(_:)"))
    recorder.started[1].changes()  // too late: nothing
    #expect(lamp.isOn)
  }

  @Test("XS-5: applies queue behind a running transition, and the phase shows it; a fresh dispatcher is ready with no state")
  func serialQueueAndPhase() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    #expect(StateDispatcher(for: lamp).phase == .ready(current: nil))
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "s1"))
    lamp.states.apply(.off(), via: .instantly)
    #expect(lamp.states.phase == .inTransition(previous: nil, target: "highlighted(_:)"))
    #expect(lamp.states.waiting == 1)
    #expect(lamp.log.isEmpty)  // S2's changes wait for S1
    recorder.finishLatest()
    #expect(lamp.log == ["set highlighted", "update highlighted 1", "set off"])
    #expect(lamp.states.phase == .ready(current: "off()"))
    #expect(lamp.states.waiting == 0)
  }

  @Test("XS-6: each apply's completion is called exactly once, with its transition's result, in queue order")
  func completionsInOrder() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    var calls: [String] = []
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "a")) { calls.append("a \($0)") }
    lamp.states.apply(.highlighted(2), via: recorder.transition(named: "b")) { calls.append("b \($0)") }
    lamp.states.apply(.off()) { calls.append("c \($0)") }
    recorder.finishLatest()
    #expect(calls == ["a true"])
    recorder.finishLatest()
    #expect(calls == ["a true", "b true", "c true"])
    #expect(lamp.log == ["set highlighted", "update highlighted 1", "update highlighted 2", "set off"])
  }

  @Test("XS-6: a completion that applies again is served after the applies already waiting, without recursion")
  func completionThatApplies() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    var order: [String] = []
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "first")) { _ in
      order.append("first done")
      lamp.states.apply(.plain()) { _ in order.append("third done") }
    }
    // 10,000 instant applies from completions: a loop, not a deep stack.
    var remaining = 10_000
    func again(_: Bool) {
      remaining -= 1
      if remaining > 0 { lamp.states.apply(.highlighted(remaining), completion: again) }
    }
    lamp.states.apply(.off()) { _ in order.append("second done") }
    recorder.finishLatest()
    #expect(order == ["first done", "second done", "third done"])
    lamp.states.apply(.highlighted(0), completion: again)
    #expect(remaining == 0)
  }

  @Test("XS-7: an interrupted transition (completion false) drops the waiting applies with false; after its changes ran, no state is current")
  func interrupted() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    lamp.states.apply(.off())
    var calls: [String] = []
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "a")) { calls.append("a \($0)") }
    lamp.states.apply(.plain()) { calls.append("b \($0)") }
    lamp.states.apply(.highlighted(3)) { calls.append("c \($0)") }
    recorder.finishLatest(false)  // its changes ran, then it reports not finished
    #expect(calls == ["a false", "b false", "c false"])
    #expect(lamp.states.phase == .ready(current: nil))  // the lamp looks like neither off nor highlighted
    #expect(!lamp.log.contains("set plain"))
    // Applying the old state again repaints it: onSet runs.
    lamp.log = []
    lamp.states.apply(.off())
    #expect(lamp.log == ["set off"])
    #expect(lamp.states.phase == .ready(current: "off()"))
    // Interrupted before its changes ran: the current state stays.
    lamp.states.apply(.highlighted(5), via: recorder.transition(named: "b"))
    recorder.started.removeLast().completion(false)
    #expect(lamp.states.phase == .ready(current: "off()"))
    #expect(!lamp.isOn)
  }

  @Test("XS-6/XS-7: a dropped apply's completion that applies again waits until every dropped completion was called")
  func droppedCompletionsInOrder() {
    let lamp = Lamp()
    let recorder = Recorder<Lamp>()
    var calls: [String] = []
    lamp.states.apply(.highlighted(1), via: recorder.transition(named: "a")) { finished in
      calls.append("a \(finished)")
      lamp.states.apply(.off()) { calls.append("x \($0)") }
    }
    lamp.states.apply(.plain()) { calls.append("b \($0)") }
    lamp.states.apply(.highlighted(3)) { calls.append("c \($0)") }
    recorder.finishLatest(false)
    #expect(calls == ["a false", "b false", "c false", "x true"])
  }

  @Test("states holds no completion after it ran: an object whose completion captured it still goes away")
  func noLeakThroughStates() {
    weak var gone: Lamp?
    do {
      let lamp = Lamp()
      gone = lamp
      lamp.states.apply(.off()) { _ in lamp.log.append("done") }
      lamp.states.apply(.highlighted(2)) { _ in lamp.log.append("done again") }
      #expect(lamp.log.suffix(2) == ["update highlighted 2", "done again"])
    }
    #expect(gone == nil)
  }

  @Test("XS-8: the object is held weakly; released with applies waiting, no change runs, nothing crashes, completions get false")
  func weakTarget() {
    var lamp: Lamp? = Lamp()
    weak let weakLamp = lamp
    let recorder = Recorder<Lamp>()
    let dispatcher = StateDispatcher(for: lamp!)
    var calls: [String] = []
    dispatcher.apply(.highlighted(1), via: recorder.transition(named: "a")) { calls.append("a \($0)") }
    dispatcher.apply(.off()) { calls.append("b \($0)") }
    lamp = nil
    #expect(weakLamp == nil)
    #expect(dispatcher.target == nil)
    recorder.finishLatest()  // its changes find no object: not finished
    #expect(calls == ["a false", "b false"])
    dispatcher.apply(.plain()) { calls.append("c \($0)") }
    #expect(calls == ["a false", "b false", "c false"])
    #expect(dispatcher.phase == .ready(current: nil))
  }

  @Test("states keeps one dispatcher per object, and none for an object that is gone")
  func onePerObject() {
    let lamp = Lamp()
    #expect(lamp.states === lamp.states)
    #expect(Lamp().states !== lamp.states)
    // Many short-lived objects: their dispatchers do not pile up or get handed to new objects.
    for _ in 0..<1_000 {
      let other = Lamp()
      #expect(other.states.phase == .ready(current: nil))
      other.states.apply(.off())
    }
    lamp.states.apply(.off())
    #expect(lamp.states.current == "off()")
  }

  @Test("on the state-in side: a reducer store's binder applies the named state its state calls for")
  func drivenByAStore() {
    let bar = SearchBar()
    let store = ReducerStore(initialState: "idle", reducer: Reducer<String, String> { state, action in
      state = action
      return .none
    })
    store.apply(to: bar)
    #expect(bar.states.current == "idle()")
    store.send("loading")
    #expect(bar.states.current == "loading()")
    #expect(bar.status.text == "loading.")
    store.send("idle")
    #expect(bar.status.text == "idle")
  }
}
