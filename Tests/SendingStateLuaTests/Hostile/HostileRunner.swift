import Foundation
import SendingState
import SendingStateHeadless
import SendingStateLua

/// Runs one corpus item in this process and lists every way the host failed it (an empty list:
/// the host held). Never throws: whatever goes wrong is a problem of the item.
///
/// For an item that expects an error, the host owes: the error of the expected kind, naming the
/// item's file and marked line; the trigger done within ``bound``; state, render tree, action
/// log, observer notifications and pending effects exactly as before the trigger; then an
/// ordinary event (`after:`, by default `tap ok`, which adds one to `state.ok`) that commits
/// on top of the state from before. For `ok`, the trigger succeeds with the declared state; for
/// `contained`, it either fails as above or succeeds with the declared state. In every case: no
/// `ESCAPED`/`FAIL` line printed by the item, no `MEMKB` reading above the memory cap, no more
/// output than allowed, every `text:` in the tree, the `mirror:` label showing the state, and
/// an accepted state that reopens the screen (it passes the schema).
@MainActor
final class HostileRunner {
  /// How much processor time any trigger, load or close may take: fifteen times the corpus's
  /// 200 ms time limit, and far more than any work bound (the budget, nodes, memory) takes to
  /// trip, so only a real hang (or a limit that does not hold) breaks it — also for the items
  /// whose time limit is only a 20 s backstop (``HostileCorpus/deterministicKinds``). Processor time, not
  /// wall time: a loaded machine stretches the wall clock (the items' limits are wall-clock
  /// deadlines, so they still end), while a limit that does not hold burns processor time.
  static let bound: Duration = .seconds(3)

  /// How much processor time a whole item (open, setup, trigger, checks, close) may take.
  static let itemBound: Duration = .seconds(5)

  /// The wall-clock bound beside each of those: catches what waits without computing (a
  /// blocked read, a sleep), far past anything a loaded machine adds.
  nonisolated static let wallFactor = 10

  /// Wall time and this thread's processor time since it was made. (The main actor's jobs may
  /// run on different threads from one await to the next: processor time is compared only when
  /// the work ended on the thread it began on; otherwise the wall-clock bound alone holds.)
  struct Stopwatch {
    let wall = ContinuousClock.now
    let cpu = Stopwatch.threadTime()
    let thread = pthread_self()

    static func threadTime() -> Duration {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Why the work since then went past `bound` (processor time) or ten times it (wall), or nil.
    func overrun(_ bound: Duration) -> String? {
      let used = Stopwatch.threadTime() - cpu
      let elapsed = ContinuousClock.now - wall
      if pthread_equal(thread, pthread_self()) != 0, used > bound {
        return "\(used) of processor time, past the bound of \(bound)"
      }
      if elapsed > bound * HostileRunner.wallFactor { return "\(elapsed), past \(bound * HostileRunner.wallFactor) of wall time" }
      return nil
    }
  }

  let item: HostileItem
  let output = HostileOutput()
  private(set) var problems: [String] = []
  private var screen: LuaScreen?
  private var notifications = 0
  private var token: StateObservationToken?

  init(item: HostileItem) {
    self.item = item
  }

  /// Everything a failed event must leave alone.
  struct Snapshot: Equatable {
    var state: LuaValue
    var tree: String
    var log: [LuaValue]
    var notifications: Int
    var pendingEffects: Int
    var warnings: Int
  }

  private func snapshot(_ screen: LuaScreen) -> Snapshot {
    Snapshot(
      state: screen.state, tree: screen.renderTree().text, log: screen.actionLog, notifications: notifications,
      pendingEffects: screen.pendingEffects, warnings: screen.warnings.count)
  }

  private func problem(_ text: String) { problems.append(text) }

  // MARK: - Opening

  /// The options the item's screen opens with (its payload or start state decoded here).
  private func options(state: LuaValue? = nil) throws -> LuaScreen.Options {
    var options = LuaScreen.Options(limits: item.limits, output: { [output] in output.write($0) })
    options.state = state
    guard item.form != .screen else { return options }
    guard let data = FileManager.default.contents(atPath: item.path) else {
      throw ScreenUsageError.missingFile(item.path)
    }
    switch item.form {
    case .payload: options.data = try ServerPayload(json: data, limits: item.limits)
    case .state:
      do {
        options.state = try LuaValue(json: data, root: "--state", limits: item.limits)
      } catch {
        throw error.scriptError
      }
    case .screen: break
    }
    return options
  }

  /// The script the item opens: itself, or its host for JSON items.
  private var scriptPath: String {
    guard item.form != .screen, let host = item.host else { return item.path }
    return fixturePath("hostile/\(host)")
  }

  private func open() throws -> LuaScreen {
    let opened = try LuaScreen(path: scriptPath, options: try options())
    notifications = 0
    token = opened.observe { [weak self] _ in self?.notifications += 1 }
    screen = opened
    return opened
  }

  // MARK: - Running

  /// Runs the item; returns its problems.
  func run() async -> [String] {
    let begun = Stopwatch()
    if let why = HostileCorpus.malformed[item.relativePath] { return ["malformed declaration: \(why)"] }
    if item.trigger == ["load"] {
      await runLoad()
    } else {
      await runEvents()
    }
    closeScreen()
    checkOutput()
    if let overrun = begun.overrun(Self.itemBound) { problem("the item took \(overrun), in all") }
    return problems
  }

  private func runLoad() async {
    let start = Stopwatch()
    var failure: (any Error)?
    do { _ = try open() } catch { failure = error }
    if let overrun = start.overrun(Self.bound) { problem("loading took \(overrun)") }
    if let failure {
      guard item.expectsError || item.expect == "contained" else {
        problem("loading failed: \(describe(failure))")
        return
      }
      check(error: failure)
      return
    }
    guard let screen else { return }
    if item.expectsError {
      problem("loading succeeded; expected \(item.expect) at line \(item.line.map(String.init) ?? "none")")
      return
    }
    await checkAccepted(screen)
  }

  private func runEvents() async {
    var screen: LuaScreen
    do {
      screen = try open()
    } catch {
      problem("the screen did not open: \(describe(error))")
      return
    }
    for step in item.setup {
      do {
        try await perform(step, on: &screen)
      } catch {
        problem("setup step '\(step)' failed: \(describe(error))")
        return
      }
    }
    let before = snapshot(screen)
    let outputBefore = output.bytes
    let start = Stopwatch()
    var failure: (any Error)?
    for step in item.trigger {
      do {
        try await perform(step, on: &screen)
      } catch {
        failure = error
        break
      }
    }
    if let overrun = start.overrun(Self.bound) { problem("the trigger took \(overrun)") }
    if let limit = item.outputLimit, output.bytes - outputBefore > limit {
      problem("the trigger printed \(output.bytes - outputBefore) bytes; at most \(limit) may reach the output")
    }
    if let failure {
      guard item.expectsError || item.expect == "contained" else {
        problem("the trigger failed: \(describe(failure))")
        return
      }
      check(error: failure)
      var now = snapshot(screen)
      if item.trigger.contains("settle") { now.pendingEffects = before.pendingEffects }
      if now != before { problem("the failed trigger changed the screen: \(difference(before, now))") }
      checkMirror(screen)
      await checkAfter(on: &screen, base: before.state)
      return
    }
    if item.expectsError {
      problem("the trigger succeeded; expected \(item.expect) at line \(item.line.map(String.init) ?? "none")")
      return
    }
    await checkAccepted(screen)
    self.screen = screen
    await checkAfter(on: &screen, base: screen.state)
  }

  /// The error matches the item: kind, file, line, message.
  private func check(error: any Error) {
    guard let scriptError = error as? ScriptError else {
      problem("expected a ScriptError, got \(type(of: error)): \(error)")
      return
    }
    if item.expect == "contained" {
      if item.chunk != nil, scriptError.chunk == nil || scriptError.line == nil {
        problem("the error names no file:line: \(scriptError)")
      }
      return
    }
    if scriptError.kind.rawValue != item.expect {
      problem("kind '\(scriptError.kind.rawValue)', expected '\(item.expect)': \(scriptError)")
    }
    if let chunk = item.chunk {
      if scriptError.chunk?.hasSuffix(chunk) != true || scriptError.line != item.line {
        problem(
          "the error names \(scriptError.chunk.map { ($0 as NSString).lastPathComponent } ?? "no file"):"
            + "\(scriptError.line.map(String.init) ?? "no line"), expected \((chunk as NSString).lastPathComponent):"
            + "\(item.line.map(String.init) ?? "?"): \(scriptError)")
      }
    }
    if let message = item.message, !scriptError.message.contains(message) {
      problem("the message does not contain '\(message)': \(scriptError.message)")
    }
    if let context = item.context, scriptError.context?.contains(context) != true {
      problem("the context is \(scriptError.context ?? "missing"), expected it to contain '\(context)'")
    }
  }

  /// An accepted trigger: the declared state, texts, a state that reopens the screen.
  private func checkAccepted(_ screen: LuaScreen) async {
    if let expected = item.state {
      do {
        let value = try LuaValue(json: Data(expected.utf8), root: "expected state")
        if screen.state != value { problem("state is \(Self.text(screen.state)), expected \(Self.text(value))") }
      } catch {
        problem("the declared state is not JSON: \(error)")
      }
    }
    if screen.state == .nil { problem("the host cannot read the state back (it reads as nil)") }
    let tree = screen.renderTree().text
    for text in item.texts where !tree.contains(text) {
      problem("the render tree does not contain \(text)")
    }
    checkMirror(screen)
    if !screen.asyncErrors.isEmpty { problem("unexpected async errors: \(screen.asyncErrors.map(\.description))") }
    guard item.roundTrip, screen.state != .nil else { return }
    do {
      let reopened = try LuaScreen(path: scriptPath, options: try options(state: screen.state))
      if reopened.state != screen.state { problem("the state changed when it reopened the screen") }
      reopened.close()
    } catch {
      problem("the accepted state does not reopen the screen: \(describe(error))")
    }
  }

  private func checkMirror(_ screen: LuaScreen) {
    guard let mirror = item.mirror else { return }
    let shown = (try? screen.property("text", of: mirror.label))?.stringValue
    let value = screen.state[mirror.field]
    let expected = value.intValue.map(String.init) ?? value.stringValue ?? "\(value)"
    if shown != expected {
      problem("label '\(mirror.label)' shows \(shown ?? "nothing") but state.\(mirror.field) is \(expected)")
    }
  }

  /// The ordinary event after the attack commits on top of `base`.
  private func checkAfter(on screen: inout LuaScreen, base: LuaValue) async {
    guard let after = item.after, !screen.isClosed else { return }
    do {
      try await perform(after, on: &screen)
    } catch {
      problem("the ordinary event '\(after)' failed afterwards: \(describe(error))")
      return
    }
    var expected = base
    expected["ok"] = .integer(Int64((base["ok"].intValue ?? 0) + 1))
    if screen.state != expected {
      problem("after '\(after)' the state is \(Self.text(screen.state)), expected \(Self.text(expected)) (the trigger left something behind)")
    }
    checkMirror(screen)
  }

  private func closeScreen() {
    token?.cancel()
    token = nil
    guard let screen else { return }
    let start = Stopwatch()
    screen.close()
    self.screen = nil
    if let overrun = start.overrun(Self.bound) { problem("closing took \(overrun)") }
  }

  private func checkOutput() {
    for alarm in output.alarms { problem("the item reports: \(alarm)") }
    let capKiB = Double(item.limits.memoryLimit ?? .max) / 1024
    if output.maxMemoryKiB > capKiB * 1.1 {
      problem("the script used \(Int(output.maxMemoryKiB)) KiB, past the memory cap of \(Int(capKiB)) KiB")
    }
  }

  // MARK: - Steps

  /// Runs one step of the corpus grammar (see the README of the corpus).
  func perform(_ step: String, on screen: inout LuaScreen) async throws {
    let words = Self.words(step)
    guard let verb = words.first else { return }
    func word(_ index: Int) throws -> String {
      guard index < words.count else { throw ScreenUsageError.badValue("step '\(step)' needs more words") }
      return words[index]
    }
    switch verb {
    case "settle":
      let known = screen.asyncErrorCount
      // Generous: parallel tests share the main actor, and a busy one delays every hop.
      let settled = await screen.settle(timeout: .seconds(60))
      if screen.asyncErrorCount > known, let first = screen.asyncErrors.suffix(screen.asyncErrorCount - known).first { throw first }
      if !settled { throw ScreenUsageError.badValue("effects did not settle within 60 s") }
    case "reload":
      screen = try screen.reloaded()
      self.screen = screen
      notifications = 0
      token = screen.observe { [weak self] _ in self?.notifications += 1 }
    case "close":
      screen.close()
    case "action":
      try screen.perform(action: .string(try word(1)))
    case "action-json":
      let json = step.dropFirst("action-json".count).trimmingCharacters(in: .whitespaces)
      try screen.perform(action: try LuaValue(json: Data(json.utf8), root: "action"))
    case "action-deep":
      var value: LuaValue = ["type": "deep"]
      for _ in 1..<(Int(try word(1)) ?? 1) { value = ["type": "deep", "x": value] }
      try screen.perform(action: value)
    case "action-wide":
      let count = Int(try word(1)) ?? 0
      try screen.perform(action: ["type": "wide", "items": .table(LuaTable(sequence: (0..<count).map { .integer(Int64($0)) }))])
    case "scroll":
      _ = try screen.row(try word(1), Int(try word(2)) ?? 1)
    case "row":
      let driver = try screen.row(try word(1), Int(try word(2)) ?? 1)
      try drive(driver, Array(words.dropFirst(3)), step: step)
    default:
      try drive(screen.driver, words, step: step)
    }
  }

  private func drive(_ driver: ScreenDriver, _ words: [String], step: String) throws {
    func word(_ index: Int) throws -> String {
      guard index < words.count else { throw ScreenUsageError.badValue("step '\(step)' needs more words") }
      return words[index]
    }
    switch words.first {
    case "tap": try driver.tap(try word(1))
    case "send": try driver.send(try word(1), try word(2))
    case "type": try driver.type(try word(1), try word(2))
    case "set":
      let text = try word(2)
      let value: LuaValue =
        text == "on" ? true : text == "off" ? false : Int64(text).map { .integer($0) } ?? Double(text).map { .number($0) }
        ?? .string(text)
      try driver.set(try word(1), value)
    case "gesture":
      var parameters: [String: LuaValue] = [:]
      for pair in words.dropFirst(3) {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { continue }
        parameters[parts[0]] = Int64(parts[1]).map { .integer($0) } ?? Double(parts[1]).map { .number($0) } ?? .string(parts[1])
      }
      try driver.gesture(try word(1), try word(2), parameters)
    default:
      throw ScreenUsageError.badValue("unknown step '\(step)'")
    }
  }

  /// Splits a step into words; double quotes group words with spaces.
  nonisolated static func words(_ step: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    for character in step {
      if character == "\"" {
        quoted.toggle()
      } else if character == " ", !quoted {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  // MARK: - Describing

  /// A value as short JSON-like text (`{"ok":1,"items":[1,2]}`), for messages.
  nonisolated static func text(_ value: LuaValue) -> String {
    switch value {
    case .nil: "nil"
    case .boolean(let flag): "\(flag)"
    case .integer(let number): "\(number)"
    case .number(let number): "\(number)"
    case .string(let string): "\"\(string.prefix(80))\(string.count > 80 ? "…(\(string.utf8.count) bytes)" : "")\""
    case .opaque(let name): "<\(name)>"
    case .table(let table):
      if table.fields.isEmpty, !table.sequence.isEmpty {
        "[" + table.sequence.prefix(20).map(text).joined(separator: ",") + (table.sequence.count > 20 ? ",…" : "") + "]"
      } else {
        "{" + (table.sequence.enumerated().map { "\($0.offset + 1):\(text($0.element))" }
          + table.fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(text($0.value))" }).prefix(20)
          .joined(separator: ",") + "}"
      }
    }
  }

  private func describe(_ error: any Error) -> String {
    if let scriptError = error as? ScriptError { return "[\(scriptError.kind.rawValue)] \(scriptError)" }
    return "\(type(of: error)): \(error)"
  }

  private func difference(_ before: Snapshot, _ after: Snapshot) -> String {
    var parts: [String] = []
    if before.state != after.state { parts.append("state \(Self.text(before.state)) → \(Self.text(after.state))") }
    if before.tree != after.tree { parts.append("render tree changed:\n\(before.tree)\n→\n\(after.tree)") }
    if before.log != after.log { parts.append("action log \(before.log) → \(after.log)") }
    if before.notifications != after.notifications {
      parts.append("observers notified \(after.notifications - before.notifications) more time(s)")
    }
    if before.pendingEffects != after.pendingEffects {
      parts.append("pending effects \(before.pendingEffects) → \(after.pendingEffects)")
    }
    if before.warnings != after.warnings { parts.append("warnings \(before.warnings) → \(after.warnings)") }
    return parts.joined(separator: "; ")
  }
}
