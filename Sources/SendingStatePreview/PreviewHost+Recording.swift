import Foundation
import SendingStateLua
import SendingStateTools

/// The page's Record: the session written as a spec while it runs (``SpecRecorder``, as
/// `run --record` writes it), sent back to the page that asks with Save spec.
///
/// A spec replays only what repeats, so a recording reopens the screen from its current state
/// on a virtual clock that ``PreviewHost/moveClock()`` moves with real time, offline (every fetch
/// fails at once) and with `math.random` seeded 1; effects still running then are dropped. The
/// spec opens it the same way and advances its clock exactly as the preview moved it. The spec
/// goes to the page (a download there); the server writes no file a page could name.
extension PreviewHost {
  /// The most bytes of spec a preview records: it goes to the page in one message, within the
  /// page's queue (``pageBudget``).
  nonisolated package static let recordLimit = 256 << 10
  /// The most seconds one refresh moves a driven clock (a server that stalled does not jump
  /// the screen's time ahead).
  nonisolated static let maxTick = 1.0

  func handleRecording(_ recording: PreviewRequest.Recording, for client: Int) {
    switch recording {
    case .start: startRecording()
    case .save: saveSpec(for: client)
    case .stop:
      guard recorder != nil else {
        status = "not recording"
        return
      }
      recorder = nil
      // Fetches go out again and math.random is the script's own (the clock stays the one the
      // preview moves).
      do {
        let original = optionsBeforeRecording
        try session.restart { options in
          options.fetcher = original?.fetcher ?? options.fetcher
          options.randomSeed = original?.randomSeed
        }
        watch(session.screen)
        takeMoment(.reopen, cause: "record: stop (fetches go out again)")
        status = "recording stopped: the screen runs as before it (fetches go out again)"
      } catch {
        setError(ToolError.from(error), fromReload: false)
        status = "recording stopped; the screen did not open again (see the error)"
      }
    }
  }

  /// Why this preview's session cannot be recorded as a spec (what `ss.open` cannot open the
  /// same way), or nil.
  var unrecordable: String? {
    if !session.options.scriptRoots.isEmpty { return "it runs with --root, and a spec's ss.open has no script roots" }
    if let grants = session.plugins?.grants, grants.screen != nil || !grants.plugins.isEmpty {
      return "it runs with --grant, and a spec's ss.open gives no grants"
    }
    if let data = recordedData, data.contains("://") { return "its payload comes from a URL; save it as a file and use --data FILE" }
    return nil
  }

  /// Starts recording (again): the screen reopens from its current state as the spec will
  /// open it.
  func startRecording() {
    if let reason = unrecordable {
      status = "this session cannot be recorded: " + reason
      return
    }
    if optionsBeforeRecording == nil { optionsBeforeRecording = session.options }
    let shown = clockTime
    do {
      try session.restart { options in
        options.clock = VirtualClock()
        options.fetcher = FakeFetcher([:])
        options.randomSeed = 1
      }
    } catch {
      setError(ToolError.from(error), fromReload: false)
      status = "recording did not start: the screen did not open again (see the error)"
      return
    }
    drivesClock = true
    lastTick = .now
    // (The new clock starts at 0, as the spec's will; the preview's times go on from where they were.)
    clockOrigin = session.screen.clockNow - shown
    watch(session.screen)
    takeMoment(.reopen, cause: "record: start (offline, seeded, on a clock from 0)")
    // (Absolute paths: the page saves the spec wherever its user chooses.)
    func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
    recorder = SpecRecorder(
      screen: session.screen,
      opening: .init(
        screen: absolute(session.path), state: session.options.state, data: recordedData.map(absolute),
        plugins: (session.plugins?.explicit ?? []).map(absolute), randomSeed: 1),
      maxBytes: PreviewHost.recordLimit)
    status = "recording: the screen started again from its state, offline, on a clock the preview moves; use it, then Save spec"
  }

  /// Sends page `client` the spec recorded so far (`{"type": "spec", "name", "text"}`);
  /// recording goes on.
  func saveSpec(for client: Int) {
    guard let recorder else {
      status = "nothing recorded: press Record first"
      return
    }
    let text = recorder.spec(pending: session.screen.pendingEffects)
    let name = (PathText.name(of: session.path) as NSString).deletingPathExtension + "_spec.lua"
    let message = "{\"type\":\"spec\",\"name\":\(jsonText(VisibleText.escaped(name))),\"text\":\(jsonText(text))}"
    // (Within half the page's queue, with room for the patch that follows it.)
    guard message.utf8.count <= PreviewHost.pageBudget / 2 else {
      status = "the spec is too large to send (\(message.utf8.count) bytes): Record again for a shorter session"
      return
    }
    send(message, to: client)
    status = "spec saved: \(recorder.events) event(s)" + (recorder.stopped.map { " (the recording stopped: \($0))" } ?? "")
  }

  /// The panel's `recording`: null, or `{"events", "stopped"}`.
  var recordingJSON: String {
    guard let recorder else { return "null" }
    return "{\"events\":\(recorder.events),\"stopped\":\(recorder.stopped.map(jsonText) ?? "null")}"
  }

  /// Moves a driven clock on by the real time since the last move (the server's ticker calls
  /// it before ``refresh()``).
  package func moveClock() async {
    let now = ContinuousClock.now
    let elapsed = lastTick.duration(to: now)
    lastTick = now
    // (Paused, real time passes the screen by.)
    guard !clockPaused else { return }
    await tick(by: PreviewHost.seconds(elapsed))
  }

  /// Moves a driven clock on `seconds` (at most ``maxTick``, in whole milliseconds), delivering
  /// what falls due, and writes it down when recording; then handles the messages that came
  /// meanwhile.
  package func tick(by seconds: Double) async {
    guard drivesClock, !clockPaused, seconds > 0, !isTicking else { return }
    let step = (min(seconds, PreviewHost.maxTick) * 1_000).rounded() / 1_000
    guard step > 0 else { return }
    isTicking = true
    await advanceClock(by: step)
    endTicking()
  }

  /// Moves the driven clock on `step` seconds (whole milliseconds), delivering what falls due
  /// (each delivery a moment), and writes it down when recording.
  func advanceClock(by step: Double) async {
    do {
      try await session.screen.advance(by: step)
      recorder?.advanced(by: step, screen: session.screen)
    } catch {
      setError(ToolError.from(error), fromReload: false)
      // (A spec that advanced as far would fail the same way, at a line that says less.)
      recorder?.abandon("the clock failed to move: \(ToolError.from(error).description)")
    }
    noteTransitions()
  }

  /// Ends a move of the clock: handles the messages that came meanwhile.
  func endTicking() {
    isTicking = false
    let messages = waiting
    waiting = []
    for (text, client) in messages { receive(text, from: client) }
  }

  /// Whole seconds and their fraction of `duration`.
  nonisolated static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }
}
