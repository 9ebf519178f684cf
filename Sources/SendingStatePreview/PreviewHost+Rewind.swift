import Foundation
import SendingState
import SendingStateHeadless
import SendingStateLua
import SendingStateTools

/// Rewind: the timeline of moments (``PreviewTimeline``), a past moment sent to the page that
/// asks, and a restore that opens the screen again with a past moment's state.
///
/// A restore goes the way every start state goes: the screen is opened anew with that state
/// (``ScreenSession/restart(state:changing:)``), so the script's schema and rules check it, and
/// a state they refuse leaves the running screen, its effects and the timeline exactly as they
/// were. What a moment held besides its state does not come back: its effects were tasks, and
/// the restored screen starts with none of them (except those its opening starts), on the
/// clock as it is now (a clock never goes back). The moments after the restored one are
/// dropped — the timeline is one line, and what follows is a new future — and a `restore`
/// moment is taken; a recording stops (a spec cannot jump back).
extension PreviewHost {
  /// The screen's clock, in seconds since the preview's clock started.
  var clockTime: Double { session.screen.clockNow - clockOrigin }

  /// Seconds as the panel sends them: milliseconds, as a JSON number.
  nonisolated static func clockNumber(_ seconds: Double) -> String {
    seconds.isFinite ? PendingEffect.seconds(seconds) : "null"
  }

  /// Watches `screen` (just opened) for the steps nobody sent: each committed step outside the
  /// host's own becomes a moment (an effect's result, a timer's actions, a transition's). An
  /// observer set before stays one.
  func watch(_ screen: LuaScreen) {
    let previous = screen.onCommittedEvent
    screen.onCommittedEvent = { [weak self] actions in
      previous?(actions)
      self?.committedOutside(actions)
    }
  }

  private func committedOutside(_ actions: [LuaValue]) {
    guard capturing == 0 else {
      capturedActions += actions
      return
    }
    // (The log lists the actions beside the step: its line says only what caused them.)
    takeMoment(.effect, cause: "effect: \(ScreenSession.summaries(of: actions))", actions: actions, event: "effect")
  }

  /// After the clock moved: a named state's transition that ended meanwhile changed the views
  /// without an action (a transition's `done` runs read-only), so no step was logged for it; it
  /// becomes a moment here.
  func noteTransitions() {
    let phase = session.screen.namedState
    guard phase != timelinePhase else { return }
    takeMoment(.transition, cause: "transition: \(PreviewHost.describe(timelinePhase)) → \(PreviewHost.describe(phase))")
  }

  nonisolated static func describe(_ phase: NamedStatePhase?) -> String {
    switch phase {
    case nil: "no named state"
    case .ready(let current)?: current ?? "none"
    case .inTransition(let previous, let target)?: "\(previous ?? "none") to \(target) (in transition)"
    }
  }

  /// Takes a moment of the screen as it is now, and (unless `logged` is false) logs it as the
  /// panel's newest step (its line says `event`, else the moment's cause).
  @discardableResult
  func takeMoment(
    _ kind: PreviewTimeline.Kind, cause: String, actions: [LuaValue] = [], why: [String] = [], event: String? = nil,
    logged: Bool = true
  ) -> Int {
    let screen = session.screen
    let state = try? screen.readState()
    let now = state ?? screen.state
    let changes = StateDiff.lines(from: lastState, to: now)
    var shownDiff = changes.prefix(PreviewTimeline.diffLimit).map { VisibleText.escaped(ReportText.cut($0, limit: PreviewHost.entryLimit)) }
    if changes.count > PreviewTimeline.diffLimit { shownDiff.append("… \(changes.count - PreviewTimeline.diffLimit) more changes") }
    // (The first moment has no step before it: its changes are not shown as the newest step's.)
    if kind != .start { diff = shownDiff }
    lastState = now
    let renderTree = screen.renderTree()
    var text = ReportText(limit: PreviewTimeline.treeTextLimit)
    text.appendTree(renderTree)
    let time = clockTime
    timelinePhase = screen.namedState
    let id = timeline.append(
      .init(
        kind: kind, cause: PreviewHost.shown(cause, limit: PreviewHost.entryLimit), time: time, state: state,
        stateJSON: ReportText.literal(screen.state, limit: PreviewHost.stateLimit), diff: shownDiff,
        treeJSON: PreviewTree(screen: renderTree).json, treeText: text.text))
    let entry = LogEntry(
      event: event ?? cause, actions: actions.map(PreviewHost.summary), why: why, error: nil, moment: id, kind: kind.rawValue, time: time)
    if logged { record(entry) } else { log.append(entry) }
    return id
  }

  /// The panel's `timeline`: `{"ids": [the moments kept], "bytes", "limit", "byteLimit"}`.
  var timelineJSON: String {
    let moments = timeline.moments
    return "{\"ids\":[\(moments.map { String($0.id) }.joined(separator: ","))],\"bytes\":\(timeline.bytes),"
      + "\"limit\":\(PreviewTimeline.momentLimit),\"byteLimit\":\(PreviewTimeline.byteBudget)}"
  }

  /// Sends page `client` the moment `id`: `{"type": "moment", "seq", "moment": {"id", "kind",
  /// "cause", "time", "diff", "state", "tree", "text"}}`, or, for a moment the timeline does not
  /// hold, an error naming the ones it does.
  func sendMoment(_ id: Int, seq: Int, to client: Int) {
    let moment: PreviewTimeline.Moment
    do {
      moment = try timeline.moment(id)
    } catch {
      send(patchMessage(seq: seq, problem: error.description), to: client)
      return
    }
    let body =
      "{\"id\":\(moment.id),\"kind\":\(jsonText(moment.kind.rawValue)),\"cause\":\(jsonText(moment.cause)),"
      + "\"time\":\(PreviewHost.clockNumber(moment.time)),\"restorable\":\(moment.state != nil),"
      + "\"diff\":[\(moment.diff.map(jsonText).joined(separator: ","))],\"state\":\(moment.stateJSON),"
      + "\"tree\":\(moment.treeJSON),\"text\":\(jsonText(VisibleText.escaped(moment.treeText)))}"
    let message = "{\"type\":\"moment\",\"seq\":\(seq),\"moment\":\(body)}"
    // (Within half the page's queue, as a saved spec: a bigger one would drop the page's queue.)
    guard message.utf8.count <= PreviewHost.pageBudget / 2 else {
      send(
        patchMessage(
          seq: seq,
          problem: "moment #\(id) is too large to show (\(message.utf8.count) bytes; at most \(PreviewHost.pageBudget / 2)): its state and tree are past what a page is sent at once"),
        to: client)
      return
    }
    send(message, to: client)
  }

  /// Opens the screen again with the state of moment `id` (see the extension's notes); every
  /// page gets the whole screen again. A moment the timeline does not hold, one whose state
  /// cannot be read, or a state the script refuses is an error for page `client`, and nothing
  /// changes.
  func restore(_ id: Int, seq: Int, for client: Int) {
    let moment: PreviewTimeline.Moment
    do {
      moment = try timeline.moment(id)
    } catch {
      send(patchMessage(seq: seq, problem: "cannot restore: \(error.description)"), to: client)
      return
    }
    guard let state = moment.state else {
      send(
        patchMessage(
          seq: seq,
          problem: "cannot restore moment #\(id): its state could not be read as data (a table whose keys Swift would merge); pick another moment"),
        to: client)
      return
    }
    do {
      try session.restart(state: state)
    } catch {
      send(
        patchMessage(seq: seq, problem: "cannot restore moment #\(id): the screen refused its state, and keeps running as it was: \(ToolError.from(error).description)"),
        to: client)
      return
    }
    watch(session.screen)
    knownAsyncErrors = 0
    var note = ""
    if recorder != nil {
      recorder = nil
      note = "; recording stopped (a spec cannot go back in time): start it again"
    }
    // The later timeline goes: the moments after #id, and the log's lines after its entry.
    timeline.drop(after: id)
    if let position = log.lastIndex(where: { $0.moment == id }) { log.removeSubrange((position + 1)...) }
    unsentLog = []
    lastState = state
    takeMoment(.restore, cause: "restore #\(id) (\(moment.cause))")
    if error?.fromReload == false { error = nil }
    status = "restored moment #\(id): the screen opened again with its state; the moments after it are dropped" + note
    // Every page gets the whole screen, its log without the dropped lines.
    tree = PreviewTree(screen: session.screen.renderTree())
    version += 1
    unsentLog = []
    // (No echo of `seq`: a full message ends every answer a page awaits.)
    for outbox in clients.values { outbox.push(fullMessage()) }
    status = ""
  }
}
