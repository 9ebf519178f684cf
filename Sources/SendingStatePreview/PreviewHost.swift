import Foundation
import SendingState
import SendingStateHeadless
import SendingStateLua
import SendingStatePlugins
import SendingStateTools

/// The screen behind a preview page: applies the pages' events, reloads the script, and pushes
/// what changed to every connected page.
///
/// Every message to a page is one JSON object:
///
/// - `{"type": "full", "version", "tree", "panel"}`: the whole laid-out tree (``PreviewTree``)
///   and panel, sent on connect and on `sync`;
/// - `{"type": "patch", "version", "base", "seq"?, "ops": [...], "panel"}`: what changed since
///   `base` (`ops` may be empty when only the panel changed); `seq` answers the page's message.
///
/// Each page's queue is bounded in bytes (``pageBudget``, see ``PageOutbox``): a page that
/// falls behind gets one `full` message when it reads again, its status saying how many
/// updates were dropped. Everything the panel shows that a script controls is cut (see
/// ``ReportText``) and made visible (``VisibleText``) here, so the page shows escapes, never
/// the control characters themselves.
///
/// The panel is `{"log": [new entries], "state", "diff", "error", "warnings", "status",
/// "timeline", "clock", "pending"}`; `state` is the state's JSON, `diff` the newest step's
/// changes (`count: 1 → 2`), `error` the current problem (`{"message", "file", "line"}`) or
/// null, `log` entries `{"event", "actions", "why", "error", "moment", "kind", "time"}` (`why`:
/// the reasons an event did nothing, see ``LuaScreen/Step/why``; `moment`: the number of the
/// timeline's moment the step made, or null for a step that failed). `timeline`, `clock` and
/// `pending` are Rewind's (see ``PreviewTimeline`` and `PreviewHost+Clock.swift`).
///
/// A page may also be sent `{"type": "moment", "seq", "moment": {…}}`, a past moment it asked
/// for (its state, tree and picture), to it alone.
///
/// ```swift
/// let host = try PreviewHost(path: "examples/counter/counter.lua")
/// let (id, messages) = host.connect()
/// host.receive(#"{"seq":1,"verb":"tap","id":"plus"}"#, from: id)
/// ```
@MainActor
package final class PreviewHost {
  /// One line of the action log.
  struct LogEntry {
    var event: String
    var actions: [String]
    var why: [String]
    var error: String?
    /// The timeline's moment this step made (nil: it failed, and changed nothing).
    var moment: Int?
    /// What made it (a ``PreviewTimeline/Kind``'s name; `failed` for a failure).
    var kind: String
    /// The screen's clock then, in seconds since the preview's clock started.
    var time: Double?

    /// An entry with its texts cut and made visible.
    init(
      event: String, actions: [String], why: [String] = [], error: String?, moment: Int? = nil, kind: String = "event",
      time: Double? = nil
    ) {
      self.event = PreviewHost.shown(event, limit: PreviewHost.entryLimit)
      self.actions = LogEntry.kept(actions)
      self.why = LogEntry.kept(why)
      self.error = error.map { PreviewHost.shown($0, limit: ReportText.valueLimit) }
      self.moment = moment
      self.kind = error == nil ? kind : "failed"
      self.time = time
    }

    /// `texts` made visible, each cut and all of them within ``PreviewHost/entryLimit`` bytes
    /// (then how many more there were).
    private static func kept(_ texts: [String]) -> [String] {
      var kept: [String] = []
      var bytes = 0
      for (offset, text) in texts.enumerated() {
        if bytes >= PreviewHost.entryLimit {
          kept.append("… \(texts.count - offset) more")
          break
        }
        let shown = PreviewHost.shown(text, limit: PreviewHost.entryLimit)
        bytes += shown.utf8.count
        kept.append(shown)
      }
      return kept
    }

    var json: String {
      "{\"event\":\(jsonText(event)),\"actions\":[\(actions.map(jsonText).joined(separator: ","))],"
        + "\"why\":[\(why.map(jsonText).joined(separator: ","))],\"error\":\(error.map(jsonText) ?? "null"),"
        + "\"moment\":\(moment.map(String.init) ?? "null"),\"kind\":\(jsonText(kind)),"
        + "\"time\":\(time.map(PreviewHost.clockNumber) ?? "null")}"
    }
  }

  /// `text` cut past `limit` bytes and made visible: what the panel shows of a script's text.
  nonisolated static func shown(_ text: String, limit: Int) -> String {
    VisibleText.escaped(ReportText.cut(text, limit: limit))
  }

  /// The session: the running screen, its path and options.
  package let session: ScreenSession
  /// The version of the tree the pages have.
  package internal(set) var version = 0
  var tree: PreviewTree
  var clients: [Int: PageOutbox] = [:]
  private var nextClient = 0
  var log: [LogEntry] = []
  var unsentLog: [LogEntry] = []
  var diff: [String] = []
  /// Rewind's moments (see ``PreviewTimeline``).
  var timeline = PreviewTimeline()
  /// Whether the page's Pause stopped the clock (only Step and Next move it then).
  package internal(set) var clockPaused = false
  /// The clock's time when it started (the preview shows times from it).
  var clockOrigin = 0.0
  /// How deep the host is inside a step of its own (an EVENT, a scroll): steps the screen
  /// commits meanwhile belong to it, not to the timeline as effects.
  var capturing = 0
  /// The actions committed inside the host's own step so far.
  var capturedActions: [LuaValue] = []
  /// The screen's named state at the newest moment (a transition that ends later is a moment).
  var timelinePhase: NamedStatePhase?
  /// The state of the newest moment (the next moment's changes are from it).
  var lastState: LuaValue = .nil
  /// The task moving the clock for a page's Step or Next (tests wait for it).
  package internal(set) var clockTask: Task<Void, Never>?
  var error: (message: String, file: String?, line: Int?, fromReload: Bool)?
  var status = ""
  /// The session being written as a spec (the page's Record), if any.
  package internal(set) var recorder: SpecRecorder?
  /// Whether the screen runs on a virtual clock that ``moveClock()`` moves with real time (the
  /// preview opens a screen on one, unless it was given another clock; so Rewind can pause and
  /// step it, and a recorded spec can advance its clock exactly as it moved).
  package internal(set) var drivesClock = false
  /// Whether ``tick(by:)`` is moving the clock now, and the messages that came meanwhile.
  var isTicking = false
  var waiting: [(text: String, client: Int)] = []
  /// The most messages kept waiting for a tick to end.
  nonisolated static let waitingLimit = 256
  /// When ``moveClock()`` last moved the driven clock.
  var lastTick = ContinuousClock.now
  /// How a recorded spec opens the screen besides its path and state: the payload's path and
  /// the plugin folders, as given to the CLI.
  package var recordedData: String?
  /// The session's options before the first recording changed them (offline, seeded).
  var optionsBeforeRecording: LuaScreen.Options?
  var knownAsyncErrors = 0
  private var limiter: RateLimiter

  /// Most entries kept in the action log.
  nonisolated package static let logLimit = 200
  /// Most pages connected at once.
  nonisolated package static let clientLimit = 16
  /// The most bytes queued for one page (1 MiB); past it the page gets a `full` message when
  /// it reads again (see ``PageOutbox``).
  nonisolated package static let pageBudget = 1 << 20
  /// The most bytes of one log entry's event, of each of its actions and of their list; of a
  /// warning; of the screen's name and path.
  nonisolated static let entryLimit = 1 << 10
  /// The most bytes of the state the panel shows (1 MiB).
  nonisolated static let stateLimit = 1 << 20

  /// Opens the screen, on a ``VirtualClock`` that starts at the machine's time and moves with
  /// real time (``moveClock()``) when `options` has the machine's clock; on the clock given
  /// otherwise (a test's ``VirtualClock``, moved by ``tick(by:)``).
  ///
  /// - Throws: ``ToolError`` for a missing file or a broken script.
  package init(
    path: String, options: LuaScreen.Options = .init(), plugins: PluginRequest? = nil,
    limiter: RateLimiter = RateLimiter(perSecond: 60, burst: 120)
  ) throws {
    self.limiter = limiter
    var opening = options
    if opening.clock is SystemScreenClock { opening.clock = VirtualClock(now: SystemScreenClock().now) }
    session = try ScreenSession(path: path, options: opening, plugins: plugins)
    drivesClock = opening.clock is VirtualClock
    clockOrigin = opening.clock.now
    tree = PreviewTree(screen: session.screen.renderTree())
    watch(session.screen)
    takeMoment(.start, cause: "open \(PathText.name(of: path))", logged: false)
  }

  /// How many pages are connected.
  package var clientCount: Int { clients.count }

  /// Connects a page: its id and its messages (the first is `full`), or `nil` when too many
  /// pages are connected.
  package func connect() -> (id: Int, messages: PageOutbox)? {
    guard !isStopping, clients.count < PreviewHost.clientLimit else { return nil }
    nextClient += 1
    let id = nextClient
    let outbox = PageOutbox(budget: PreviewHost.pageBudget) { [weak self] dropped in
      self?.fullMessage(dropped: dropped) ?? "{\"type\":\"closed\"}"
    }
    clients[id] = outbox
    outbox.push(fullMessage())
    return (id, outbox)
  }

  /// Forgets a page.
  package func disconnect(_ id: Int) {
    clients.removeValue(forKey: id)?.finish()
  }

  /// What was dropped for page `id` because it fell behind (`nil`: no such page).
  package func dropped(for id: Int) -> PageOutbox.Dropped? {
    clients[id]?.dropped
  }

  /// Whether the server is stopping: pages are disconnected and none may connect again.
  package private(set) var isStopping = false

  /// Ends every page's stream and refuses new pages (the server is stopping). A page whose
  /// socket closes reconnects after a moment; had that page been let in, its stream would
  /// never end and the server would wait for it for ever.
  package func disconnectAll() {
    isStopping = true
    for outbox in clients.values { outbox.finish() }
    clients.removeAll()
  }

  // MARK: - Messages from pages

  /// Handles one text frame from page `client`.
  package func receive(_ text: String, from client: Int) {
    // (While a driven clock moves, its timers deliver between awaits: a message then waits for
    // the tick to end, so a recorded event never falls inside one advance of the clock.)
    if isTicking {
      guard waiting.count < PreviewHost.waitingLimit else {
        send(patchMessage(seq: nil, problem: "too many messages while the clock moved; this one was dropped"), to: client)
        return
      }
      waiting.append((text, client))
      return
    }
    guard limiter.allow(now: ContinuousClock.now) else {
      send(patchMessage(seq: nil, problem: "too many events: at most 60 a second; this one was dropped"), to: client)
      return
    }
    let request: PreviewRequest
    do {
      request = try PreviewRequest(text: text)
    } catch {
      send(patchMessage(seq: nil, problem: "bad message from the page: \(error)"), to: client)
      return
    }
    switch request.action {
    case .sync:
      send(fullMessage(), to: client)
    case .event(let command):
      apply(command)
      broadcast(seq: request.seq, origin: client)
    case .scroll(let list, let first):
      scroll(list, to: first)
      broadcast(seq: request.seq, origin: client)
    case .record(let recording):
      handleRecording(recording, for: client)
      broadcast(seq: request.seq, origin: client)
      status = ""
    case .moment(let id):
      sendMoment(id, seq: request.seq, to: client)
    case .restore(let id):
      restore(id, seq: request.seq, for: client)
    case .clock(let clock):
      handleClock(clock, seq: request.seq, for: client)
    }
  }

  /// Applies `command` to the screen, logging it; a failure becomes the panel's error.
  package func apply(_ command: EventCommand) {
    recorder?.willApply()
    capturing += 1
    defer { capturing -= 1 }
    do {
      let step = try session.apply(command)
      recorder?.applied(command, to: session.screen)
      takeMoment(.event, cause: step.event, actions: step.actions, why: step.why)
      if error?.fromReload == false { error = nil }
    } catch {
      let toolError = ToolError.from(error)
      recorder?.failed(command, on: session.screen)
      diff = []
      record(LogEntry(event: command.description, actions: [], error: toolError.description, time: clockTime))
      setError(toolError, fromReload: false)
    }
  }

  func scroll(_ listID: String, to first: Int) {
    guard let list = try? session.screen.view(listID) as? ListView else {
      record(LogEntry(event: "scroll \(listID) \(first)", actions: [], error: "no list with id '\(listID)'", time: clockTime))
      return
    }
    capturing += 1
    capturedActions = []
    // (No subtraction that could overflow, whatever `first` is; PreviewRequest keeps it 1….)
    list.simulateScroll(toRow: first > 1 ? first - 1 : 0)
    capturing -= 1
    // A scroll that made the screen act is a step of its own.
    if !capturedActions.isEmpty {
      takeMoment(.event, cause: "scroll \(listID) \(first)", actions: capturedActions)
    } else {
      diff = []
    }
    capturedActions = []
  }

  func record(_ entry: LogEntry) {
    log.append(entry)
    unsentLog.append(entry)
    if log.count > PreviewHost.logLimit { log.removeFirst(log.count - PreviewHost.logLimit) }
    if unsentLog.count > PreviewHost.logLimit { unsentLog.removeFirst(unsentLog.count - PreviewHost.logLimit) }
  }

  func setError(_ toolError: ToolError, fromReload: Bool) {
    let message = PreviewHost.shown(toolError.description, limit: ReportText.valueLimit)
    if case .script(let scriptError) = toolError {
      error = (message, scriptError.chunk.map { PreviewHost.shown($0, limit: PreviewHost.entryLimit) }, scriptError.line, fromReload)
    } else {
      error = (message, nil, nil, fromReload)
    }
  }

  static func summary(_ action: LuaValue) -> String {
    ScreenSession.actionSummary(action)
  }

  // MARK: - Reloading and effects

  /// Reloads the script keeping the state; on failure the previous version keeps running and the
  /// error is shown. Pushes the result to every page.
  package func reload() {
    do {
      try session.reload()
      watch(session.screen)
      takeMoment(.reopen, cause: "reload \(PathText.name(of: session.path))")
      error = nil
      status = "reloaded \(PathText.name(of: session.path)) (state kept)"
      if recorder != nil {
        recorder = nil
        status += "; recording stopped (the script changed): start it again"
      }
      knownAsyncErrors = 0
    } catch {
      setError(ToolError.from(error), fromReload: true)
      status = "reload failed: the previous version keeps running"
    }
    diff = []
    broadcast(seq: nil, origin: nil)
    status = ""
  }

  /// Pushes changes made without an event (effects finishing, their errors); called on a timer.
  package func refresh() {
    guard !clients.isEmpty else { return }
    // (By count: the screen keeps its most recent errors only.)
    let count = session.screen.asyncErrorCount
    var changed = false
    if count > knownAsyncErrors, let last = session.screen.asyncErrors.last {
      // An effect's result (or a UI event nobody drove) failed: a step of its own that changed
      // nothing.
      let missed = count - knownAsyncErrors
      record(
        LogEntry(
          event: missed > 1 ? "effect (\(missed) results failed)" : "effect", actions: [], error: last.description,
          time: clockTime))
      knownAsyncErrors = count
      setError(.script(last), fromReload: false)
      changed = true
    }
    broadcast(seq: nil, origin: nil, force: changed)
  }

  // MARK: - Messages to pages

  func send(_ message: String, to client: Int) {
    clients[client]?.push(message)
  }

  /// Sends what changed to every page; `seq` only to the page that asked (`origin`). Without
  /// `seq` or `force`, nothing is sent when nothing changed.
  func broadcast(seq: Int?, origin: Int?, force: Bool = true) {
    let next = PreviewTree(screen: session.screen.renderTree())
    let operations = next.patch(from: tree)
    guard force || seq != nil || !operations.isEmpty || !unsentLog.isEmpty else { return }
    let base = version
    if !operations.isEmpty {
      version += 1
      tree = next
    }
    let body = "\"ops\":[\(operations.joined(separator: ","))],\"panel\":\(panel(log: unsentLog))}"
    unsentLog = []
    for (id, outbox) in clients {
      let echoed = id == origin ? seq.map(String.init) ?? "null" : "null"
      outbox.push("{\"type\":\"patch\",\"version\":\(version),\"base\":\(base),\"seq\":\(echoed),\(body)")
    }
  }

  func patchMessage(seq: Int?, problem: String) -> String {
    let saved = error
    error = (PreviewHost.shown(problem, limit: ReportText.valueLimit), nil, nil, false)
    defer { error = saved }
    return "{\"type\":\"patch\",\"version\":\(version),\"base\":\(version),\"seq\":\(seq.map(String.init) ?? "null"),\"ops\":[],\"panel\":\(panel(log: []))}"
  }

  /// The whole tree and panel; for a page that fell behind (`dropped`), its status says how
  /// many updates it missed.
  func fullMessage(dropped: PageOutbox.Dropped? = nil) -> String {
    var note: String?
    if let dropped, dropped.times > 0 {
      note = "this page fell behind (it read too slowly): \(dropped.messages) updates (\(dropped.bytes) bytes) were dropped "
        + "over \(dropped.times) time(s), and this is the whole screen again"
    }
    return "{\"type\":\"full\",\"version\":\(version),\"tree\":\(tree.json),\"panel\":\(panel(log: log, note: note))}"
  }

  private func panel(log entries: [LogEntry], note: String? = nil) -> String {
    let screen = session.screen
    let errorJSON = error.map { error in
      "{\"message\":\(jsonText(error.message)),\"file\":\(error.file.map(jsonText) ?? "null"),\"line\":\(error.line.map(String.init) ?? "null")}"
    }
    let name = PreviewHost.shown(screen.name ?? PathText.name(of: session.path), limit: PreviewHost.entryLimit)
    let warnings = screen.warnings.suffix(50).map { PreviewHost.shown($0, limit: PreviewHost.entryLimit) }
    return "{\"name\":\(jsonText(name)),"
      + "\"path\":\(jsonText(PreviewHost.shown(session.path, limit: PreviewHost.entryLimit))),"
      + "\"log\":[\(entries.map(\.json).joined(separator: ","))],"
      + "\"state\":\(ReportText.literal(screen.state, limit: PreviewHost.stateLimit)),"
      + "\"diff\":[\(diff.map { jsonText(VisibleText.escaped($0)) }.joined(separator: ","))],"
      + "\"error\":\(errorJSON ?? "null"),"
      + "\"warnings\":[\(warnings.map(jsonText).joined(separator: ","))],"
      + "\"recording\":\(recordingJSON),"
      + "\"timeline\":\(timelineJSON),\"clock\":\(clockJSON),\"pending\":\(pendingJSON),"
      + "\"status\":\(jsonText(VisibleText.escaped(note ?? status)))}"
  }
}
