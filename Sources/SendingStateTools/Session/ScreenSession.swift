import Foundation
import SendingStateHeadless
import SendingStateLua
import SendingStatePlugins

/// A screen being driven by a tool: events applied in order, each step handed back as a
/// ``Record`` to report at once, reloads that keep the state.
///
/// The session keeps no step after handing it back (``stepCount`` counts them): a record holds
/// two copies of the state, so even a short history of them could hold hundreds of MiB for a
/// screen with a large state, and `run` and `repl` report each step as it happens.
///
/// ```swift
/// let session = try ScreenSession(path: "examples/counter/counter.lua")
/// let step = try session.apply(try EventCommand(parsing: "tap plus"))
/// print(session.text(for: step))
/// ```
@MainActor
public final class ScreenSession {
  /// One applied event.
  public struct Record: Sendable {
    /// The event as typed.
    public var event: String
    /// The actions it dispatched.
    public var actions: [LuaValue]
    /// The state before and after.
    public var before: LuaValue
    /// The state after.
    public var after: LuaValue
    /// Why the event did nothing, or less than it might (``LuaScreen/Step/why``).
    public var why: [String] = []
  }

  /// The screen script's path.
  public let path: String
  /// Options the screen is (re)opened with.
  public private(set) var options: LuaScreen.Options
  /// The running screen.
  public private(set) var screen: LuaScreen
  /// How many steps (events, batches of effect results) were applied so far.
  public private(set) var stepCount = 0

  /// Opens the screen (with `options`; `plugins` says how to find its plugins again on
  /// reload).
  ///
  /// - Throws: ``ToolError``: usage for a missing file, script for a fault in the script.
  public init(path: String, options: LuaScreen.Options = .init(), plugins: PluginRequest? = nil) throws {
    self.path = path
    self.options = options
    self.plugins = plugins
    try ScriptPath.check(path, role: "screen")
    do {
      screen = try LuaScreen(path: path, options: options)
    } catch {
      throw ToolError.from(error)
    }
  }

  /// Applies one event and records it.
  @discardableResult
  public func apply(_ command: EventCommand) throws -> Record {
    do {
      let step = try command.apply(to: screen)
      stepCount += 1
      return Record(event: command.description, actions: step.actions, before: step.before, after: step.after, why: step.why)
    } catch {
      throw ToolError.from(error)
    }
  }

  /// Reopens the script with the current state. If the new script fails to load, the old screen
  /// keeps running and the error is thrown. The old screen is closed, so none of its callbacks or
  /// effects fire afterwards.
  ///
  /// With ``plugins`` set, the plugins are found and checked again first: one removed since is
  /// unloaded, one changed is read anew (``pluginProblems`` says which were left out).
  public func reload() throws {
    var reopened = options
    if let plugins {
      let set = plugins.load(screen: path)
      pluginProblems = set.problems
      if plugins.requireLock, let problem = set.problems.first {
        throw ToolError.usage("--locked: \(problem)")
      }
      set.apply(to: &reopened)
    }
    let fresh: LuaScreen
    do {
      reopened.state = try screen.readState()
      fresh = try LuaScreen(path: path, options: reopened)
    } catch {
      throw ToolError.from(error)
    }
    screen.close()
    screen = fresh
    options = reopened
  }

  /// Reopens the script with the current state and options changed by `change` (the old
  /// screen closed, as by ``reload()``; its pending effects are dropped): how the preview starts
  /// a recording on a clock it drives. If the screen fails to open, the old one keeps running.
  ///
  /// With `state`, the screen opens with that state instead of its current one (the preview's
  /// restore of a past moment), validated as any start state is: a state the script no longer
  /// accepts is an error, and the old screen keeps running.
  package func restart(state: LuaValue? = nil, changing change: (inout LuaScreen.Options) -> Void = { _ in }) throws {
    var reopened = options
    change(&reopened)
    let fresh: LuaScreen
    do {
      reopened.state = try state ?? screen.readState()
      fresh = try LuaScreen(path: path, options: reopened)
    } catch {
      throw ToolError.from(error)
    }
    screen.close()
    screen = fresh
    options = reopened
  }

  /// How to find the screen's plugins again on reload (`nil`: keep those it opened with).
  public var plugins: PluginRequest?
  /// The plugins the last reload left out (or, with `--locked`, refused to run with), and why.
  public private(set) var pluginProblems: [PluginError] = []

  // MARK: - Effects

  /// What waiting for effects found besides its steps: the errors effect results raised (the
  /// first ``errorLimit``, and how many more), and how many effects were still running when
  /// the wait ended.
  public struct Settled: Sendable {
    /// How many batches of effect results were handed on as steps.
    public var steps = 0
    /// The first errors raised while handling effect results.
    public var errors: [ScriptError] = []
    /// How many more errors were raised than ``errors`` holds.
    public var moreErrors = 0
    /// Effects still running at the end of the wait (a timer that re-arms itself never ends).
    public var pending = 0
  }

  /// The most effect errors one wait keeps (a timer that re-arms itself and fails each time
  /// would otherwise pile them up); the rest are counted.
  nonisolated public static let errorLimit = 20

  /// The default wait for effects after each event, in seconds (`run --settle`).
  nonisolated public static let defaultSettle = 5.0

  /// The waits for effects accepted, in seconds: up to a day (a NaN is outside it too).
  nonisolated public static let settleRange: ClosedRange<Double> = 0...86_400

  /// `seconds` (clamped to ``settleRange``; a NaN is 0) as a duration, without a conversion
  /// that could trap.
  nonisolated public static func duration(seconds: Double) -> Duration {
    let clamped = seconds.isNaN ? 0 : min(max(seconds, settleRange.lowerBound), settleRange.upperBound)
    return .milliseconds(Int64((clamped * 1000).rounded()))
  }

  /// Waits up to `timeout` for the screen's effects, handing each batch of results to `each` as
  /// its own step as soon as it is seen (nothing is collected: a timer that re-arms itself makes
  /// steps for as long as the wait lasts).
  public func settle(timeout: Duration, each: (Record) -> Void) async -> Settled {
    var settled = Settled()
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var seen = (actions: screen.actionCount, errors: screen.asyncErrorCount, state: screen.state)
    while true {
      collect(since: &seen, into: &settled, each: each)
      guard screen.pendingEffects > 0, clock.now < deadline else { break }
      try? await Task.sleep(for: .milliseconds(1))
    }
    settled.pending = screen.pendingEffects
    return settled
  }

  /// On a ``VirtualClock`` (``LuaScreen/Options/clock``): moves it on by `seconds` at once, so
  /// every timer and delayed fake due by then fires in time order, and hands what they did to
  /// `each` as one step.
  ///
  /// - Throws: ``ToolError`` when the screen runs on another clock, or too many timers fire.
  package func settleVirtually(seconds: Double, each: (Record) -> Void) async throws -> Settled {
    var settled = Settled()
    var seen = (actions: screen.actionCount, errors: screen.asyncErrorCount, state: screen.state)
    do {
      try await screen.advance(by: seconds)
    } catch {
      throw ToolError.from(error)
    }
    collect(since: &seen, into: &settled, each: each)
    settled.pending = screen.pendingEffects
    return settled
  }

  /// The actions and errors since `seen`: the actions as one step for `each`, the errors
  /// (within ``errorLimit``) into `settled`.
  private func collect(
    since seen: inout (actions: Int, errors: Int, state: LuaValue), into settled: inout Settled, each: (Record) -> Void
  ) {
    if screen.actionCount > seen.actions {
      // (The screen's log keeps the most recent actions only: what came since is taken by count.)
      let actions = screen.actions(since: seen.actions)
      let record = Record(
        event: "effect: \(ScreenSession.summaries(of: actions))", actions: actions, before: seen.state, after: screen.state)
      seen.actions = screen.actionCount
      seen.state = record.after
      stepCount += 1
      settled.steps += 1
      each(record)
    }
    if screen.asyncErrorCount > seen.errors {
      let new = screen.asyncErrorCount - seen.errors
      let kept = screen.asyncErrors.suffix(min(new, screen.asyncErrors.count))
      for error in kept {
        if settled.errors.count < ScreenSession.errorLimit {
          settled.errors.append(error)
        } else {
          settled.moreErrors += 1
        }
      }
      // (Errors the screen's log no longer keeps are counted too.)
      settled.moreErrors += new - kept.count
      seen.errors = screen.asyncErrorCount
    }
  }

  // MARK: - Reports

  /// The text block of one step: the event, its actions, why it did nothing (with `why`), the
  /// state diff and the new tree (within ``ReportText``'s budget).
  public func text(for record: Record, why: Bool = false) -> String {
    var block = ReportText()
    block.append("> " + ReportText.cut(record.event))
    block.append("\n  actions: " + (record.actions.isEmpty ? "(none)" : ScreenSession.summaries(of: record.actions)))
    if why {
      for reason in record.why { block.append("\n  why: " + ReportText.cut(reason)) }
    }
    let changes = StateDiff.lines(from: record.before, to: record.after)
    if changes.isEmpty {
      block.append("\n  state: (unchanged)")
    } else {
      block.append("\n  state:")
      for change in changes { block.append("\n    " + change) }
    }
    block.append("\n")
    block.appendTree(screen.renderTree())
    return block.text
  }

  /// The render tree of the screen, as text (within ``ReportText``'s budget).
  public var tree: String {
    var block = ReportText()
    block.appendTree(screen.renderTree())
    return block.text
  }

  /// The most bytes of one action's summary, and of a step's list of them.
  nonisolated static let summaryLimit = 1 << 10
  nonisolated static let summariesLimit = 64 << 10

  /// The actions' summaries, comma-separated, within ``summariesLimit`` bytes (then how many
  /// more there were).
  package static func summaries(of actions: [LuaValue]) -> String {
    var text = ""
    for (offset, action) in actions.enumerated() {
      if text.utf8.count >= summariesLimit {
        return text + ", … \(actions.count - offset) more"
      }
      text += (offset > 0 ? ", " : "") + actionSummary(action)
    }
    return text
  }

  /// `increment` for `{ type = "increment" }`, bounded JSON of the action otherwise.
  package static func actionSummary(_ action: LuaValue) -> String {
    if case .table(let table) = action, table.fields.count == 1, let type = table.fields["type"]?.stringValue {
      return ReportText.cut(type, limit: summaryLimit)
    }
    return ReportText.literal(action, limit: summaryLimit, valueLimit: summaryLimit)
  }

  // MARK: - The JSON report, streamed

  /// The start of the JSON report. The report is written in pieces, each step as it happens:
  /// ``jsonStart``, ``json(step:)`` for each step (separated by commas), ``jsonEnd(pending:)``;
  /// together `{ "steps": [...], "state": {...}, "tree": {...}, "warnings": [...], "pending": N }`
  /// (`pending`: effects still running at the end). Each piece is one ``ReportText`` block.
  nonisolated public static let jsonStart = "{\"steps\":["

  /// One step of the JSON report: `{"event", "actions", "state", "changes"}`, and `"why"` (a
  /// list of reasons, empty when the event did what it could) with `why`.
  public func json(step record: Record, why: Bool = false) -> String {
    var block = ReportText()
    block.append("{\"event\":")
    block.appendQuoted(record.event)
    block.append(",\"actions\":")
    block.appendValue(.table(LuaTable(sequence: record.actions)))
    block.append(",\"state\":")
    block.appendValue(record.after)
    block.append(",\"changes\":[")
    let changes = StateDiff.lines(from: record.before, to: record.after)
    block.append(changes.map { ReportText.quoted($0, limit: StateDiff.lineBudget) }.joined(separator: ","))
    block.append("]")
    if why {
      block.append(",\"why\":[")
      block.append(record.why.map { ReportText.quoted($0) }.joined(separator: ","))
      block.append("]")
    }
    block.append("}")
    return block.text
  }

  /// The end of the JSON report — the state, the tree, the warnings and `pending` (and `error`,
  /// when an event failed) — handed to `write` in pieces (one block each, so the three are
  /// never in memory at once).
  public func jsonEnd(pending: Int, error failure: String? = nil, write: (String) -> Void) {
    var warnings = screen.warnings
    var state = ReportText()
    do {
      state.appendValue(try screen.readState())
    } catch {
      state.append("null")
      warnings.append("the state cannot be shown as data: \(error)")
    }
    if state.leftOut > 0 {
      warnings.append("the state was cut at the report's \(state.limitText) budget: \(state.leftOut) items left out")
    }
    write("],\"state\":" + state.text)
    state = ReportText()
    var tree = ReportText()
    tree.appendTreeJSON(screen.renderTree())
    if tree.leftOut > 0 {
      warnings.append("the tree was cut at the report's \(tree.limitText) budget: \(tree.leftOut) views left out")
    }
    write(",\"tree\":" + tree.text)
    tree = ReportText()
    var list = ReportText()
    for (offset, warning) in warnings.enumerated() {
      let separator = offset > 0 ? "," : ""
      if list.isFull {
        list.append(separator + "\"… \(warnings.count - offset) more warnings left out\"")
        break
      }
      list.append(separator + ReportText.quoted(warning))
    }
    let error = failure.map { ",\"error\":" + ReportText.quoted($0) } ?? ""
    write(",\"warnings\":[" + list.text + "],\"pending\":\(pending)\(error)}")
  }
}
