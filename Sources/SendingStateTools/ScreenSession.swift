import Foundation
import SendingStateHeadless
import SendingStateLua
import SendingStatePlugins

/// A screen being driven by a tool: events applied in order, steps recorded, reloads that keep
/// the state.
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
  }

  /// The screen script's path.
  public let path: String
  /// Options the screen is (re)opened with.
  public private(set) var options: LuaScreen.Options
  /// The running screen.
  public private(set) var screen: LuaScreen
  /// Every event applied so far.
  public private(set) var records: [Record] = []

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
      let record = Record(event: command.description, actions: step.actions, before: step.before, after: step.after)
      records.append(record)
      return record
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

  /// How to find the screen's plugins again on reload (`nil`: keep those it opened with).
  public var plugins: PluginRequest?
  /// The plugins the last reload left out (or, with `--locked`, refused to run with), and why.
  public private(set) var pluginProblems: [PluginError] = []

  // MARK: - Effects

  /// What waiting for effects found: a step per batch of effect results, the errors those
  /// results raised, and how many effects were still running when the wait ended.
  public struct Settled: Sendable {
    /// One record per batch of effect results (`effect: tick`).
    public var records: [Record] = []
    /// Errors raised while handling effect results.
    public var errors: [ScriptError] = []
    /// Effects still running at the end of the wait (a timer that re-arms itself never ends).
    public var pending = 0
  }

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

  /// Waits up to `timeout` for the screen's effects, recording each batch of results as its own
  /// step.
  public func settle(timeout: Duration) async -> Settled {
    var settled = Settled()
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var seenActions = screen.actionLog.count
    var seenErrors = screen.asyncErrors.count
    var state = screen.state
    while true {
      if screen.actionLog.count > seenActions {
        let actions = Array(screen.actionLog[seenActions...])
        let names = actions.map(ScreenSession.actionSummary).joined(separator: ", ")
        let record = Record(event: "effect: \(names)", actions: actions, before: state, after: screen.state)
        records.append(record)
        settled.records.append(record)
        seenActions = screen.actionLog.count
        state = screen.state
      }
      if screen.asyncErrors.count > seenErrors {
        settled.errors += screen.asyncErrors[seenErrors...]
        seenErrors = screen.asyncErrors.count
      }
      guard screen.pendingEffects > 0, clock.now < deadline else { break }
      try? await Task.sleep(for: .milliseconds(1))
    }
    settled.pending = screen.pendingEffects
    return settled
  }

  // MARK: - Reports

  /// The text block of one step: the event, its actions, the state diff and the new tree.
  public func text(for record: Record) -> String {
    var lines = ["> \(record.event)"]
    let actions = record.actions.map(ScreenSession.actionSummary)
    lines.append("  actions: " + (actions.isEmpty ? "(none)" : actions.joined(separator: ", ")))
    let changes = StateDiff.lines(from: record.before, to: record.after)
    if changes.isEmpty {
      lines.append("  state: (unchanged)")
    } else {
      lines.append("  state:")
      lines += changes.map { "    " + $0 }
    }
    lines.append(tree)
    return lines.joined(separator: "\n")
  }

  /// The render tree of the screen, as text.
  public var tree: String { screen.renderTree().text }

  /// `increment` for `{ type = "increment" }`, the JSON of the action otherwise.
  static func actionSummary(_ action: LuaValue) -> String {
    if case .table(let table) = action, table.fields.count == 1, let type = table.fields["type"]?.stringValue {
      return type
    }
    return StateDiff.literal(action)
  }

  /// The JSON report: `{ "steps": [...], "state": {...}, "tree": {...}, "warnings": [...],
  /// "pending": N }` (`pending`: effects still running when the report was made).
  public func json(pending: Int = 0) -> String {
    let steps = records.map { record in
      "{\"event\":\(jsonString(record.event)),\"actions\":\(StateDiff.literal(.table(LuaTable(sequence: record.actions)))),"
        + "\"state\":\(StateDiff.literal(record.after)),\"changes\":["
        + StateDiff.lines(from: record.before, to: record.after).map(jsonString).joined(separator: ",") + "]}"
    }
    var warnings = screen.warnings
    let state: LuaValue
    do {
      state = try screen.readState()
    } catch {
      state = .nil
      warnings.append("the state cannot be shown as data: \(error)")
    }
    let warningList = warnings.map(jsonString).joined(separator: ",")
    return "{\"steps\":[\(steps.joined(separator: ","))],\"state\":\(StateDiff.literal(state)),"
      + "\"tree\":\(screen.renderTree().json),\"warnings\":[\(warningList)],\"pending\":\(pending)}"
  }
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  StateDiff.literal(.string(text))
}
