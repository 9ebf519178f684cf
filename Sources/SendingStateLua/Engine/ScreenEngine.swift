import CLua
import CLuaShim
import Foundation
import SendingState
import SendingStateHeadless

/// The screen engine: one pipeline per event, one call into Lua per event.
///
/// ``send(_:)`` is the only way anything happens to a screen. It opens an episode (one budget
/// and one deadline for the whole event), runs the kernel's pipeline in Lua — the sender's
/// callbacks, every action in FIFO order, each store update validated where it is made,
/// `configure` once with the new state, the rows that changed — and the kernel commits the
/// event in a section no limit can interrupt. The engine then applies the event's batch to the
/// views (it cannot fail: every value was checked in Lua), installs new registrations, starts
/// the event's effects and commits the state to the core store. If anything in the event fails,
/// the kernel undoes it and the error is thrown: state, views, observers and the action log
/// are exactly as before.
///
/// A tap: headless control → the engine's sink for that registration (``EngineSinks``) →
/// ``deliver(_:)`` → ``send(_:)`` → the kernel (Lua) → batch applied → store commit.
@MainActor
final class ScreenEngine: KernelHost, ListWindowControlling {
  /// What the engine is asked to run.
  enum Event {
    /// A UI event a sender delivered for a script registration.
    case ui(ScreenUIEvent)
    /// An action performed from outside (tools, tests).
    case action(LuaValue)
    /// The actions an effect produced.
    case effect([LuaValue])
    /// A list asked to scroll (0-based first row).
    case scroll(list: View, first: Int)
    /// A named state's transition has run its time (the kernel's token for it).
    case transition(token: Int)
  }

  /// What one event did.
  struct Outcome {
    var actions: [LuaValue] = []
    var warnings: [String] = []
    /// Why it did less than it might (see ``EngineBatch/quiet``).
    var quiet: [String] = []
  }

  let runtime: LuaRuntime
  private(set) var kernel: ScreenKernel!
  let screenHost: LuaScreenHost
  let payload: ServerPayload?
  let swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View]
  /// The async work the host app registered for `store:run`, by name.
  let tasks: [String: LuaScreen.HostTask]
  /// How long each task's answer takes on the screen's clock once it has run (fakes).
  let taskDelays: [String: Double]
  private(set) var views: [Int: View] = [:]
  private var vids: [ObjectIdentifier: Int] = [:]
  private var events = EngineEventTable()
  private var forwarding: [Int: EngineForwarding] = [:]
  private var interactive: [Int: (view: View, properties: [ViewProperty], last: [LuaValue])] = [:]
  /// Where the senders deliver: straight to ``deliver(_:)``.
  private let sinks = EngineSinks()
  /// The views with registrations, each once, in the order they registered.
  private var senders: [View] = []
  private var boundSenders: Set<ObjectIdentifier> = []
  private(set) var committed = ScreenState(node: nil)
  private(set) var isClosed = false
  /// Whether an event is under way (see ``run(_:context:pushArguments:)``).
  private var isRunning = false
  /// Called with each committed state (the screen's store).
  var commit: ((ScreenState) -> Void)?
  /// Called with the outcome of every committed event (the screen's action log).
  var committedEvent: ((Outcome) -> Void)?

  /// Outcomes of UI events delivered while a driver step runs (see ``collect(_:)``).
  private var captures: [[Result<Outcome, any Error>]] = []
  /// Errors nobody was there to catch: effect results, UI events outside a driver step.
  private(set) var unhandledErrors = BoundedLog<ScriptError>(limit: 100, byteBudget: 1 << 20) {
    $0.message.utf8.count + ($0.traceback?.utf8.count ?? 0)
  }
  /// Called with each error in ``unhandledErrors``.
  var onUnhandledError: ((ScriptError) -> Void)?
  private(set) var effects: [Int: (task: Task<Void, Never>, target: EffectTarget)] = [:]
  private var nextEffect = 0

  init(
    runtime: LuaRuntime, screenHost: LuaScreenHost, payload: ServerPayload?,
    swiftUnits: [String: @MainActor @Sendable (ServerUnit) -> View], tasks: [String: LuaScreen.HostTask] = [:],
    taskDelays: [String: Double] = [:]
  ) throws {
    self.tasks = tasks
    self.taskDelays = taskDelays
    self.runtime = runtime
    self.screenHost = screenHost
    self.payload = payload
    self.swiftUnits = swiftUnits
    kernel = try ScreenKernel(runtime: runtime, host: self)
  }

  // MARK: - The pipeline

  /// Loads the screen: layout, events, the first state and configure, as one event.
  func load(
    module: LuaRef, initial: LuaValue?, units: LuaRef?, schema: LuaRef?, components: LuaRef? = nil, middleware: LuaRef? = nil,
    owners: LuaRef? = nil
  ) throws -> Outcome {
    try run("load", context: "loading") { stack throws(LuaBridgeError) in
      stack.push(reference: module.reference)
      if let initial {
        try stack.push(initial, path: LuaPath(root: "state"))
      } else if let state = module.field("state") {
        stack.push(reference: state.reference)
      } else {
        stack.pushNil()
      }
      if let units { stack.push(reference: units.reference) } else { stack.pushNil() }
      if let schema { stack.push(reference: schema.reference) } else { stack.pushNil() }
      if let components { stack.push(reference: components.reference) } else { stack.pushNil() }
      if let middleware { stack.push(reference: middleware.reference) } else { stack.pushNil() }
      if let owners { stack.push(reference: owners.reference) } else { stack.pushNil() }
      return 7
    }
  }

  /// Runs one event through the pipeline and commits it, or throws and changes nothing.
  @discardableResult
  func send(_ event: Event) throws -> Outcome {
    guard !isClosed else { throw ScriptError(kind: .runtime, message: "the screen is closed") }
    let room = max(0, runtime.limits.maxPendingEffects - effects.count)
    return try run("send", context: nil) { stack throws(LuaBridgeError) in
      try pushSync(on: stack)
      stack.push(Int64(clamping: room))
      switch event {
      case .ui(let ui):
        stack.push("ui")
        stack.push(Int64(ui.vid))
        stack.push(Int64(ui.key))
        if let token = ui.token { stack.push(token) } else { stack.pushNil() }
        if let phase = ui.phase { stack.push(phase) } else { stack.pushNil() }
        return 7
      case .action(let action):
        stack.push("action")
        try stack.push(action, path: LuaPath(root: "action"))
        return 4
      case .effect(let actions):
        stack.push("effect")
        try stack.push(.table(LuaTable(sequence: actions)), path: LuaPath(root: "effect result"))
        return 4
      case .scroll(let list, let first):
        stack.push("scroll")
        stack.push(Int64(vids[ObjectIdentifier(list)] ?? 0))
        stack.push(Int64(first < Int.max ? first + 1 : first))  // (1-based; never a trap)
        return 5
      case .transition(let token):
        stack.push("transition")
        stack.push(Int64(token))
        return 4
      }
    }
  }

  /// One episode: the kernel function, then the batch applied; on failure the kernel's undo.
  private func run(
    _ name: String, context: String?, pushArguments: (LuaStack) throws(LuaBridgeError) -> Int32
  ) throws -> Outcome {
    // One event at a time: a host function a script calls (a host module, a task's synchronous
    // part) that drives the screen again would otherwise share the event under way.
    guard !isRunning else {
      throw ScriptError(
        kind: .runtime,
        message: "the screen is running an event already; a host function cannot send it another one (perform it after this event, e.g. from a task)")
    }
    isRunning = true
    defer { isRunning = false }
    let L = runtime.L
    sslua_begin_episode(L)
    defer { sslua_end_episode(L) }
    return apply(try kernel.run(name, context: context, pushArguments: pushArguments))
  }

  // MARK: - Applying a batch (nothing here can fail)

  private func apply(_ batch: EngineBatch) -> Outcome {
    for creation in batch.created {
      let view = make(creation)
      view.id = creation.id
      views[creation.vid] = view
      vids[ObjectIdentifier(view)] = creation.vid
      let description = ViewRegistry.description(of: view)
      let watched = description.properties.filter(\.interactive)
      if !watched.isEmpty {
        interactive[creation.vid] = (view, watched, watched.map { $0.get(view) })
      }
    }
    for (parent, children) in batch.children {
      guard let parentView = views[parent] else { continue }
      for child in children {
        guard let childView = views[child] else { continue }
        parentView.addSubview(childView)
      }
    }
    for write in batch.writes {
      guard let view = views[write.vid], let property = ViewRegistry.description(of: view).property(write.property) else {
        continue
      }
      property.set?(view, write.value)
      if property.interactive, var entry = interactive[write.vid],
        let position = entry.properties.firstIndex(where: { $0.name == write.property })
      {
        // What Lua wrote is what Lua knows; if the view adjusted it, the next sync says so.
        entry.last[position] = write.value
        interactive[write.vid] = entry
      }
    }
    var changedHosts: Set<Int> = []
    for registration in batch.registrations {
      guard let sender = views[registration.sender], let event = events.event(registration.key) else { continue }
      let entry = forwarding[registration.host] ?? EngineForwarding()
      forwarding[registration.host] = entry
      entry.add(sender: sender, vid: registration.sender, key: registration.key, event: event)
      changedHosts.insert(registration.host)
      sinks.install(sender: sender, vid: registration.sender, key: registration.key, event: event, engine: self)
      if boundSenders.insert(ObjectIdentifier(sender)).inserted {
        senders.append(sender)
        sender.sideStorage.bind(committed)
      }
    }
    for hostVid in changedHosts.sorted() {
      guard let host = views[hostVid] as? any EngineEventHost, let entry = forwarding[hostVid] else { continue }
      host.forwarding = entry
      entry.rebuild()
    }
    for window in batch.windows {
      guard let list = views[window.list] as? ListView else { continue }
      list.windowController = self
      let rows = window.rows.compactMap { row in (views[row.host] as? ListRow).map { ($0, row.index - 1) } }
      list.show(rows: rows, count: window.count, first: window.first - 1)
    }
    for effect in batch.effects { start(effect) }
    if let node = batch.state {
      committed = ScreenState(node: node)
      // SendingState's transport: the host and every sender hold the committed state
      // (`view.ss.state()`); nothing else runs (the kernel has configured the views).
      screenHost.sideStorage.bind(committed)
      for sender in senders { sender.sideStorage.bind(committed) }
      commit?(committed)
    }
    let outcome = Outcome(actions: batch.actions, warnings: batch.warnings, quiet: batch.quiet)
    committedEvent?(outcome)
    return outcome
  }

  private func make(_ creation: EngineBatch.Creation) -> View {
    switch creation.kind {
    case "screen":
      return screenHost
    case "unit":
      // A unit host renders a payload unit; one with no unit is a component's host.
      guard let unit = unit(section: creation.section, index: creation.unit) else { return LuaComponentHost(id: nil) }
      let host = LuaUnitHost(unit: unit, id: nil)
      if creation.swift, let render = swiftUnits[unit.unitType] {
        host.addSubview(render(unit))
      }
      return host
    default:
      return ViewRegistry.byName[creation.kind]?.make() ?? View()
    }
  }

  private func unit(section: Int, index: Int) -> ServerUnit? {
    guard let sections = payload?.sections, section >= 1, section <= sections.count else { return nil }
    let units = sections[section - 1].serverUnits
    return index >= 1 && index <= units.count ? units[index - 1] : nil
  }

  /// The values users changed since the last event (a switch flipped, text typed), for Lua.
  private func pushSync(on stack: LuaStack) throws(LuaBridgeError) {
    var changes: [LuaValue] = []
    for (vid, entry) in interactive {
      var updated = entry
      for (position, property) in entry.properties.enumerated() {
        let current = property.get(entry.view)
        if current != entry.last[position] {
          changes += [.integer(Int64(vid)), .string(property.name), current]
          updated.last[position] = current
        }
      }
      interactive[vid] = updated
    }
    if changes.isEmpty {
      stack.pushNil()  // (most events: no table to make)
    } else {
      try stack.push(.table(LuaTable(sequence: changes)), path: LuaPath(root: "sync"))
    }
  }

  // MARK: - UI events and driver steps

  /// Runs `body` (a driver's interaction) and returns the outcomes of the UI events it caused;
  /// throws the first failure.
  func collect(_ body: () throws -> Void) throws -> [Outcome] {
    captures.append([])
    var results: [Result<Outcome, any Error>] = []
    do {
      try body()
      results = captures.removeLast()
    } catch {
      captures.removeLast()
      throw error
    }
    var outcomes: [Outcome] = []
    for result in results {
      outcomes.append(try result.get())
    }
    return outcomes
  }

  /// A UI event from a sender: runs it; its outcome goes to the driver step under way, or
  /// its error to ``unhandledErrors``.
  func deliver(_ event: ScreenUIEvent) {
    let result = Result<Outcome, any Error> { try send(.ui(event)) }
    if !captures.isEmpty {
      captures[captures.count - 1].append(result)
    } else if case .failure(let error) = result {
      report(error)
    }
  }

  private func report(_ error: any Error) {
    let failure = (error as? ScriptError) ?? ScriptError(kind: .runtime, message: "\(error)")
    unhandledErrors.append(failure)
    onUnhandledError?(failure)
  }

  /// A list wants to scroll: the engine plans the new window (rows configured in Lua).
  func list(_ list: ListView, scrollTo first: Int) {
    let result = Result<Outcome, any Error> { try send(.scroll(list: list, first: first)) }
    if !captures.isEmpty {
      captures[captures.count - 1].append(result)
    } else if case .failure(let error) = result {
      report(error)
    }
  }

  /// The events registered on each sender, in registration order: one pass over every host's
  /// registrations (for tools that ask about every view at once).
  func registeredEventsBySender() -> [ObjectIdentifier: [SenderEvent]] {
    var result: [ObjectIdentifier: [SenderEvent]] = [:]
    for host in forwarding.keys.sorted() {
      for (sender, event) in forwarding[host]?.senderEvents ?? [] { result[ObjectIdentifier(sender), default: []].append(event) }
    }
    return result
  }

  /// The events the screen registered on `sender` (its `on(...)` calls), in registration order.
  func registeredEvents(on sender: View) -> [SenderEvent] {
    forwarding.keys.sorted().flatMap { forwarding[$0]?.events(of: sender) ?? [] }
  }

  // MARK: - KernelHost

  func parseEvent(_ spec: LuaValue, senderID: String?, kind: ViewKindDescription) -> Result<(key: Int, name: String), ScriptError> {
    events.key(for: spec, senderID: senderID, kind: kind)
  }

  func payloadSections() -> LuaValue? {
    guard let payload else { return nil }
    return .table(
      LuaTable(
        sequence: payload.sections.map { section in
          var fields: [String: LuaValue] = [
            "units": .table(
              LuaTable(sequence: section.serverUnits.map { ["type": .string($0.unitType), "data": $0.data] }))
          ]
          if let id = section.sectionId { fields["id"] = .string(id) }
          return .table(LuaTable(fields: fields))
        }))
  }

  func hasSwiftUnit(_ unitType: String) -> Bool { swiftUnits[unitType] != nil }

  func hasTask(_ name: String) -> Bool { tasks[name] != nil }

  func taskNames() -> String { tasks.keys.sorted().joined(separator: ", ") }

  func knownUnits(luaUnits: [String]) -> String {
    (luaUnits + swiftUnits.keys).sorted().joined(separator: ", ")
  }

  // MARK: - Effects

  private func start(_ effect: EngineBatch.Effect) {
    switch effect {
    case .cancel(let id):
      cancelEffects(id: id)
    case .transition(let seconds, let token):
      startTransition(seconds: seconds, token: token)
    case .after(_, _, let options), .fetch(_, _, _, _, _, _, _, let options), .task(_, _, _, _, let options):
      if let id = options.id, options.replace || options.debounce != nil { cancelEffects(id: id) }
      if let id = options.id, let window = options.throttle {
        throttle(effect, id: id, window: window, latest: options.latest)
      } else {
        run(effect, id: options.id, delay: options.debounce ?? 0)
      }
    }
  }

  /// Starts `effect` under `id` after `delay` seconds of the screen's clock.
  private func run(_ effect: EngineBatch.Effect, id: String?, delay rawDelay: Double) {
    let limits = runtime.limits
    let clock = runtime.clock
    let virtual = clock as? VirtualClock
    // The kernel checked the delays; this is the last line before a clock (never a trap).
    // (A debounced timer waits for both, so twice the longest delay.)
    let longest = 2 * Double(limits.maxEffectDelay.components.seconds)
    func bounded(_ seconds: Double) -> Double { seconds.isFinite ? min(max(seconds, 0), longest) : longest }
    let delay = bounded(rawDelay)
    // What lists of pending effects show of it: what the script started, and its debounce.
    let shown = EffectTarget.Shown(effect: Self.kindName(of: effect), debounce: rawDelay > 0 ? delay : nil)
    // A fake's answer delay: none unless a positive number (NaN is none, not the longest).
    func answerDelay(_ seconds: Double) -> Double { seconds > 0 ? bounded(seconds) : 0 }
    switch effect {
    case .cancel, .transition:
      return
    case .after(let seconds, let actions, _):
      // One timer for the delay and the wait (a debounced timer is a longer timer).
      let total = bounded(delay + seconds)
      if let virtual {
        // Set now, so an advance that comes before the task runs still passes it.
        let ticket = virtual.schedule(after: total)
        startEffect(id: id, shown: shown, tickets: [ticket]) { _ in
          try await virtual.wait(for: ticket)
          return actions
        }
      } else {
        startEffect(id: id, shown: shown) { _ in
          try await clock.sleep(seconds: total)
          return actions
        }
      }
    case .task(let name, let input, let ok, let fail, _):
      guard let task = tasks[name] else { return }
      // As a fetch's: the answer's delay (a fake's), both timers set now.
      let latency = answerDelay(taskDelays[name] ?? 0)
      let ticket = delay > 0 ? virtual?.schedule(after: delay) : nil
      let answerTicket = latency > 0 ? virtual?.schedule(after: bounded(delay + latency)) : nil
      startEffect(id: id, shown: shown, tickets: [ticket, answerTicket].compactMap { $0 }) { target in
        try await Self.wait(delay, ticket: ticket, on: clock)
        let outcome: LuaValue
        do {
          outcome = ["type": .string(ok), "value": try await task(input)]
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          outcome = ["type": .string(fail), "error": .string(String(describing: error))]
        }
        if latency > 0 {
          if ticket != nil, answerTicket != nil { await target.wokeAndWaitsAgain() }
          try await Self.wait(latency, ticket: answerTicket, on: clock)
        }
        return [outcome]
      }
    case .fetch(let source, let method, let headers, let body, let ok, let fail, let hosts, _):
      let fetcher = runtime.fetcher
      let request = URL(string: source).map { FetchRequest(url: $0, method: method, headers: headers, body: body) }
      // How long the answer takes on the screen's clock once sent (a fake's delay; 0 for the
      // network, whose time is its own). Both timers are set now, so an advance that comes
      // before the task runs still passes them.
      let latency = answerDelay(request.map { fetcher.answerDelay(for: $0) } ?? 0)
      let ticket = delay > 0 ? virtual?.schedule(after: delay) : nil
      let answerTicket = latency > 0 ? virtual?.schedule(after: bounded(delay + latency)) : nil
      startEffect(id: id, shown: shown, tickets: [ticket, answerTicket].compactMap { $0 }) { target in
        try await Self.wait(delay, ticket: ticket, on: clock)
        // Whatever the answer holds, the fetch ends in its ok or its fail action.
        guard let request else {
          if let answerTicket { virtual?.cancel(answerTicket) }
          return [["type": .string(fail), "error": .string("not a URL this host can fetch: \(source.prefix(200))")]]
        }
        // The kernel checked it at the script's line; this is the check every fetcher's
        // request crosses (the network's is checked once more in C).
        if let problem = request.problem(maxBodyBytes: limits.maxFetchBodyBytes) {
          if let answerTicket { virtual?.cancel(answerTicket) }
          return [["type": .string(fail), "error": .string("the request cannot be sent: \(problem)")]]
        }
        let outcome: LuaValue
        do {
          let (data, status) = try await fetcher.send(request, within: hosts, maxBytes: limits.maxFetchBytes, timeout: limits.fetchTimeout)
          outcome = Self.answer(data, status: status, ok: ok, fail: fail, limits: limits)
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          // HTTPGet's errors are in words (the limit, or the host and what went wrong).
          outcome = ["type": .string(fail), "error": .string(String(describing: error))]
        }
        if latency > 0 {
          // Woken by the debounce's timer, this effect now waits for another: an advance
          // counts that as the step its wake-up made (see advance(_:by:)).
          if ticket != nil, answerTicket != nil { await target.wokeAndWaitsAgain() }
          try await Self.wait(latency, ticket: answerTicket, on: clock)
        }
        return [outcome]
      }
    }
  }

  /// The action a fetched answer becomes: a 2xx answer is the ok action; any other status is
  /// the fail action, with the status and body as well (a 404 page is not the data the screen
  /// asked for). The body's JSON, when it is JSON, is read with the room the action takes
  /// (the effect's list and the action itself: two levels, a few values), so the action always
  /// crosses; JSON that does not fit is left out and `json_error` says why.
  nonisolated static func answer(_ data: Data, status: Int, ok: String, fail: String, limits: LuaRuntime.Limits) -> LuaValue {
    if let cap = limits.maxStringBytes, data.count > cap {
      return ["type": .string(fail), "status": .integer(Int64(status)), "error": .string("the answer is \(data.count) bytes; a string may be at most \(cap) (maxStringBytes)")]
    }
    let succeeded = (200..<300).contains(status)
    var result: LuaValue = [
      "type": .string(succeeded ? ok : fail), "status": .integer(Int64(status)),
      "body": .string(String(decoding: data, as: UTF8.self)),
    ]
    if !succeeded { result["error"] = .string("the server answered HTTP \(status)") }
    var room = limits
    room.maxDepth = max(1, limits.maxDepth - 2)
    room.maxNodes = max(1, limits.maxNodes - 16)
    do {
      result["json"] = try LuaValue(json: data, root: "json", limits: room)
    } catch {
      // Not JSON at all is the common case (an HTML page): no json_error for that.
      let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { result["json_error"] = .string(error.description) }
    }
    return result
  }

  /// The named-state transitions running (at most one per screen or component), by the
  /// kernel's token: each one's task and virtual clock timer. Not effects: they deliver no
  /// actions, `store:cancel` and ``cancelAllEffects()`` leave them, and ``pendingEffects`` does
  /// not count them.
  private(set) var transitions: [Int: (task: Task<Void, Never>, ticket: Int?)] = [:]

  /// Tells the kernel when `seconds` of the screen's clock have passed (the transition's end).
  private func startTransition(seconds rawSeconds: Double, token: Int) {
    let longest = Double(runtime.limits.maxEffectDelay.components.seconds)
    let seconds = rawSeconds.isFinite ? min(max(rawSeconds, 0), longest) : longest
    let clock = runtime.clock
    let virtual = clock as? VirtualClock
    let ticket = virtual?.schedule(after: seconds)
    let task = Task { @MainActor [weak self] in
      do {
        try await Self.wait(seconds, ticket: ticket, on: clock)
      } catch {
        return  // cancelled
      }
      guard let self, !Task.isCancelled, !self.isClosed else { return }
      self.transitions[token] = nil
      do {
        try self.send(.transition(token: token))
      } catch {
        // Its done (or a change that waited) failed, and that event changed nothing: the
        // transition ends interrupted (in a call no limit interrupts), so the screen is not
        // left in it for ever.
        self.report(error)
        _ = try? self.runtime.call(self.kernel.function("interruptTransition"), context: nil, critical: true, pushArguments: {
          stack in
          stack.push(Int64(token))
          return 1
        }) { _, _ throws(LuaBridgeError) in () }
      }
      self.finishedEffects += 1  // (an advance of the virtual clock waits for it like a timer)
    }
    transitions[token] = (task, ticket)
  }

  private func cancelTransitions() {
    let virtual = runtime.clock as? VirtualClock
    for running in transitions.values {
      running.task.cancel()
      if let ticket = running.ticket { virtual?.cancel(ticket) }
    }
    transitions.removeAll()
  }

  /// How many unit and component hosts the kernel keeps (what a failed event must not grow).
  func unitHostCount() -> Int {
    (try? runtime.call(kernel.function("unitHostCount"), context: nil, critical: true, pushArguments: { _ in 0 }) {
      stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "count"))
    })?.intValue ?? -1
  }

  /// The named state of the screen, or of the component with id `component`: the current one,
  /// and while a transition runs, its ends.
  func namedPhase(component: String? = nil) -> LuaValue? {
    try? runtime.call(kernel.function("namedPhase"), context: nil, critical: true, pushArguments: { stack in
      guard let component else { return 0 }
      stack.push(component)
      return 1
    }) {
      stack, count throws(LuaBridgeError) in count > 0 ? try stack.value(at: stack.top - count + 1, path: LuaPath(root: "named")) : .nil
    }
  }

  /// Waits out an effect's delay: its virtual clock timer (`ticket`), or `delay` seconds of a
  /// real clock (none when it is 0).
  private nonisolated static func wait(_ delay: Double, ticket: Int?, on clock: any ScreenClock) async throws {
    if let ticket, let virtual = clock as? VirtualClock {
      try await virtual.wait(for: ticket)
    } else if delay > 0 {
      try await clock.sleep(seconds: delay)
    }
  }

  /// A throttle window: when it ends (screen clock time), the effect waiting for its end, and
  /// a token naming the window (a timer acts only on its own window).
  struct ThrottleWindow {
    var end: Double
    var waiting: EngineBatch.Effect?
    var token: Int
  }
  /// Throttle windows by effect id; expired ones are dropped as new ones open.
  private(set) var throttles: [String: ThrottleWindow] = [:]
  private var nextWindow = 0
  /// The throttle windows open now (for tests).
  var throttleWindowCount: Int { throttles.count }
  /// Throttle windows kept at once. A window outlives its effect (up to `maxEffectDelay`), so a
  /// screen throttling under ever new ids would otherwise grow the host's memory for an hour:
  /// past this, the idle windows that end first are forgotten (the next effect under such an id
  /// starts at once). Windows with an effect waiting are bounded by `maxPendingEffects`.
  static let maxThrottleWindows = 1_024

  /// At most one effect with `id` per `window` seconds: the first starts at once; one that
  /// comes within the window waits for its end (the latest, or the first with `latest = false`);
  /// the others are dropped.
  private func throttle(_ effect: EngineBatch.Effect, id: String, window rawWindow: Double, latest: Bool) {
    let limits = runtime.limits
    let longest = Double(limits.maxEffectDelay.components.seconds)
    let window = rawWindow.isFinite ? min(max(rawWindow, 0), longest) : longest
    let now = runtime.clock.now
    guard let open = throttles[id], now < open.end else {
      if throttles.count >= 64 {
        // Windows of ids no longer used: ended, with nothing waiting.
        throttles = throttles.filter { $0.value.end > now || $0.value.waiting != nil }
      }
      if throttles.count >= Self.maxThrottleWindows {
        // Still too many: forget the idle half that ends first (once per half, not per window).
        let idle = throttles.filter { $0.value.waiting == nil }.sorted { $0.value.end < $1.value.end }
        let excess = throttles.count - Self.maxThrottleWindows + 1
        for (idleID, _) in idle.prefix(max(idle.count / 2, excess)) { throttles[idleID] = nil }
      }
      nextWindow += 1
      throttles[id] = ThrottleWindow(end: now + window, waiting: nil, token: nextWindow)
      run(effect, id: id, delay: 0)
      return
    }
    if open.waiting == nil {
      // The window's end starts whichever effect waits then (a timer under the same id, so
      // store:cancel(id) stops it too). It reaches the engine through its target, so a
      // reload's engine (which adopts it) ends the window.
      throttles[id]?.waiting = effect
      let delay = max(0, open.end - now)
      let clock = runtime.clock
      let ticket = (clock as? VirtualClock)?.schedule(after: delay)
      startEffect(id: id, tickets: ticket.map { [$0] } ?? [], endsWindow: (id, open.token, window)) { _ in
        if let ticket, let virtual = clock as? VirtualClock {
          try await virtual.wait(for: ticket)
        } else {
          try await clock.sleep(seconds: delay)
        }
        return []
      }
    } else if latest {
      throttles[id]?.waiting = effect
    }
  }

  /// A throttle window's timer fired: its waiting effect starts and opens the next window.
  private func endWindow(id: String, token: Int, length: Double) {
    guard let open = throttles[id], open.token == token else { return }  // cancelled, or another window
    guard let waiting = open.waiting else {
      throttles[id] = nil
      return
    }
    nextWindow += 1
    throttles[id] = ThrottleWindow(end: runtime.clock.now + length, waiting: nil, token: nextWindow)
    run(waiting, id: id, delay: 0)
  }

  /// Cancels the running effects started under `id`, and its throttle window.
  private func cancelEffects(id: String) {
    let virtual = runtime.clock as? VirtualClock
    for (number, effect) in effects where effect.target.name == id {
      effect.task.cancel()
      // A virtual timer whose task has not run yet would still fire at the next advance.
      for ticket in effect.target.tickets { virtual?.cancel(ticket) }
      effects[number] = nil
    }
    throttles[id] = nil
  }

  /// Runs `work` in the background; its actions come back as an event of their own, to the
  /// engine the effect belongs to then (a reload hands effects on).
  private func startEffect(
    id: String? = nil, shown: EffectTarget.Shown? = nil, tickets: [Int] = [],
    endsWindow: (id: String, token: Int, length: Double)? = nil,
    _ work: @escaping @Sendable (EffectTarget) async throws -> [LuaValue]
  ) {
    guard !isClosed else { return }
    nextEffect += 1
    let target = EffectTarget(engine: self, id: nextEffect)
    target.name = id
    target.shown = shown
    target.tickets = tickets
    let task = Task { @MainActor [target] in
      let actions: [LuaValue]
      do {
        actions = try await work(target)
      } catch {
        target.engine?.effects[target.id] = nil
        return  // cancelled: nothing to deliver
      }
      guard let engine = target.engine, !Task.isCancelled else { return }
      engine.effects[target.id] = nil
      if let window = endsWindow { engine.endWindow(id: window.id, token: window.token, length: window.length) }
      if !actions.isEmpty { engine.deliverEffect(actions) }
      engine.finishedEffects += 1
    }
    effects[nextEffect] = (task, target)
  }

  private func deliverEffect(_ actions: [LuaValue]) {
    guard !isClosed else { return }
    do {
      try send(.effect(actions))
    } catch {
      report(error)
    }
  }

  /// Takes over the effects still running in `other` (a reload): their results reach this
  /// engine instead.
  func adoptEffects(from other: ScreenEngine) {
    for (_, effect) in other.effects.sorted(by: { $0.key < $1.key }) {
      nextEffect += 1
      effect.target.engine = self
      effect.target.id = nextEffect
      effects[nextEffect] = effect
    }
    other.effects.removeAll()
    // Throttle windows go with their timers.
    throttles.merge(other.throttles) { mine, _ in mine }
    nextWindow = max(nextWindow, other.nextWindow)
    other.throttles.removeAll()
  }

  /// The number of effects still running.
  var pendingEffects: Int { effects.count }
  /// The most timers one ``advance(_:by:)`` fires, and the most at one instant of the clock.
  nonisolated static let maxTimersPerAdvance = 1_000_000
  nonisolated static let maxTimersPerInstant = 10_000

  /// How many effects have delivered their actions so far.
  private(set) var finishedEffects = 0
  /// How many effects woken by a virtual timer went on to wait for another one (a fetch's
  /// answer delay after its debounce) instead of finishing. Counted on the main actor through
  /// the effect's target, so an effect a reload handed on counts for the engine it belongs to.
  fileprivate(set) var clockSteps = 0
  /// How often advances yielded to let woken effects run (for tests: an effect whose step is
  /// not counted makes an advance spin to its bound, 100,000 yields).
  private(set) var advanceYields = 0

  /// Advances a virtual clock by `seconds`: each timer due by then fires, in time order (also
  /// those that a fired timer's actions start within the window), and is delivered before
  /// this returns.
  func advance(_ clock: VirtualClock, by seconds: Double) async throws {
    let end = clock.now + max(0, seconds)
    var fired = 0
    var atThisInstant = 0
    var instant = clock.now
    // (One budget for the whole advance: an effect waiting on the network costs it once.)
    var patience = Self.runningEffectsPatience
    await letRunningEffectsReachTheClock(clock, patience: &patience)
    while let next = clock.nextDeadline, next <= end {
      // (Read before the timers fire: a woken effect may make its step at once.)
      let before = finishedEffects + clockSteps
      let woken = clock.advance(to: next)
      fired += woken
      // (Timers each within a microsecond of the last count as one instant: a 1e-9 s delay at
      // a large time moves the clock by a rounding step only.)
      atThisInstant = next - instant < 1e-6 ? atThisInstant + woken : woken
      instant = next
      if atThisInstant > Self.maxTimersPerInstant {
        throw ScriptError(
          kind: .timeout,
          message: "more than \(Self.maxTimersPerInstant) timers fired at one instant of the clock; a timer that sets the next one at once keeps the clock from moving on (stop re-arming with no delay)")
      }
      if fired > Self.maxTimersPerAdvance {
        throw ScriptError(
          kind: .timeout,
          message: "more than \(Self.maxTimersPerAdvance) timers fired in one advance of the clock; advance by less at a time")
      }
      // Each woken timer's effect makes one step: it delivers, or it waits for its next timer.
      let expected = before + woken
      // The woken timers hop back to the main actor to deliver; let them.
      var spins = 0
      while finishedEffects + clockSteps < expected, spins < 100_000, !isClosed {
        await Task.yield()
        spins += 1
      }
      advanceYields += spins
      await letRunningEffectsReachTheClock(clock, patience: &patience)
    }
    clock.advance(to: end)
  }

  /// The most yields one advance gives effects that run without waiting on its clock.
  static let runningEffectsPatience = 10_000

  /// Lets effects that run without waiting on `clock` (a fake fetch's answer of no delay, an
  /// effect that has not set its timer yet) deliver or reach the clock before time moves on, so
  /// what they deliver falls at the instant they started, the same on every run. Bounded by
  /// `patience`, shared by one advance: an effect waiting on something real (the network) holds
  /// an advance back once, by that many yields at most. (The clock's timers include named
  /// states' transitions, so this may stop early; then it is as before: such an effect
  /// delivers when it does.)
  private func letRunningEffectsReachTheClock(_ clock: VirtualClock, patience: inout Int) async {
    while effects.count > clock.sleeping, patience > 0, !isClosed {
      await Task.yield()
      patience -= 1
    }
  }

  /// Waits until no effect is pending, or `timeout` passes; returns whether all settled.
  func settle(timeout: Duration) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !effects.isEmpty, clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
    return effects.isEmpty
  }

  // MARK: - Reading

  /// The views of the screen by id (units' views as `unit.view`).
  func screenViews() -> [String: View] {
    mapIDs(try? runtime.call(kernel.function("ids"), context: nil, critical: true, pushArguments: { _ in 0 }) {
      stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "ids"))
    })
  }

  /// The views of the row hosted by `row`, by id.
  func rowViews(_ row: ListRow) -> [String: View] {
    guard let vid = vids[ObjectIdentifier(row)] else { return [:] }
    return mapIDs(
      try? runtime.call(kernel.function("rowIds"), context: nil, critical: true, pushArguments: { stack in
        stack.push(Int64(vid))
        return 1
      }) { stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "ids")) })
  }

  private func mapIDs(_ value: LuaValue?) -> [String: View] {
    var result: [String: View] = [:]
    for (id, vid) in value?.tableValue?.fields ?? [:] {
      if let number = vid.intValue, let view = views[number] { result[id] = view }
    }
    return result
  }

  /// Property `name` of `view` as scripts read it now.
  func value(of name: String, in view: View) -> LuaValue? {
    guard let vid = vids[ObjectIdentifier(view)] else { return nil }
    return try? runtime.call(kernel.function("mirror"), context: nil, critical: true, pushArguments: { stack in
      stack.push(Int64(vid))
      stack.push(name)
      return 2
    }) { stack, count throws(LuaBridgeError) in
      count > 0 ? try stack.value(at: stack.top - count + 1, path: LuaPath(root: name)) : .nil
    }
  }

  /// The store methods scripts get, as the kernel installs them.
  func storeMethodNames() -> [String] {
    ((try? runtime.call(kernel.function("storeMethodNames"), context: nil, critical: true, pushArguments: { _ in 0 }) {
      stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "methods"))
    })?.tableValue?.sequence.compactMap(\.stringValue)) ?? []
  }

  /// The `ui.<kind>` builders, as the kernel installs them.
  func builderNames() -> [String] {
    ((try? runtime.call(kernel.function("builders"), context: nil, critical: true, pushArguments: { _ in 0 }) {
      stack, _ throws(LuaBridgeError) in try stack.value(at: -1, path: LuaPath(root: "builders"))
    })?.tableValue?.sequence.compactMap(\.stringValue)) ?? []
  }

  // MARK: - Closing

  /// Cancels every running effect (their actions never arrive), keeping the screen open; their
  /// timers leave a virtual clock too (one shared with another screen must not keep them).
  func cancelAllEffects() {
    let virtual = runtime.clock as? VirtualClock
    for effect in effects.values {
      effect.task.cancel()
      for ticket in effect.target.tickets { virtual?.cancel(ticket) }
    }
    effects.removeAll()
    throttles.removeAll()
  }

  /// Stops the engine: effects cancelled, handlers removed, no script runs again.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    cancelAllEffects()
    cancelTransitions()
    sinks.removeAll()
    _ = try? runtime.call(kernel.function("close"), context: nil, critical: true, pushArguments: { _ in 0 }) {
      _, _ throws(LuaBridgeError) in ()
    }
  }
}

/// Where an effect delivers its result: the engine it belongs to now.
@MainActor
final class EffectTarget {
  weak var engine: ScreenEngine?
  var id: Int
  /// The id the script gave (`{ id = "search" }`), for store:cancel.
  var name: String?
  /// The virtual clock's timers the effect waits for (removed when it is cancelled).
  var tickets: [Int] = []
  /// What lists of pending effects show of the effect (nil for a throttle window's timer).
  var shown: Shown?

  /// What the script started (`after`, `fetch`, `task`) and the debounce it asked for, in
  /// seconds (nil: none).
  struct Shown {
    var effect: String
    var debounce: Double?
  }

  init(engine: ScreenEngine, id: Int) {
    self.engine = engine
    self.id = id
  }

  /// The effect, woken by a virtual timer, now waits for its next one (a fetch's answer delay
  /// after its debounce): the engine's advance counts that as the step its wake-up made.
  func wokeAndWaitsAgain() {
    engine?.clockSteps += 1
  }
}

/// A UI event a sender delivered: the sender and registration key, and for gestures the
/// recognizer's token (the same for all phases of one gesture) and the phase.
struct ScreenUIEvent: Sendable {
  let vid: Int
  let key: Int
  let token: Int64?
  let phase: String?
}
