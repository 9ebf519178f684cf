/// The root of a ``ReducerStore``: the state, the reducer, the FIFO queue and the running
/// effects. Scoped stores read and send through it.
@MainActor
final class StoreEngine<State, Action: Sendable> {
  private(set) var state: State
  private let reducer: Reducer<State, Action>
  private let isDuplicate: ((State, State) -> Bool)?
  private let policy: NotificationPolicy
  var diagnose: @MainActor (StoreDiagnostic) -> Void

  // The queue: a FIFO drained by the first `send` (no recursion: CF-6, TCA-4).
  private var queue: [Action] = []
  private var head = 0
  private var isDraining = false
  private var isReducing = false
  private var lastNotified: State

  // Subscribers, behind a lock so a token released on any thread removes its entry at once.
  private let subscribers = Locked<(nextID: UInt64, list: [(id: UInt64, callback: @MainActor (State) -> Void)])>((0, []))

  // Effects started and not finished, by run number.
  private struct Running {
    let task: Task<Void, Never>
    let ids: [EffectID]
    let run: EffectRun
    let origin: Action?
  }
  private var running: [UInt64: Running] = [:]
  private var nextRun: UInt64 = 0
  /// The action whose effects are being started (described only when the test store asks).
  private var origin: Action?
  private var startedBySend: [Task<Void, Never>]?

  // Open throttle windows, by id.
  private struct Window {
    let token: UInt64
    var pending: (effect: Effect<Action>, ids: [EffectID], origin: Action?)?
  }
  private var windows: [EffectID: Window] = [:]

  init(
    state: State, reducer: Reducer<State, Action>, isDuplicate: ((State, State) -> Bool)?, policy: NotificationPolicy,
    diagnose: @escaping @MainActor (StoreDiagnostic) -> Void
  ) {
    self.state = state
    self.lastNotified = state
    self.reducer = reducer
    self.isDuplicate = isDuplicate
    self.policy = policy
    self.diagnose = diagnose
  }

  isolated deinit {
    // TCA-6: releasing the root store cancels everything it started.
    for entry in running.values {
      entry.run.cancelled = true
      entry.task.cancel()
    }
  }

  // MARK: - Actions

  func send(_ action: Action) -> StoreTask {
    if isReducing { diagnose(.sendFromReducer(String(describing: action))) }
    queue.append(action)
    if isDraining { return StoreTask([]) }
    startedBySend = []
    drain()
    let tasks = startedBySend ?? []
    startedBySend = nil
    return StoreTask(tasks)
  }

  private func drain() {
    isDraining = true
    defer {
      isDraining = false
      isReducing = false
    }
    var changed = false
    while true {
      while head < queue.count {
        let action = queue[head]
        head += 1
        // The reducer works on a copy, so a reducer that reads the store sees the state
        // before this action instead of tripping exclusive access.
        var next = state
        isReducing = true
        let effect = reducer.reduce(&next, action)
        isReducing = false
        state = next
        origin = action
        _ = start(effect, ids: [])
        if policy == .everyAction {
          notify()  // an observer's sends join the queue
        } else {
          changed = true
        }
      }
      queue.removeAll(keepingCapacity: true)
      head = 0
      guard changed else { break }
      changed = false
      notify()  // coalesced: once per drained batch; observers' sends start another batch
      if queue.isEmpty { break }
    }
  }

  private func notify() {
    if let isDuplicate, isDuplicate(lastNotified, state) { return }
    lastNotified = state
    let current = state
    for subscriber in subscribers.withLock({ $0.list }) {
      subscriber.callback(current)
    }
  }

  func subscribe(_ callback: @escaping @MainActor (State) -> Void) -> StateObservationToken {
    let id = subscribers.withLock { subscribers in
      subscribers.nextID += 1
      subscribers.list.append((subscribers.nextID, callback))
      return subscribers.nextID
    }
    let list = subscribers
    return StateObservationToken {
      list.withLock { $0.list.removeAll { $0.id == id } }
    }
  }

  var subscriberCount: Int { subscribers.withLock { $0.list.count } }

  // MARK: - Effects

  /// Starts `effect` under `ids`; returns the tasks it started.
  private func start(_ effect: Effect<Action>, ids: [EffectID]) -> [Task<Void, Never>] {
    switch effect.kind {
    case .none:
      return []
    case .send(let action):
      if isDraining {
        queue.append(action)
      } else {
        // A debounced or throttled `.send` fires from a timer, when the store is idle (the
        // effects started with it keep the origin of the timer).
        let from = origin
        _ = send(action)
        origin = from
      }
      return []
    case .run(let priority, let operation, let handler):
      return [run(priority: priority, operation: operation, catch: handler, ids: ids)]
    case .merge(let effects):
      return effects.flatMap { start($0, ids: ids) }
    case .cancellable(let id, let cancelInFlight, let inner):
      if cancelInFlight { cancel(id) }
      return start(inner, ids: ids + [id])
    case .cancel(let id):
      cancel(id)
      return []
    case .report(let diagnostic):
      diagnose(diagnostic)
      return []
    case .debounce(let id, let duration, let clock, let inner):
      cancel(id)
      let scoped = ids + [id]
      let from = origin
      return [
        timer(ids: scoped) { engine, run in
          do { try await clock.sleep(for: duration) } catch { return }
          // The engine is held only while starting: a store released while the work runs
          // still goes away (and cancels it).
          let started: [Task<Void, Never>] = {
            guard let engine = engine(), !run.cancelled else { return [] }
            engine.origin = from
            return engine.start(inner, ids: scoped)
          }()
          // Cancelling the timer (StoreTask.cancel) cancels the work it started.
          await withTaskCancellationHandler {
            for task in started { await task.value }
          } onCancel: {
            for task in started { task.cancel() }
          }
        }
      ]
    case .throttle(let id, let duration, let clock, let latest, let inner):
      let scoped = ids + [id]
      if var window = windows[id] {
        if latest || window.pending == nil { window.pending = (inner, scoped, origin) }
        windows[id] = window
        return []
      }
      let started = start(inner, ids: scoped)
      nextRun += 1
      let token = nextRun
      windows[id] = Window(token: token, pending: nil)
      let closer = timer(ids: scoped) { engine, run in
        // However the timer ends (cancelled, or a window with nothing waiting), its window
        // closes, unless another window has replaced it.
        defer {
          if let engine = engine(), engine.windows[id]?.token == token { engine.windows[id] = nil }
        }
        while true {
          do { try await clock.sleep(for: duration) } catch { return }
          guard let engine = engine(), !run.cancelled, engine.windows[id]?.token == token,
            let pending = engine.windows[id]?.pending
          else { return }
          engine.windows[id]?.pending = nil
          engine.origin = pending.origin
          _ = engine.start(pending.effect, ids: pending.ids)
        }
      }
      return started + [closer]
    }
  }

  private func run(
    priority: TaskPriority?, operation: @escaping Effect<Action>.Operation, catch handler: Effect<Action>.Catch?,
    ids: [EffectID]
  ) -> Task<Void, Never> {
    let run = EffectRun()
    let send = Send<Action> { [weak self] action in
      guard let self, !run.cancelled, !Task.isCancelled else { return }
      if run.finished {
        self.diagnose(.lateSend(String(describing: action)))
        return
      }
      _ = self.send(action)
    }
    return register(ids: ids, run: run) { [weak self] number in
      Task(priority: priority) { @MainActor [weak self] in
        do {
          try await operation(send)
        } catch is CancellationError {
        } catch {
          if let handler {
            await handler(error, send)
          } else if !run.cancelled {
            self?.diagnose(.effectFailed(String(describing: error)))
          }
        }
        run.finished = true
        self?.running[number] = nil
      }
    }
  }

  /// A task of the store's own (debounce and throttle timers), registered like an effect.
  private func timer(
    ids: [EffectID], _ body: @escaping @MainActor (_ engine: () -> StoreEngine?, _ run: EffectRun) async -> Void
  ) -> Task<Void, Never> {
    let run = EffectRun()
    return register(ids: ids, run: run) { [weak self] number in
      Task { @MainActor [weak self] in
        await body({ [weak self] in self }, run)
        run.finished = true
        self?.running[number] = nil
      }
    }
  }

  private func register(ids: [EffectID], run: EffectRun, _ make: (UInt64) -> Task<Void, Never>) -> Task<Void, Never> {
    nextRun += 1
    let number = nextRun
    let task = make(number)
    // The task cannot have run yet: it needs the main actor, which this code holds.
    running[number] = Running(task: task, ids: ids, run: run, origin: origin)
    startedBySend?.append(task)
    return task
  }

  /// Cancels every effect and timer started under `id`, and its throttle window.
  func cancel(_ id: EffectID) {
    for (number, entry) in running where entry.ids.contains(id) {
      entry.run.cancelled = true
      entry.task.cancel()
      running[number] = nil
    }
    windows[id] = nil
  }

  /// The actions whose effects are still running, oldest first (for the test store).
  var inFlightOrigins: [String] {
    running.sorted { $0.key < $1.key }.map { $0.value.origin.map { String(describing: $0) } ?? "?" }
  }

  /// Cancels every running effect (the test store's `skipInFlightEffects`).
  func cancelAll() {
    for entry in running.values {
      entry.run.cancelled = true
      entry.task.cancel()
    }
    running.removeAll()
    windows.removeAll()
  }
}

/// One started effect's flags, shared by its task and its ``Send``.
@MainActor
final class EffectRun {
  var cancelled = false
  var finished = false
}
