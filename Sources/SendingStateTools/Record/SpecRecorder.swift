import Foundation
import SendingStateLua

/// A session written down as a busted spec while it runs (`sendingstate run --record FILE`): the
/// spec opens the screen as the session did, replays each EVENT, and asserts what was observed
/// exhaustively with the test store — the whole state after each event, each action that came
/// from effects received with the change it made, the virtual clock advanced as it was. It passes
/// under `sendingstate test` at once and fails when the screen's behaviour changes.
///
/// The session must be deterministic for that: a virtual clock (starting at 0), a seeded
/// `math.random`, and fetches that fail at once (`fetch = {}` in the spec, `--offline` in `run`).
///
/// ```swift
/// let recorder = SpecRecorder(screen: session.screen, opening: .init(screen: "counter.lua", randomSeed: 1))
/// recorder.applied(command, to: session.screen)   // after each event
/// recorder.advanced(by: 5, screen: session.screen) // after each settle
/// try recorder.spec(pending: session.screen.pendingEffects).write(toFile: "spec/counter_spec.lua", atomically: true, encoding: .utf8)
/// ```
@MainActor
package final class SpecRecorder {
  /// How the spec opens the screen.
  package struct Opening: Sendable {
    /// The screen's path as the spec names it (beside the spec, or from the project root).
    package var screen: String
    /// The start state given instead of the script's, if any.
    package var state: LuaValue?
    /// The payload's path, if any.
    package var data: String?
    /// Plugin folders.
    package var plugins: [String] = []
    /// The seed of the screen's `math.random`.
    package var randomSeed: Int64

    /// An opening of `screen`.
    package init(screen: String, state: LuaValue? = nil, data: String? = nil, plugins: [String] = [], randomSeed: Int64) {
      self.screen = screen
      self.state = state
      self.data = data
      self.plugins = plugins
      self.randomSeed = randomSeed
    }
  }

  /// The most bytes of spec the recorder writes (its lines are the only copy it keeps): past
  /// them it stops recording, and the spec ends where it stopped, saying so.
  package static let maxBytes = 8 << 20

  private let opening: Opening
  private var lines: [String] = []
  private var bytes = 0
  /// The state as the spec has asserted it so far.
  private var mirror: LuaValue
  /// Steps committed since the last look: their actions and the state after.
  private var committed: [(actions: [LuaValue], state: LuaValue)] = []
  private var committedBytes = 0
  /// Why recording stopped, if it did.
  package private(set) var stopped: String?
  /// EVENTs recorded.
  package private(set) var events = 0

  /// Starts recording `screen` (just opened): its start state is asserted first.
  package init(screen: LuaScreen, opening: Opening) {
    self.opening = opening
    mirror = screen.state
    screen.onCommittedEvent = { [weak self, weak screen] actions in
      guard let self, let screen, self.stopped == nil else { return }
      let state = screen.state
      self.committedBytes += actions.reduce(state.estimatedBytes) { $0 + $1.estimatedBytes }
      if self.committedBytes > Self.maxBytes {
        self.stop("the effects' results since the last event passed \(Self.maxBytes >> 20) MiB")
        return
      }
      self.committed.append((actions, state))
    }
    append("  local state = " + LuaSource.literal(mirror))
    append("  assert.are.same(state, screen.state)")
    append("  screen:skip_received()  -- (exhaustive from here: every action from an effect must be received)")
  }

  /// Records `command`, just applied to `screen`: the call, then the state's changes and an
  /// exhaustive assertion.
  package func applied(_ command: EventCommand, to screen: LuaScreen) {
    // (The event's own step is sent, not received.)
    committed.removeAll()
    committedBytes = 0
    guard stopped == nil else { return }
    events += 1
    append("  " + LuaSource.call(command, on: "screen"))
    for change in Self.changes(from: mirror, to: screen.state, on: "state") { append("  " + change) }
    append("  assert.are.same(state, screen.state)")
    mirror = screen.state
  }

  /// Records that the screen's virtual clock moved on `seconds`, and the actions effects
  /// dispatched meanwhile, each received with the change its step made.
  package func advanced(by seconds: Double, screen: LuaScreen) {
    let steps = committed
    committed.removeAll()
    committedBytes = 0
    guard stopped == nil else { return }
    append("  screen:advance(\(ExploreEvents.number(seconds)))")
    for step in steps {
      for (offset, action) in step.actions.enumerated() {
        let shown = Self.action(action)
        guard offset == step.actions.count - 1 else {
          append("  screen:receive(\(shown))")
          continue
        }
        let changes = Self.changes(from: mirror, to: step.state, on: "s")
        if changes.isEmpty {
          append("  screen:receive(\(shown))")
        } else {
          append("  screen:receive(\(shown), function(s)")
          for change in changes { append("    " + change) }
          append("  end)")
          for change in Self.changes(from: mirror, to: step.state, on: "state") { append("  " + change) }
        }
        mirror = step.state
      }
    }
    if !steps.isEmpty { append("  assert.are.same(state, screen.state)") }
  }

  /// The spec: one test that replays the session; `pending` effects still running at its end
  /// are let go (`skip_in_flight`), so it ends with `finish()`.
  package func spec(pending: Int, command: String? = nil) -> String {
    var options = ["clock = 0", "fetch = {}", "random_seed = \(opening.randomSeed)"]
    if let state = opening.state { options.append("state = " + LuaSource.literal(state)) }
    if let data = opening.data { options.append("data = " + LuaSource.quoted(data)) }
    if !opening.plugins.isEmpty { options.append("plugins = { " + opening.plugins.map(LuaSource.quoted).joined(separator: ", ") + " }") }
    var text = [
      "-- Recorded by `sendingstate run --record`" + (command.map { ": " + LuaSource.commentText($0) } ?? "") + ".",
      "-- It replays the session and asserts every state it saw and every action effects dispatched,",
      "-- so it fails when the screen's behaviour changes. Edit it as any spec.",
      "local ss = require \"sendingstate\"",
      "",
      "it(\(LuaSource.quoted("replays a session of " + opening.screen)), function()",
      "  local screen = ss.open(\(LuaSource.quoted(opening.screen)), { \(options.joined(separator: ", ")) })",
    ]
    text += lines
    if let stopped {
      text.append("  -- The recording stopped here: \(LuaSource.commentText(stopped)).")
      text.append("  screen:skip_received()")
      text.append("  screen:skip_in_flight()")
    } else if pending > 0 {
      text.append("  screen:skip_in_flight()  -- (\(pending) effect(s) were still running when the session ended)")
    }
    text.append("  screen:finish()")
    text.append("end)")
    return text.joined(separator: "\n") + "\n"
  }

  private func append(_ line: String) {
    guard stopped == nil else { return }
    bytes += line.utf8.count + 1
    if bytes > Self.maxBytes {
      stop("the spec passed \(Self.maxBytes >> 20) MiB")
      return
    }
    lines.append(line)
  }

  private func stop(_ reason: String) {
    if stopped == nil { stopped = reason }
    committed.removeAll()
    committedBytes = 0
  }

  /// An action as `receive` takes it: `"tick"` for `{ type = "tick" }` alone.
  static func action(_ action: LuaValue) -> String {
    if case .table(let table) = action, table.sequence.isEmpty, table.fields.count == 1, let type = table.fields["type"]?.stringValue {
      return LuaSource.quoted(type)
    }
    return LuaSource.literal(action)
  }

  /// Assignments that turn `old` into `new`, one a top-level key (`state.count = 1`,
  /// `state["a b"] = nil`, `state[2] = "x"`); a key whose value differs anywhere inside is
  /// assigned whole.
  static func changes(from old: LuaValue, to new: LuaValue, on name: String) -> [String] {
    guard case .table(let before) = old, case .table(let after) = new else {
      return old == new ? [] : ["\(name) = \(LuaSource.literal(new))"]
    }
    var result: [String] = []
    for index in (after.sequence.count..<max(before.sequence.count, after.sequence.count)).reversed() {
      result.append("\(name)[\(index + 1)] = nil")
    }
    for index in 0..<after.sequence.count where index >= before.sequence.count || before.sequence[index] != after.sequence[index] {
      result.append("\(name)[\(index + 1)] = \(LuaSource.literal(after.sequence[index]))")
    }
    for key in Set(before.fields.keys).union(after.fields.keys).sorted() where before.fields[key] != after.fields[key] {
      let target = LuaSource.key(key).hasPrefix("[") ? "\(name)\(LuaSource.key(key))" : "\(name).\(key)"
      result.append("\(target) = \(after.fields[key].map(LuaSource.literal) ?? "nil")")
    }
    return result
  }
}
