import Foundation
import SendingStateLua

/// A session written down as a busted spec while it runs (`sendingstate run --record FILE`, the
/// preview's Record): the spec opens the screen as the session did, replays each EVENT, and
/// asserts what was observed exhaustively with the test store — the whole state after each event
/// (`screen:assert_state`, numbers' subtypes included), each action that came from effects
/// received with the change it made, the virtual clock advanced as it was. It passes under
/// `sendingstate test` at once and fails when the screen's behaviour changes.
///
/// The session must be deterministic for that: a virtual clock (starting at 0), a seeded
/// `math.random`, and fetches that fail at once (`fetch = {}` in the spec, `--offline` in `run`).
/// The recorder keeps only the lines it wrote and the last state it asserted: each step is
/// turned into lines as it commits.
///
/// ```swift
/// let recorder = SpecRecorder(screen: session.screen, opening: .init(screen: "counter.lua", randomSeed: 1))
/// recorder.willApply()
/// let record = try session.apply(command)
/// recorder.applied(command, to: session.screen)
/// recorder.advanced(by: 5, screen: session.screen)  // after each settle of the virtual clock
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

  /// The most bytes of spec the recorder writes by default: past them it stops recording, and
  /// the spec ends where it stopped, saying so.
  package static let maxBytes = 8 << 20

  /// The first line of every spec it writes (`run --record` overwrites only such a file).
  package static let signature = "-- Recorded by sendingstate"

  private let opening: Opening
  /// The most bytes of spec this recorder writes.
  package let maxBytes: Int
  private var lines: [String] = []
  private var bytes = 0
  /// The state as the spec has asserted it so far.
  private var mirror: LuaValue
  /// Lines for actions effects dispatched since the clock's last written move (written after
  /// that move), and whether an event is being applied (its own step is sent, not received).
  private var received: [String] = []
  private var receivedBytes = 0
  private var applying = false
  /// Seconds the clock moved since the last line that advanced it (written when something
  /// happens after them: an event, an action received, the end).
  private var unwrittenAdvance = 0.0
  /// Why recording stopped, if it did.
  package private(set) var stopped: String?
  /// EVENTs recorded.
  package private(set) var events = 0

  /// Starts recording `screen` (just opened): its start state is asserted first; at most
  /// `maxBytes` of spec are written. An observer of the screen's steps set before stays one.
  package init(screen: LuaScreen, opening: Opening, maxBytes: Int = SpecRecorder.maxBytes) {
    self.opening = opening
    self.maxBytes = maxBytes
    mirror = .nil
    bytes = SpecRecorder.header(opening, command: nil).utf8.count
    let previous = screen.onCommittedEvent
    screen.onCommittedEvent = { [weak self, weak screen] actions in
      previous?(actions)
      guard let self, let screen else { return }
      self.committed(actions, screen: screen)
    }
    guard let start = state(of: screen) else { return }
    mirror = start
    write([
      "  local state = " + LuaSource.literal(start),
      "  screen:assert_state(state)",
      "  screen:skip_received()  -- (exhaustive from here: every action from an effect must be received)",
    ])
  }

  /// Call before applying an EVENT: the step it commits is sent, not received.
  package func willApply() { applying = true }

  /// Records `command`, just applied to `screen`: the call, then the state's changes and an
  /// exhaustive assertion.
  package func applied(_ command: EventCommand, to screen: LuaScreen) {
    applying = false
    guard stopped == nil, let after = state(of: screen) else { return }
    events += 1
    var unit = advanceLines()
    unit.append("  " + LuaSource.call(command, on: "screen"))
    unit += Self.changes(from: mirror, to: after, on: "state").map { "  " + $0 }
    unit.append("  screen:assert_state(state)")
    if write(unit) { mirror = after }
  }

  /// Records `command`, which just failed on `screen` (its state unchanged): the spec expects
  /// the same failure.
  package func failed(_ command: EventCommand, on screen: LuaScreen) {
    applying = false
    guard stopped == nil, let after = state(of: screen) else { return }
    events += 1
    var unit = advanceLines()
    unit.append("  assert.has_error(function() \(LuaSource.call(command, on: "screen")) end)")
    unit += Self.changes(from: mirror, to: after, on: "state").map { "  " + $0 }
    unit.append("  screen:assert_state(state)")
    if write(unit) { mirror = after }
  }

  /// Records that the screen's virtual clock moved on `seconds`, with the actions effects
  /// dispatched meanwhile. Moves with nothing received are written as one
  /// (`screen:advance(2.5)`) before what comes next.
  package func advanced(by seconds: Double, screen: LuaScreen) {
    guard stopped == nil else { return }
    unwrittenAdvance += seconds
    guard !received.isEmpty else { return }
    write(advanceLines())
  }

  /// The spec: one test that replays the session; `pending` effects still running at its end
  /// are let go (`skip_in_flight`), so it ends with `finish()`. `command` is named in its
  /// first line.
  package func spec(pending: Int, command: String? = nil) -> String {
    var text = [Self.header(opening, command: command)]
    text += lines
    if stopped == nil, unwrittenAdvance > 0 { text.append("  screen:advance(\(Self.seconds(unwrittenAdvance)))") }
    if let stopped {
      text.append("  -- The recording stopped here: \(LuaSource.commentText(stopped)).")
      text.append("  screen:skip_received()")
      text.append("  screen:skip_in_flight()")
    } else if pending > 0 || !received.isEmpty {
      // (Actions that came after the clock's last recorded move belong to moves not recorded.)
      text.append("  screen:skip_received()")
      text.append("  screen:skip_in_flight()  -- (effects still running when the session ended)")
    }
    text.append("  screen:finish()")
    text.append("end)")
    return text.joined(separator: "\n") + "\n"
  }

  private static func header(_ opening: Opening, command: String?) -> String {
    var options = ["clock = 0", "fetch = {}", "random_seed = \(opening.randomSeed)"]
    if let state = opening.state { options.append("state = " + LuaSource.literal(state)) }
    if let data = opening.data { options.append("data = " + LuaSource.quoted(data)) }
    if !opening.plugins.isEmpty { options.append("plugins = { " + opening.plugins.map(LuaSource.quoted).joined(separator: ", ") + " }") }
    return [
      signature + (command.map { ": " + LuaSource.commentText($0) } ?? " in the preview") + ".",
      "-- It replays the session and asserts every state it saw and every action effects dispatched,",
      "-- so it fails when the screen's behaviour changes. Edit it as any spec.",
      "local ss = require \"sendingstate\"",
      "",
      "it(\(LuaSource.quoted("replays a session of " + opening.screen)), function()",
      "  local screen = ss.open(\(LuaSource.quoted(opening.screen)), { \(options.joined(separator: ", ")) })",
    ].joined(separator: "\n")
  }

  /// A step the screen committed: while an event applies, its own (not received); otherwise
  /// actions effects dispatched, each to be received, the last with the step's change.
  private func committed(_ actions: [LuaValue], screen: LuaScreen) {
    guard !applying, stopped == nil, let after = state(of: screen) else { return }
    var unit: [String] = []
    for (offset, action) in actions.enumerated() {
      let shown = Self.action(action)
      let changes = offset == actions.count - 1 ? Self.changes(from: mirror, to: after, on: "s") : []
      if changes.isEmpty {
        unit.append("  screen:receive(\(shown))")
      } else {
        unit.append("  screen:receive(\(shown), function(s)")
        unit += changes.map { "    " + $0 }
        unit.append("  end)")
        unit += Self.changes(from: mirror, to: after, on: "state").map { "  " + $0 }
      }
    }
    let size = unit.reduce(0) { $0 + $1.utf8.count + 1 }
    guard bytes + receivedBytes + size <= maxBytes else {
      stop("the spec passed \(Self.size(maxBytes))")
      return
    }
    received += unit
    receivedBytes += size
    mirror = after
  }

  /// The screen's state as data; stops recording when it cannot be read as data.
  private func state(of screen: LuaScreen) -> LuaValue? {
    do {
      return try screen.readState()
    } catch {
      stop("the state could not be read as data: \(error.message)")
      return nil
    }
  }

  /// The clock's unwritten move, then the actions received since (after an advance, even of
  /// 0, which delivers them in the spec), asserted.
  private func advanceLines() -> [String] {
    var unit: [String] = []
    if unwrittenAdvance > 0 || !received.isEmpty { unit.append("  screen:advance(\(Self.seconds(unwrittenAdvance)))") }
    if !received.isEmpty {
      unit += received
      unit.append("  screen:assert_state(state)")
      received = []
      receivedBytes = 0
    }
    return unit
  }

  /// Appends `unit` whole (a call with its assertions, a receive with its function), or stops
  /// recording before it when it would pass ``maxBytes``: the spec stays a whole program.
  @discardableResult
  private func write(_ unit: [String]) -> Bool {
    guard stopped == nil else { return false }
    let size = unit.reduce(0) { $0 + $1.utf8.count + 1 }
    guard bytes + size <= maxBytes else {
      stop("the spec passed \(Self.size(maxBytes))")
      return false
    }
    bytes += size
    lines += unit
    if unit.contains(where: { $0.hasPrefix("  screen:advance(") }) { unwrittenAdvance = 0 }
    return true
  }

  /// Stops recording for `reason` (the spec ends where it stopped, saying so).
  package func abandon(_ reason: String) { stop(reason) }

  private func stop(_ reason: String) {
    if stopped == nil { stopped = reason }
    received = []
    receivedBytes = 0
  }

  /// `path` (relative to the working folder, or absolute) as a spec at `spec` names it: from
  /// the spec's folder, where `ss.open` looks first.
  package static func path(_ path: String, from spec: String?) -> String {
    guard let spec, !path.hasPrefix("/") else { return path }
    let here = FileManager.default.currentDirectoryPath
    let target = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: here, isDirectory: true)).standardizedFileURL.pathComponents
    let folder = URL(fileURLWithPath: spec, relativeTo: URL(fileURLWithPath: here, isDirectory: true)).standardizedFileURL
      .deletingLastPathComponent().pathComponents
    var common = 0
    while common < min(target.count, folder.count), target[common] == folder[common] { common += 1 }
    let parts = Array(repeating: "..", count: folder.count - common) + target[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// Refuses to record into `path` when it is one of the session's `inputs` (the screen, its
  /// payload, events, spec or plugin folders) or an existing file that a recording did not
  /// write (its first line is not ``signature``): `--record` never overwrites anything else.
  ///
  /// - Throws: ``ToolError/usage(_:)`` saying which, and what to do.
  package static func checkTarget(_ path: String, inputs: [String]) throws {
    let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    for input in inputs where URL(fileURLWithPath: input).standardizedFileURL.resolvingSymlinksInPath().path == target {
      throw ToolError.usage("--record \(path) would overwrite the session's own \(input): choose another file, e.g. spec/session_spec.lua")
    }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
    guard !isFolder.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
      throw ToolError.usage("--record \(path) is a folder or cannot be read: name a spec file to write")
    }
    defer { try? handle.close() }
    let start = (try? handle.read(upToCount: signature.utf8.count)) ?? Data()
    guard start.elementsEqual(signature.utf8) else {
      throw ToolError.usage("--record \(path) exists and was not written by --record: remove it, or choose another file")
    }
  }

  /// Seconds as a spec writes them: to the microsecond (moves summed from many ticks carry
  /// float noise such as 0.30300000000000005, which no timer's due time depends on).
  static func seconds(_ value: Double) -> String {
    ExploreEvents.number((value * 1e6).rounded() / 1e6)
  }

  /// `8 MiB`, `512 KiB`.
  static func size(_ bytes: Int) -> String {
    bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
  }

  /// An action as `receive` takes it: `"tick"` for `{ type = "tick" }` alone.
  static func action(_ action: LuaValue) -> String {
    if case .table(let table) = action, table.sequence.isEmpty, table.fields.count == 1, let type = table.fields["type"]?.stringValue {
      return LuaSource.quoted(type)
    }
    return LuaSource.literal(action)
  }

  /// Whether two values are the same data: strings byte for byte (Swift's `==` would call two
  /// Unicode forms of one text equal), numbers with their subtype.
  static func identical(_ a: LuaValue, _ b: LuaValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.table(let x), .table(let y)):
      guard x.sequence.count == y.sequence.count, x.fields.count == y.fields.count else { return false }
      for (left, right) in zip(x.sequence, y.sequence) where !identical(left, right) { return false }
      for (key, left) in x.fields {
        guard let right = y.fields[key], identical(left, right) else { return false }
      }
      return true
    default: return a == b
    }
  }

  /// Assignments that turn `old` into `new`, one a top-level key (`state.count = 1`,
  /// `state["a b"] = nil`, `state[2] = "x"`); a key whose value differs anywhere inside is
  /// assigned whole.
  static func changes(from old: LuaValue, to new: LuaValue, on name: String) -> [String] {
    guard case .table(let before) = old, case .table(let after) = new else {
      return identical(old, new) ? [] : ["\(name) = \(LuaSource.literal(new))"]
    }
    var result: [String] = []
    for index in (after.sequence.count..<max(before.sequence.count, after.sequence.count)).reversed() {
      result.append("\(name)[\(index + 1)] = nil")
    }
    for index in 0..<after.sequence.count where index >= before.sequence.count || !identical(before.sequence[index], after.sequence[index]) {
      result.append("\(name)[\(index + 1)] = \(LuaSource.literal(after.sequence[index]))")
    }
    for key in Set(before.fields.keys).union(after.fields.keys).sorted() {
      switch (before.fields[key], after.fields[key]) {
      case (let old?, let new?) where identical(old, new): continue
      case (nil, nil): continue
      default:
        let target = LuaSource.key(key).hasPrefix("[") ? "\(name)\(LuaSource.key(key))" : "\(name).\(key)"
        result.append("\(target) = \(after.fields[key].map(LuaSource.literal) ?? "nil")")
      }
    }
    return result
  }
}
