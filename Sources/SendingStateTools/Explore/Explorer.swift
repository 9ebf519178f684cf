import Foundation
import SendingStateLua

/// `sendingstate explore`: sends a screen random events a user could send (``ExploreEvents``),
/// from fresh starts, with its effects settled on a virtual clock after each, and checks after
/// every event that no script error happened and that the invariants hold. A failure is shrunk
/// to a short event list that still fails the same way, and given back as a `run` command and a
/// spec that replay it.
///
/// Deterministic: the same screen, options and seed send the same events (the time budget only
/// decides how many).
///
/// ```swift
/// var options = Explorer.Options()
/// options.invariants = ["state.count >= 0"]
/// let report = try await Explorer(path: "counter.lua", options: options).run()
/// print(report.failure?.message ?? "no failure")
/// ```
@MainActor
package final class Explorer {
  /// What to explore and for how long.
  package struct Options: Sendable {
    /// The seed of the events chosen.
    package var seed: UInt64 = 1
    /// The most events sent in all.
    package var events = 2_000
    /// The most wall-clock time spent exploring, checked before every event; shrinking a
    /// failure has as much again.
    package var time: Duration = .seconds(30)
    /// Events per run: each run starts from a fresh screen, so a failure is found in a short list.
    package var runLength = 40
    /// Lua expressions over `state` that must hold after every event (`state.count >= 0`).
    package var invariants: [String] = []
    /// A spec file whose top-level `ss.invariant([name,] fn)` calls must hold after every event.
    package var spec: String?
    /// Virtual seconds the screen's clock moves on after each event (its timers and delayed
    /// fakes fire within them).
    package var settle = 5.0
    /// The screen's options (start state, payload, plugins); its clock is replaced by a virtual one.
    package var screen = LuaScreen.Options()

    /// The defaults.
    package init() {}
  }

  /// What went wrong, after which events.
  package struct Failure: Sendable, Equatable {
    /// The events, in order; the last one is where it failed.
    package var events: [EventCommand]
    /// What failed: a script error (with file:line) or an invariant that does not hold.
    package var message: String
    /// Which check failed, as shrinking compares it: the error's place (`error at file:line`),
    /// or the invariant's text.
    package var kind: String
    /// The invariant that does not hold; nil for a script error.
    package var invariant: String?
    /// Whether that invariant is one of the spec's (``Options/spec``), not an expression.
    package var fromSpec = false
  }

  /// What an exploration did.
  package struct Report: Sendable {
    /// Runs from a fresh screen.
    package var runs = 0
    /// Events sent.
    package var events = 0
    /// Distinct states seen.
    package var distinctStates = 0
    /// The senders (view and event) that made an action, and those the screen registered.
    package var sendersReached = 0
    /// The senders seen among the candidates.
    package var sendersSeen = 0
    /// The failure found, shrunk; nil when every check held.
    package var failure: Failure?
    /// How many events the failure took before shrinking.
    package var unshrunkLength = 0
  }

  /// The screen's path.
  package let path: String
  /// The options.
  package let options: Options
  /// The most distinct states counted (each kept as a hash, not a copy).
  static let stateLimit = 1_000_000

  /// Prepares an exploration; compiles the invariants.
  ///
  /// - Throws: ``ToolError/usage(_:)`` for an invariant that does not compile (with what to write).
  package init(path: String, options: Options) throws {
    self.path = path
    self.options = options
    _ = try Explorer.invariants(options)  // (each run reads them anew: see open())
  }

  /// Explores until a failure, the event budget or the time budget; `progress` gets a line
  /// about once a second.
  package func run(progress: (String) -> Void = { _ in }) async throws -> Report {
    var report = Report()
    var random = ExploreRandom(seed: options.seed)
    var states = Set<Int>()
    var reached = Set<String>()
    var seen = Set<String>()
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + options.time
    var lastProgress = start
    func remember(_ state: LuaValue) {
      if states.count < Self.stateLimit { states.insert(state.hashValue) }
    }
    runs: while report.events < options.events, clock.now < deadline {
      report.runs += 1
      let (screen, checks) = try open()
      defer { screen.close() }
      remember(screen.state)
      var sent: [EventCommand] = []
      if let broken = checks.broken(by: screen.state, on: screen) {
        // The start state already breaks it: no event to blame.
        report.failure = Failure(
          events: [], message: "at the start: " + broken.message, kind: broken.text, invariant: broken.text,
          fromSpec: checks.specNames.contains(broken.text))
        break
      }
      if report.runs == 1 { try Self.checkReachable(screen, random: random) }
      for _ in 0..<options.runLength where report.events < options.events {
        guard clock.now < deadline else { break runs }
        let candidates = ExploreEvents.candidates(on: screen, random: &random)
        for candidate in candidates { seen.insert(Self.sender(candidate)) }
        guard let command = random.element(of: candidates) else { break }
        sent.append(command)
        report.events += 1
        let outcome = await step(command, on: screen, checks: checks, until: deadline)
        if case .failed(let failure) = outcome {
          report.unshrunkLength = sent.count
          var found = failure
          found.events = sent
          report.failure = await shrink(found, until: clock.now + options.time)
          break runs
        }
        if case .acted = outcome { reached.insert(Self.sender(command)) }
        remember(screen.state)
        if clock.now - lastProgress >= .seconds(1) {
          lastProgress = clock.now
          let elapsed = clock.now - start
          let seconds = Double(elapsed.components.seconds) + 1e-18 * Double(elapsed.components.attoseconds)
          progress(
            "explore: \(report.events) events (\(Int(Double(report.events) / max(seconds, 0.001)))/s), "
              + "\(states.count) distinct states, \(reached.count) of \(seen.count) senders reached")
        }
      }
    }
    report.distinctStates = states.count
    report.sendersReached = reached.count
    report.sendersSeen = seen.count
    return report
  }

  /// Refuses a screen that offers a user nothing to do at its start (after its start state was
  /// checked): every run would end before its first event, so exploring would only start empty
  /// runs until its time was out. The usual cause is a screen whose views come from a payload it
  /// was not given.
  private static func checkReachable(_ screen: LuaScreen, random: ExploreRandom) throws {
    var probe = random  // (a copy: the exploration's own sequence is not moved)
    guard ExploreEvents.candidates(on: screen, random: &probe).isEmpty else { return }
    throw ToolError.usage(
      "\(screen.path) offers nothing a user can reach at its start: no enabled, visible view has an event registered with "
        + "on(...); if its views come from a server payload, give it with --data FILE or URL")
  }

  private enum Outcome {
    case acted, quiet, skipped
    case failed(Failure)
  }

  /// A fresh screen on a virtual clock, and the invariants in a runtime of their own (fresh for
  /// each run and replay, as `run --invariant` has: what one invariant stores in a global lasts
  /// one run).
  private func open() throws -> (LuaScreen, Invariants) {
    var screenOptions = options.screen
    screenOptions.clock = VirtualClock()
    // Offline: every fetch fails at once, the same way on every run (the network's answers and
    // their timing would make a failure unrepeatable); `run --offline` and the spec do the same.
    screenOptions.fetcher = FakeFetcher([:])
    // The screen's math.random from the seed too (the same for every run and replay).
    screenOptions.randomSeed = Self.screenSeed(options.seed)
    do {
      return (try LuaScreen(path: path, options: screenOptions), try Explorer.invariants(options))
    } catch {
      throw ToolError.from(error)
    }
  }

  /// The invariants of `options`, in a runtime seeded like the screen and printing where it prints.
  private static func invariants(_ options: Options) throws -> Invariants {
    try Invariants(options.invariants, spec: options.spec, randomSeed: screenSeed(options.seed),
      output: options.screen.output ?? { Console.line($0, to: .errors) })
  }

  /// Sends one event, settles the clock, checks (the invariants stop at `deadline`): what it
  /// came to (a failure's `events` are left to the caller).
  private func step(
    _ command: EventCommand, on screen: LuaScreen, checks: Invariants, until deadline: ContinuousClock.Instant
  ) async -> Outcome {
    let errorsBefore = screen.asyncErrorCount
    let acted: Bool
    do {
      acted = !(try command.apply(to: screen).actions.isEmpty)
      try await screen.advance(by: options.settle)
    } catch let error as ScriptError {
      return .failed(Self.failure(error, after: command))
    } catch {
      return .skipped  // a usage error: the event no longer applies (shrinking removed what it needed)
    }
    if screen.asyncErrorCount > errorsBefore, let error = screen.asyncErrors.last {
      var failure = Self.failure(error, after: command)
      failure.message = "an effect's result failed: " + failure.message
      return .failed(failure)
    }
    if let broken = checks.broken(by: screen.state, on: screen, until: deadline) {
      return .failed(
        Failure(
          events: [], message: "after \(command): " + broken.message, kind: broken.text, invariant: broken.text,
          fromSpec: checks.specNames.contains(broken.text)))
    }
    return acted ? .acted : .quiet
  }

  private static func failure(_ error: ScriptError, after command: EventCommand) -> Failure {
    let place = error.chunk.map { "\($0):\(error.line.map(String.init) ?? "?")" } ?? String(error.message.prefix(80))
    return Failure(
      events: [], message: "script error after \(command): \(ReportText.cut(error.description, limit: 4_000))",
      kind: "error at " + place, invariant: nil)
  }

  /// Whether `events` from a fresh screen fail the way `kind` says, each one applying (as `run`
  /// needs them to); the failure if so.
  private func replay(_ events: [EventCommand], kind: String, until deadline: ContinuousClock.Instant) async -> Failure? {
    guard let (screen, checks) = try? open() else { return nil }
    defer { screen.close() }
    for (offset, command) in events.enumerated() {
      guard ContinuousClock.now < deadline else { return nil }
      switch await step(command, on: screen, checks: checks, until: deadline) {
      case .failed(var failure):
        guard failure.kind == kind else { return nil }
        failure.events = Array(events[...offset])
        return failure
      case .skipped: return nil
      case .acted, .quiet: continue
      }
    }
    return nil
  }

  /// The most replays one shrink makes.
  static let shrinkReplays = 2_000

  /// Removes events while the rest still fails the same way: chunks of halving size, then one
  /// at a time (delta debugging's complement step); stops at `deadline` with the shortest so far.
  private func shrink(_ failure: Failure, until deadline: ContinuousClock.Instant) async -> Failure {
    var best = failure
    var replays = 0
    var chunk = max(1, best.events.count / 2)
    let clock = ContinuousClock()
    func more() -> Bool { replays < Self.shrinkReplays && clock.now < deadline }
    while chunk >= 1, more() {
      var index = 0
      var removed = false
      while index < best.events.count, more() {
        var candidate = best.events
        candidate.removeSubrange(index..<min(index + chunk, candidate.count))
        replays += 1
        if let smaller = await replay(candidate, kind: best.kind, until: deadline) {
          best = smaller
          removed = true
        } else {
          index += chunk
        }
      }
      if !removed { chunk /= 2 }
    }
    return best
  }

  /// The seed of the screen's `math.random` for an exploration's seed (the replay command and
  /// spec pass the same).
  nonisolated package static func screenSeed(_ seed: UInt64) -> Int64 { Int64(bitPattern: seed) }

  /// `id event` of a command (the row's list for a row), for counting senders.
  static func sender(_ command: EventCommand) -> String {
    switch command {
    case .tap(let id): "\(id) tap"
    case .send(let id, let event): "\(id) \(event)"
    case .set(let id, _): "\(id) set"
    case .type(let id, _): "\(id) type"
    case .gesture(let id, let kind, _): "\(id) \(kind)"
    case .row(let list, _, let inner): "\(list) row \(sender(inner))"
    }
  }
}
