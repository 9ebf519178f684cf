import Foundation
import SendingStateLua
import SendingStateTools

/// The screen's clock in the preview: paused, stepped and resumed from the page, and what
/// waits on it.
///
/// The preview runs a screen on a ``VirtualClock`` that starts at the machine's time and moves
/// with real time (``moveClock()``, at most ``maxTick`` a move). **Pause** stops it: timers,
/// debounces, throttle windows, delayed fakes and transitions wait, while what does not wait on
/// the clock (a fetch on the network) still finishes when it does. **Step** moves a paused
/// clock on by 1 ms to 60 s (``PreviewRequest/stepRange``), **Next** to the next timer due
/// however far; each fires what falls due in time order, every delivery a moment of its own.
/// **Resume** lets real time move it again, from where it stands (the paused time is not made
/// up). A recording writes every move down, so its spec advances as the preview did.
///
/// The panel's `clock` is `{"now", "paused", "virtual", "next"}` and `pending` lists what waits
/// (``PendingEffect``), at most ``pendingLimit`` entries: `{"number", "id", "kind", "due",
/// "window", "waiting"}`; times are seconds since the preview's clock started.
extension PreviewHost {
  /// The most pending entries a panel lists (then how many more).
  nonisolated static let pendingLimit = 50

  func handleClock(_ request: PreviewRequest.Clock, seq: Int, for client: Int) {
    guard drivesClock else {
      send(patchMessage(seq: seq, problem: "the screen's clock is not one the preview moves, so it cannot be paused or stepped"), to: client)
      return
    }
    switch request {
    case .pause:
      clockPaused = true
      status = "clock paused at \(PendingEffect.seconds(clockTime)) s: Step or Next move it, Resume lets it run"
      broadcast(seq: seq, origin: client)
      status = ""
    case .resume:
      clockPaused = false
      lastTick = .now
      status = "clock running from \(PendingEffect.seconds(clockTime)) s"
      broadcast(seq: seq, origin: client)
      status = ""
    case .step(let seconds):
      guard clockPaused else {
        send(patchMessage(seq: seq, problem: "the clock is running: Pause it first, then step it"), to: client)
        return
      }
      // (Whole milliseconds, as a recorded spec writes them.)
      step(by: max(0.001, (seconds * 1_000).rounded() / 1_000), what: "stepped \(PendingEffect.seconds(seconds)) s", seq: seq, client: client)
    case .next:
      guard clockPaused else {
        send(patchMessage(seq: seq, problem: "the clock is running: Pause it first, then step it to the next timer"), to: client)
        return
      }
      let screen = session.screen
      guard let due = screen.nextDue else {
        send(patchMessage(seq: seq, problem: "nothing waits on the screen's clock: no timer is due"), to: client)
        return
      }
      // (Rounded up to a millisecond, so the move reaches the timer.)
      let now = screen.clockNow
      var seconds = max(0.001, ((due - now) * 1_000).rounded(.up) / 1_000)
      while now + seconds < due { seconds += 0.001 }
      step(by: seconds, what: "stepped \(PendingEffect.seconds(seconds)) s to the next timer", seq: seq, client: client)
    }
  }

  /// Moves the paused clock `seconds` on in a task of its own (``clockTask``); messages that
  /// come meanwhile wait for it, as they wait for a tick.
  private func step(by seconds: Double, what: String, seq: Int, client: Int) {
    guard !isTicking else {
      send(patchMessage(seq: seq, problem: "the clock is moving already; this step was dropped"), to: client)
      return
    }
    isTicking = true
    clockTask = Task { @MainActor [weak self] in
      guard let self else { return }
      await self.advanceClock(by: seconds)
      self.status = "\(what): the clock is at \(PendingEffect.seconds(self.clockTime)) s (paused)"
      self.broadcast(seq: seq, origin: client)
      self.status = ""
      self.endTicking()
    }
  }

  /// The panel's `clock`.
  var clockJSON: String {
    let next = session.screen.nextDue.map { PreviewHost.clockNumber($0 - clockOrigin) } ?? "null"
    return "{\"now\":\(PreviewHost.clockNumber(clockTime)),\"paused\":\(clockPaused),\"virtual\":\(drivesClock),\"next\":\(next)}"
  }

  /// The panel's `pending`: what waits, soonest first, at most ``pendingLimit`` entries (a last
  /// `{"more": N}` counts the rest).
  var pendingJSON: String {
    let list = session.screen.pendingList
    var items = list.prefix(PreviewHost.pendingLimit).map { entry in
      "{\"number\":\(entry.number),\"id\":\(entry.id.map { jsonText(PreviewHost.shown($0, limit: PreviewHost.entryLimit)) } ?? "null"),"
        + "\"kind\":\(jsonText(entry.kind.rawValue)),\"due\":\(entry.due.map { PreviewHost.clockNumber($0 - clockOrigin) } ?? "null"),"
        + "\"window\":\(entry.window.map(PreviewHost.clockNumber) ?? "null"),\"waiting\":\(entry.waiting.map(jsonText) ?? "null"),"
        + "\"effect\":\(entry.effect.map(jsonText) ?? "null"),\"debounce\":\(entry.debounce.map(PreviewHost.clockNumber) ?? "null")}"
    }
    if list.count > PreviewHost.pendingLimit { items.append("{\"more\":\(list.count - PreviewHost.pendingLimit)}") }
    return "[" + items.joined(separator: ",") + "]"
  }
}
