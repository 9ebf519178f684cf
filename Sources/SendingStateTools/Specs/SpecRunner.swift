import Foundation
import SendingStateLua
import SendingStatePlugins

/// `sendingstate test`: runs Lua specs on busted 2.1.1 and luassert 1.9.0 (Debian's
/// `lua-busted` and `lua-luassert`), with a screen driver for SendingState screens.
///
/// Specs get all of busted — `describe`/`context`, `it`, `pending`, `setup`/`teardown`,
/// `lazy_setup`, `strict_setup`, `before_each`/`after_each`, `finally`, `insulate`/`expose`,
/// tags, `randomize` — and all of luassert (`assert`, `spy`, `stub`, `mock`, `match`, modifiers,
/// formatters), plus `require "sendingstate"`:
///
/// ```lua
/// local ss = require "sendingstate"
/// describe("counter", function()
///   it("increments", function()
///     local screen = ss.open("counter.lua")
///     screen:tap("plus")
///     assert.are.equal(2, screen.state.count)
///     assert.are.equal("2", screen.view.count.text)
///   end)
/// end)
/// ```
///
/// Specs run in one trusted Lua state (they are the project's own code); each screen opened
/// runs sandboxed in its own runtime. The closing line is `N passed, N failed` (and
/// `, N skipped` when some were). With ``SpecOptions/coverage`` (or `.busted`'s
/// `coverage = true`) the run also counts lines (see ``SpecCoverage``), writes
/// `coverage/lcov.info` and prints a summary before that line.
@MainActor
public final class SpecRunner {
  /// The outcome of one test, or of an error outside tests (a spec that does not load, a
  /// failing hook).
  public struct Result: Sendable, Equatable {
    /// The spec file.
    public var file: String
    /// `describe › … › it`, or what failed outside a test (`before_each`, `file`…).
    public var name: String
    /// Passed, failed or skipped.
    public var status: Status
    /// The failure message (with the spec's file:line), or the pending reason.
    public var message: String?
  }

  /// A test's outcome.
  public enum Status: String, Sendable {
    /// Every assertion held.
    case passed
    /// An assertion failed, or the code raised an error.
    case failed
    /// `pending(...)`: not run.
    case skipped
  }

  /// The counts of one run.
  public struct Summary: Sendable, Equatable {
    /// Tests that passed.
    public var passed = 0
    /// Tests that failed or raised, plus errors outside tests.
    public var failed = 0
    /// Pending tests.
    public var skipped = 0
  }

  /// What the runner was asked to do.
  public let options: SpecOptions
  /// Every result so far, in run order.
  public private(set) var results: [Result] = []
  /// The counts, once the run ended.
  public private(set) var summary = Summary()
  /// Whether the run only listed tests (`--list`).
  public private(set) var listedOnly = false
  /// The spec files the run loaded.
  public private(set) var fileCount = 0
  /// Whether standard output was a machine-readable document (TAP, JUnit, JSON), so the closing
  /// line belongs on standard error.
  public private(set) var wroteDocument = false
  /// The line coverage of the run, when `--coverage` (or `.busted`'s `coverage = true`) asked
  /// for it; also written to `coverage/lcov.info` and summed up after the results.
  package private(set) var coverage: SpecCoverage?

  private var screens: [Int64: LuaScreen] = [:]
  private var reportedAsyncErrors: [Int64: Int] = [:]
  private var nextHandle: Int64 = 0
  private var captured: String?
  /// The counts of screens closed so far, and at the end the spec runtime's (nil: coverage off).
  private var coverageCounts: CoverageCounts?
  /// The chunk names of the spec host's own Lua (never the project's).
  private static let hostChunks: Set<String> = [
    "sendingstate/driver.lua", "sendingstate/terminal.lua", "sendingstate/host.lua", "sendingstate/coverage.lua",
  ]
  private let output: (String) -> Void
  private let errors: (String) -> Void

  /// Creates a runner; `output` and `errors` receive text as it is written (not lines).
  public init(
    options: SpecOptions = SpecOptions(),
    output: @escaping (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) },
    errors: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
  ) {
    self.options = options
    self.output = output
    self.errors = errors
  }

  /// The closing line: `N passed, N failed` (and `, N skipped` when some were).
  public var summaryLine: String {
    "\(summary.passed) passed, \(summary.failed) failed" + (summary.skipped > 0 ? ", \(summary.skipped) skipped" : "")
  }

  /// Runs the specs.
  ///
  /// - Throws: ``ToolError/usage(_:)`` for a missing path, bad options or a bad `.busted`;
  ///   ``ToolError/script(_:)`` if busted itself cannot be loaded.
  public func run() async throws {
    try checkPaths()
    let runtime: LuaRuntime
    do {
      runtime = try LuaRuntime(
        // The specs' own time is bounded per test (--timeout); the screens they open keep their limits.
        configuration: .init(
          limits: .init(memoryLimit: 2 << 30, instructionBudget: nil, timeLimit: nil, maxStringBytes: nil), mode: .trusted))
    } catch {
      throw ToolError.from(error)
    }
    runtime.output = { [weak self] line in MainActor.assumeIsolated { self?.write(line + "\n") } }
    try SpecLimits.install(in: runtime)
    let prims = try makePrimitives(runtime)
    let settings = try runtime.makeValue([
      "timeout": .number(options.timeout), "settle": .number(options.settle),
      "updateSnapshots": .boolean(options.updateSnapshots), "verbose": .boolean(options.verbose),
      "color": .boolean(options.color),
    ])
    let arguments = try runtime.makeValue(.table(LuaTable(sequence: options.bustedArguments.map { .string($0) })))
    let step: LuaRef
    do {
      try prims.setField("driverModule", to: chunk(runtime, SpecScreenDriver.source, "sendingstate/driver.lua"))
      try prims.setField("terminalOutput", to: chunk(runtime, SpecTerminalOutput.source, "sendingstate/terminal.lua"))
      let host = try runtime.load(SpecHost.source, chunkName: "sendingstate/host.lua")
      step = try runtime.callReturningReferences(host, with: [prims, arguments, settings], context: "starting busted")[0]
    } catch let error as ScriptError where error.message.contains("module 'busted") || error.message.contains("module 'luassert") {
      throw ToolError.usage(
        "busted and luassert are not installed (\(error.message.split(separator: "\n").first ?? "")); install Debian's lua-busted and lua-luassert (scripts/bootstrap.sh does)"
      )
    } catch {
      throw ToolError.from(error)
    }
    var reply: LuaValue = .nil
    while true {
      let request: LuaValue
      do {
        request = try runtime.call(step, with: [reply], context: "running specs").first ?? .nil
      } catch {
        closeAll()
        throw ToolError.from(error)
      }
      switch request[1].stringValue {
      case "settle":
        reply = await settle(handle: Int64(request[2].intValue ?? 0), seconds: request[3].doubleValue ?? options.settle)
      case "advance":
        reply = await advance(handle: Int64(request[2].intValue ?? 0), seconds: request[3].doubleValue ?? 0)
      case "usage":
        closeAll()
        throw ToolError.usage(request[2].stringValue ?? "bad arguments")
      default:
        closeAll()
        summary = Summary(passed: request[2].intValue ?? 0, failed: request[3].intValue ?? 0, skipped: request[4].intValue ?? 0)
        listedOnly = request[5].boolValue ?? false
        fileCount = request[6].intValue ?? 0
        wroteDocument = request[7].boolValue ?? false
        if !listedOnly { try reportCoverage(runtime, specFiles: request[8].tableValue?.sequence.compactMap(\.stringValue) ?? []) }
        return
      }
    }
  }

  /// Adds the spec runtime's counts to the screens', then writes the LCOV file and the summary
  /// (on standard error when standard output is a document).
  private func reportCoverage(_ runtime: LuaRuntime, specFiles: [String]) throws {
    guard var counts = coverageCounts else { return }
    counts.add(runtime.coverageHits.filter { !Self.hostChunks.contains($0.key) }, fromScreen: false)
    let lines: LuaRef
    do {
      lines = try chunk(runtime, SpecCoverage.linesSource, "sendingstate/coverage.lua")
    } catch {
      throw ToolError.from(error)
    }
    let report = try counts.report(specFiles: specFiles) { text, name in
      do {
        return try runtime.call(lines, with: [.string(text), .string(name)], context: "coverage").first?.tableValue?.sequence
          .compactMap { value -> Int? in value.intValue.map { Int($0) } }
      } catch {
        throw ToolError.from(error)
      }
    }
    coverage = report
    try report.write(in: counts.folder)
    (wroteDocument ? errors : output)("\n" + report.summary)
  }

  private func chunk(_ runtime: LuaRuntime, _ source: String, _ name: String) throws -> LuaRef {
    try runtime.callReturningReferences(try runtime.load(source, chunkName: name), with: [], context: name)[0]
  }

  /// Explicit paths must exist; with none, `.busted` or a `spec` folder must.
  private func checkPaths() throws {
    let files = FileManager.default
    for path in options.paths where !files.fileExists(atPath: path) {
      throw ToolError.usage("no such spec file or folder: '\(path)'")
    }
    if let configFile = options.configFile, !files.fileExists(atPath: configFile) {
      throw ToolError.usage("--config-file: no such file '\(configFile)'")
    }
    if options.paths.isEmpty, options.configFile == nil, !files.fileExists(atPath: ".busted"),
      !files.fileExists(atPath: "spec")
    {
      throw ToolError.usage(
        "no spec/ folder and no .busted file here: give spec files or folders (sendingstate test examples), "
          + "put specs in spec/, or name the folders in .busted (return { default = { ROOT = { \"tests\" } } })")
    }
  }

  // MARK: - Output

  private func write(_ text: String) {
    if captured != nil {
      captured! += text
    } else {
      output(text)
    }
  }

  // MARK: - Effects

  private func settle(handle: Int64, seconds: Double) async -> LuaValue {
    guard let screen = screens[handle] else { return ["settled": true, "pending": 0] }
    let settled = await screen.settle(timeout: .milliseconds(Int((seconds * 1000).rounded())))
    let seen = reportedAsyncErrors[handle] ?? 0
    // (The screen keeps its recent errors in a ring: what came since is counted, not indexed.)
    let fresh = screen.asyncErrors.suffix(max(0, min(screen.asyncErrorCount - seen, screen.asyncErrors.count)))
    reportedAsyncErrors[handle] = screen.asyncErrorCount
    let errors = fresh.map { LuaValue.string(options.verbose ? $0.fullDescription : $0.description) }
    var reply: LuaValue = [
      "settled": .boolean(settled), "pending": .integer(Int64(screen.pendingEffects)),
      "errors": .table(LuaTable(sequence: Array(errors))),
    ]
    // On a virtual clock, waiting does not move time: say so, with the way to move it.
    if !settled, let clock = screen.options.clock as? VirtualClock, let next = clock.nextDeadline {
      reply["described"] = .string(
        String(format: "waiting for the screen's virtual clock, the next due in %g s: move it with screen:advance(seconds)", max(0, next - clock.now)))
    }
    return reply
  }

  /// Moves a screen's virtual clock (`screen:advance(seconds)`); reports the errors of the
  /// timers' actions, like settling.
  private func advance(handle: Int64, seconds: Double) async -> LuaValue {
    guard let screen = screens[handle] else { return ["settled": true, "pending": 0] }
    do {
      try await screen.advance(by: seconds)
    } catch {
      return ["problem": .string("screen:advance(): \(ToolError.from(error).description)")]
    }
    let seen = reportedAsyncErrors[handle] ?? 0
    // (The screen keeps its recent errors in a ring: what came since is counted, not indexed.)
    let fresh = screen.asyncErrors.suffix(max(0, min(screen.asyncErrorCount - seen, screen.asyncErrors.count)))
    reportedAsyncErrors[handle] = screen.asyncErrorCount
    let errors = fresh.map { LuaValue.string(options.verbose ? $0.fullDescription : $0.description) }
    return ["settled": true, "pending": .integer(Int64(screen.pendingEffects)), "errors": .table(LuaTable(sequence: Array(errors)))]
  }

  private func closeAll() {
    for handle in screens.keys.sorted() { retire(handle) }
  }

  /// Closes a screen and keeps its line counts (when coverage is on).
  private func retire(_ handle: Int64) {
    guard let screen = screens.removeValue(forKey: handle) else { return }
    screen.close()
    if coverageCounts != nil { coverageCounts?.add(screen.runtime.coverageHits, fromScreen: true) }
  }

  // MARK: - Primitives for the Lua side

  /// `ss.open(path, { fetch = { [url] = { status = 200, body = "…" | json = {…} } | { error = "…" } } })`;
  /// a key `"POST https://…"` answers that method only (before the URL's own answer); `delay = 2`
  /// makes the answer arrive 2 s of the screen's clock after the request.
  static func fakeFetcher(_ fakes: LuaTable) throws -> FakeFetcher {
    var responses: [String: FakeFetcher.Response] = [:]
    guard fakes.sequence.isEmpty else { throw ToolError.usage("ss.open: options.fetch maps URLs to answers: { [\"https://…\"] = { status = 200, body = \"…\" } }") }
    for (url, answer) in fakes.fields {
      guard case .table(let fields) = answer else { throw ToolError.usage("ss.open: the fake answer for \(url) must be a table ({ status = 200, body = \"…\" }, or { error = \"…\" })") }
      let known = ["status", "body", "json", "error", "delay"]
      if let stray = fields.fields.keys.sorted().first(where: { !known.contains($0) }) {
        let hint = NameSuggestion.closest(to: stray, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        throw ToolError.usage("ss.open: the fake answer for \(url) has an unknown field '\(stray.prefix(60))'\(hint); an answer has \(known.joined(separator: ", "))")
      }
      var response = FakeFetcher.Response(status: Int(answer["status"].intValue ?? 200), body: answer["body"].stringValue ?? "")
      if answer["json"] != .nil { response.body = StateDiff.literal(answer["json"]) }
      response.error = answer["error"].stringValue
      guard (100...599).contains(response.status) else { throw ToolError.usage("ss.open: the fake status for \(url) must be an HTTP status (100 to 599)") }
      if answer["delay"] != .nil {
        guard let delay = answer["delay"].doubleValue, delay.isFinite, delay >= 0 else {
          throw ToolError.usage("ss.open: the fake answer's delay for \(url) must be a number of seconds ≥ 0 (it arrives that long after the request, on the screen's clock)")
        }
        response.delay = delay
      }
      responses[url] = response
    }
    return FakeFetcher(responses)
  }

  /// A request as `screen.fetches` lists it.
  static func requestValue(_ request: FetchRequest) -> LuaValue {
    var value: LuaValue = [
      "url": .string(request.url.absoluteString), "method": .string(request.method),
      "headers": .table(LuaTable(fields: request.headers.mapValues(LuaValue.string))),
    ]
    if let body = request.body { value["body"] = .string(String(decoding: body, as: UTF8.self)) }
    return value
  }

  /// `ss.open(path, { tasks = { [name] = { value = … } | { error = "…" } } })`: fakes of the tasks
  /// a host app registers, each answering every call the same way, at once or `delay` seconds
  /// of the screen's clock later (`{ value = …, delay = 2 }`).
  static func fakeTasks(_ fakes: LuaTable) throws -> (tasks: [String: LuaScreen.HostTask], delays: [String: Double]) {
    guard fakes.sequence.isEmpty else {
      throw ToolError.usage("ss.open: options.tasks maps task names to answers: { geocode = { value = {...} } }")
    }
    var tasks: [String: LuaScreen.HostTask] = [:]
    var delays: [String: Double] = [:]
    for (name, answer) in fakes.fields {
      guard case .table(let fields) = answer, fields.sequence.isEmpty, Set(fields.fields.keys).isSubset(of: ["value", "error", "delay"])
      else {
        throw ToolError.usage("ss.open: the fake answer of task '\(name)' must be { value = … } or { error = \"…\" } (with delay = seconds, if it takes time)")
      }
      if answer["delay"] != .nil {
        guard let delay = answer["delay"].doubleValue, delay.isFinite, delay >= 0 else {
          throw ToolError.usage("ss.open: the fake delay of task '\(name)' must be a number of seconds ≥ 0 (its answer arrives that long after it runs, on the screen's clock)")
        }
        delays[name] = delay
      }
      if answer["error"] != .nil {
        guard let message = answer["error"].stringValue else {
          throw ToolError.usage("ss.open: the fake error of task '\(name)' must be a string")
        }
        tasks[name] = { _ in throw FakeTaskError(message: message) }
      } else {
        let value = answer["value"]
        tasks[name] = { _ in value }
      }
    }
    return (tasks, delays)
  }

  /// The error a faked task answers with (its text is the `fail` action's `error`).
  struct FakeTaskError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  /// The committed steps (actions, state after) of the screens a spec asserts exhaustively
  /// (`screen:expect` / `screen:receive`), by handle.
  private var steps: [Int64: [LuaValue]] = [:]

  /// Plugin problems already reported (each once per run, however many screens open).
  private var reportedPluginProblems: Set<String> = []

  private func open(_ call: LuaCall) throws -> Int {
    let path = try call.string(1)
    do {
      try ScriptPath.check(path, role: "screen")
      var options = LuaScreen.Options()
      options.output = { [weak self] line in MainActor.assumeIsolated { self?.write(line + "\n") } }
      if call.count >= 2, call.typeName(2) != "nil" { options.state = try call.value(2) }
      if let data = try call.optionalString(3) {
        options.data = try ServerPayload(json: Data(try FileInput.bytes(data, what: "ss.open data file")))
      }
      var folders = self.options.plugins
      if call.count >= 4, case .table(let given) = try call.value(4) { folders += given.sequence.compactMap(\.stringValue) }
      let plugins = PluginSet.load(
        explicit: folders, screen: path, hostAPI: PluginSet.hostAPI, grants: self.options.pluginGrants,
        requireLock: self.options.lockedPlugins)
      if self.options.lockedPlugins, let problem = plugins.problems.first {
        throw ToolError.usage("--locked: \(problem)")
      }
      for problem in plugins.problems where reportedPluginProblems.insert(problem.description).inserted {
        errors("warning: plugin left out: \(problem)\n")
      }
      plugins.apply(to: &options)
      if call.count >= 5, call.typeName(5) != "nil" {
        // A virtual clock standing at the given time (seconds since 1970).
        let start = try call.number(5)
        guard start.isFinite else { throw ToolError.usage("ss.open: options.clock must be a finite number of seconds since 1970") }
        options.clock = VirtualClock(now: start)
      }
      if call.count >= 6, case .table(let fakes) = try call.value(6) {
        options.fetcher = try Self.fakeFetcher(fakes)
      }
      if call.count >= 7, case .table(let fakes) = try call.value(7) {
        (options.tasks, options.taskDelays) = try Self.fakeTasks(fakes)
      }
      if call.count >= 8, call.typeName(8) != "nil" {
        guard case .integer(let seed) = try call.value(8) else {
          throw ToolError.usage("ss.open: options.random_seed must be an integer (the seed of the screen's math.random)")
        }
        options.randomSeed = seed
      }
      options.coverage = coverageCounts != nil
      let screen = try LuaScreen(path: path, options: options)
      nextHandle += 1
      screens[nextHandle] = screen
      try call.push(.integer(nextHandle))
      return 1
    } catch {
      try call.push(.nil)
      try call.push(.string("ss.open: " + ToolError.from(error).description))
      return 2
    }
  }

  private func makePrimitives(_ runtime: LuaRuntime) throws -> LuaRef {
    let prims = try runtime.makeValue(.table(LuaTable()))
    func screen(_ call: LuaCall) throws -> LuaScreen {
      guard let screen = screens[try call.integer(1)] else {
        throw ScriptError(kind: .runtime, message: "the screen was closed")
      }
      return screen
    }
    try prims.setField("version", to: .string(LuaScreen.apiVersion))
    // --coverage (or .busted's `coverage = true`), once busted has read them: screens opened
    // from now on count their lines, and so does this runtime (the modules specs require).
    prims.setField("coverageStart", to: runtime.makeFunction("coverageStart") { [weak self, unowned runtime] _ in
      try MainActor.assumeIsolated {
        guard let self, self.coverageCounts == nil else { return 0 }
        try runtime.startCoverage()
        self.coverageCounts = CoverageCounts(folder: FileManager.default.currentDirectoryPath)
        return 0
      }
    })
    prims.setField("write", to: runtime.makeFunction("write") { [weak self] call in
      let text = try call.string(1)
      MainActor.assumeIsolated { self?.write(text) }
      return 0
    })
    prims.setField("writeError", to: runtime.makeFunction("writeError") { [weak self] call in
      let text = try call.string(1)
      MainActor.assumeIsolated { self?.errors(text) }
      return 0
    })
    prims.setField("captureBegin", to: runtime.makeFunction("captureBegin") { [weak self] _ in
      MainActor.assumeIsolated { self?.captured = "" }
      return 0
    })
    prims.setField("captureEnd", to: runtime.makeFunction("captureEnd") { [weak self] call in
      let captured = MainActor.assumeIsolated { () -> String in
        defer { self?.captured = nil }
        return self?.captured ?? ""
      }
      call.push(captured)
      return 1
    })
    prims.setField("report", to: runtime.makeFunction("report") { [weak self] call in
      let file = try call.string(1)
      let name = try call.string(2)
      let status: Status =
        switch try call.string(3) {
        case "success": .passed
        case "pending": .skipped
        default: .failed
        }
      let message = call.typeName(4) == "string" ? try call.string(4) : nil
      MainActor.assumeIsolated { self?.results.append(Result(file: file, name: name, status: status, message: message)) }
      return 0
    })
    prims.setField("open", to: runtime.makeFunction("open") { [weak self] call in
      try MainActor.assumeIsolated {
        guard let self else { throw ScriptError(kind: .runtime, message: "ss.open after the run ended") }
        return try self.open(call)
      }
    })
    prims.setField("close", to: runtime.makeFunction("close") { [weak self] call in
      let handle = try call.integer(1)
      MainActor.assumeIsolated {
        self?.retire(handle)
        self?.steps[handle] = nil
      }
      return 0
    })
    prims.setField("state", to: runtime.makeFunction("state") { call in
      try MainActor.assumeIsolated { try call.push(try screen(call).state) }
      return 1
    })
    prims.setField("actions", to: runtime.makeFunction("actions") { call in
      try MainActor.assumeIsolated { try call.push(.table(LuaTable(sequence: try screen(call).actionLog))) }
      return 1
    })
    prims.setField("time", to: runtime.makeFunction("time") { call in
      try MainActor.assumeIsolated { try call.push(.number(try screen(call).options.clock.now)) }
      return 1
    })
    // The requests a screen's fake fetcher was sent (`screen.fetches`), oldest first:
    // { url = …, method = "POST", headers = { [name] = value }, body = "…" | nil }.
    prims.setField("fetches", to: runtime.makeFunction("fetches") { call in
      try MainActor.assumeIsolated {
        let sent = (try screen(call).options.fetcher as? FakeFetcher)?.sent.all ?? []
        try call.push(.table(LuaTable(sequence: sent.map(Self.requestValue))))
      }
      return 1
    })
    prims.setField("pending", to: runtime.makeFunction("pending") { call in
      try MainActor.assumeIsolated { try call.push(.integer(Int64(try screen(call).pendingEffects))) }
      return 1
    })
    prims.setField("named", to: runtime.makeFunction("named") { call in
      try MainActor.assumeIsolated {
        switch try screen(call).namedState {
        case nil: try call.push(.nil)
        case .ready(let current)?:
          try call.push(.table(LuaTable(fields: current.map { ["current": .string($0)] } ?? [:])))
        case .inTransition(let previous, let target)?:
          var fields: [String: LuaValue] = ["to": .string(target)]
          if let previous { fields["current"] = .string(previous); fields["from"] = .string(previous) }
          try call.push(.table(LuaTable(fields: fields)))
        }
      }
      return 1
    })
    // The test store (`screen:expect`, `screen:receive`): record a screen's committed steps
    // from now on; hand out the steps after a count; perform an action as one event.
    prims.setField("track", to: runtime.makeFunction("track") { [weak self] call in
      try MainActor.assumeIsolated {
        let handle = try call.integer(1)
        let target = try screen(call)
        guard let self, self.steps[handle] == nil else { return 0 }
        self.steps[handle] = []
        target.onCommittedEvent = { [weak self, weak target] actions in
          guard let self, let target else { return }
          self.steps[handle, default: []].append(["actions": .table(LuaTable(sequence: actions)), "state": target.state])
        }
        return 0
      }
    })
    prims.setField("steps", to: runtime.makeFunction("steps") { [weak self] call in
      try MainActor.assumeIsolated {
        let handle = try call.integer(1)
        let seen = Int(try call.integer(2))
        let all = self?.steps[handle] ?? []
        try call.push(.table(LuaTable(sequence: Array(all.dropFirst(max(0, seen))))))
        return 1
      }
    })
    prims.setField("cancelEffects", to: runtime.makeFunction("cancelEffects") { call in
      try MainActor.assumeIsolated { try screen(call).cancelEffects() }
      return 0
    })
    prims.setField("perform", to: runtime.makeFunction("perform") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        do {
          let step = try target.perform(action: try call.value(2))
          try call.push(.boolean(true))
          try call.push(step.why.isEmpty ? .nil : .string(step.why.joined(separator: "\n")))
          return 2
        } catch {
          try call.push(.boolean(false))
          try call.push(.string(ToolError.from(error).description))
          return 2
        }
      }
    })
    // pendingList(handle) -> { { number, id, kind, due, remaining, window, waiting, effect, debounce }, … }, soonest first
    prims.setField("pendingList", to: runtime.makeFunction("pendingList") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        let now = target.clockNow
        let list = target.pendingList.map { entry -> LuaValue in
          var item: LuaValue = ["number": .integer(Int64(entry.number)), "kind": .string(entry.kind.rawValue)]
          if let id = entry.id { item["id"] = .string(id) }
          if let due = entry.due {
            item["due"] = .number(due)
            item["remaining"] = .number(max(0, due - now))
          }
          if let window = entry.window { item["window"] = .number(window) }
          if let waiting = entry.waiting { item["waiting"] = .string(waiting) }
          if let effect = entry.effect { item["effect"] = .string(effect) }
          if let debounce = entry.debounce { item["debounce"] = .number(debounce) }
          return item
        }
        try call.push(.table(LuaTable(sequence: list)))
      }
      return 1
    })
    prims.setField("tree", to: runtime.makeFunction("tree") { call in
      try MainActor.assumeIsolated { try call.push(.string(try screen(call).renderTree().text)) }
      return 1
    })
    // picture(handle, file, update, tolerance, leaving) -> "matched" | "recorded" | "failed" | "error", message
    prims.setField("picture", to: runtime.makeFunction("picture") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        do {
          let outcome = try PictureSnapshot.check(
            target.renderTree(), file: try call.string(2), update: try call.value(3).boolValue ?? false,
            tolerance: try call.value(4).doubleValue ?? PictureSnapshot.defaultTolerance,
            leaving: try call.value(5).boolValue ?? true)
          switch outcome {
          case .matched: try call.push(.string("matched"))
          case .recorded(let file):
            try call.push(.string("recorded"))
            try call.push(.string(file))
            return 2
          case .failed(let message):
            try call.push(.string("failed"))
            try call.push(.string(message))
            return 2
          }
          return 1
        } catch {
          try call.push(.string("error"))
          try call.push(.string(ToolError.from(error).description))
          return 2
        }
      }
    })
    prims.setField("property", to: runtime.makeFunction("property") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        let row = try call.optionalString(2).map { (list: $0, index: Int(try call.integer(3))) }
        do {
          let value = try target.property(try call.string(5), of: try call.string(4), inRow: row)
          try call.push(.boolean(true))
          try call.push(value)
        } catch {
          try call.push(.boolean(false))
          try call.push(.string(ToolError.from(error).description))
        }
        return 2
      }
    })
    prims.setField("act", to: runtime.makeFunction("act") { call in
      try MainActor.assumeIsolated {
        let target = try screen(call)
        let list = try call.optionalString(2)
        do {
          let id = try call.string(5)
          let driver = try list.map { try target.row($0, Int(try call.integer(3))) } ?? target.driver
          let step: LuaScreen.Step
          switch try call.string(4) {
          case "tap": step = try driver.tap(id)
          case "send": step = try driver.send(id, try call.string(6))
          case "set": step = try driver.set(id, try call.value(6))
          case "type": step = try driver.type(id, try call.string(6))
          default: step = try driver.gesture(id, try call.string(6), try call.value(7).tableValue?.fields ?? [:])
          }
          try call.push(.boolean(true))
          try call.push(step.why.isEmpty ? .nil : .string(step.why.joined(separator: "\n")))
          return 2
        } catch {
          try call.push(.boolean(false))
          try call.push(.string(ToolError.from(error).description))
          return 2
        }
      }
    })
    return prims
  }
}
