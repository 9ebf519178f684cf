import SendingStateLua

/// The REPL's clock commands: `pending` lists what the screen waits for, `clock` says where its
/// clock stands, `advance SECONDS` and `advance next` step a virtual clock (`repl
/// --virtual-clock`), each delivery shown as a step of its own.
///
/// On a virtual clock the screen's time stands still between commands (paused, as the preview's
/// Pause), so a timer, a debounce or a delayed fake waits until `advance` passes it; after each
/// EVENT the REPL moves it by 0 only, so what is due at once (a fake's answer of no delay)
/// arrives. On the machine's clock effects run in real time and `advance` is refused.
extension Repl {
  /// The most seconds one `advance` moves the clock (a day, as `run --settle`).
  nonisolated static let advanceRange = ScreenSession.settleRange

  /// The clock commands' help lines.
  nonisolated static let clockHelp = """
      pending    list what waits: effects, throttle windows, transitions
      clock      where the screen's clock stands, and the next timer due
      advance S  move a virtual clock (repl --virtual-clock) on S seconds
      advance next  move a virtual clock to the next timer due
    """

  /// Whether the screen runs on a ``VirtualClock``.
  var isVirtual: Bool { session.screen.options.clock is VirtualClock }

  /// Handles `command` when it is a clock command (nil otherwise); returns whether it failed.
  func handleClock(_ command: String, write: (_ text: String, _ isError: Bool) -> Void) async -> Bool? {
    let words = command.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    switch words.first {
    case "pending" where words.count == 1:
      write(pendingText, false)
      return false
    case "clock" where words.count == 1:
      write(clockText, false)
      return false
    case "advance":
      guard words.count == 2 else {
        write("error: expected 'advance SECONDS' or 'advance next'", true)
        return true
      }
      return await advance(words[1], write: write)
    default:
      return nil
    }
  }

  /// What the screen waits for, one line each, soonest first.
  var pendingText: String {
    let screen = session.screen
    let list = screen.pendingList
    guard !list.isEmpty else { return "(nothing pending)" }
    var block = ReportText()
    for (offset, entry) in list.enumerated() {
      if block.isFull {
        block.append("\n… \(list.count - offset) more left out (report budget \(block.limitText))")
        break
      }
      block.append((offset > 0 ? "\n" : "") + entry.summary(now: screen.clockNow))
    }
    if !isVirtual { block.append("\n(the machine's clock: due times show on a virtual clock, repl --virtual-clock)") }
    return block.text
  }

  /// The clock's time and the next timer.
  var clockText: String {
    let screen = session.screen
    guard isVirtual else {
      return "clock: the machine's (effects run in real time; repl --virtual-clock runs the screen on a clock you advance)"
    }
    let now = screen.clockNow
    var text = "clock: virtual, at \(PendingEffect.seconds(now)) s (it moves only with advance)"
    if let due = screen.nextDue {
      text += "; next timer due at \(PendingEffect.seconds(due)) (in \(PendingEffect.seconds(max(0, due - now))) s)"
    } else {
      text += "; no timer waits"
    }
    return text
  }

  private func advance(_ word: String, write: (_ text: String, _ isError: Bool) -> Void) async -> Bool {
    guard isVirtual else {
      write("error: the screen runs on the machine's clock, which cannot be advanced; start the repl with --virtual-clock", true)
      return true
    }
    let screen = session.screen
    let seconds: Double
    if word == "next" {
      guard let due = screen.nextDue else {
        write("error: nothing waits on the screen's clock: no timer is due (see pending)", true)
        return true
      }
      seconds = max(0, due - screen.clockNow)
    } else {
      guard let number = Double(word), number.isFinite, Repl.advanceRange.contains(number) else {
        write("error: advance takes seconds from 0 to \(Int(Repl.advanceRange.upperBound)) (or next), not '\(word.prefix(40))'", true)
        return true
      }
      seconds = number
    }
    return await settleVirtually(seconds: seconds, write: write)
  }

  /// Moves the virtual clock on `seconds`, writing what fell due as steps; returns whether an
  /// effect's result failed.
  func settleVirtually(seconds: Double, write: (_ text: String, _ isError: Bool) -> Void) async -> Bool {
    let start = session.screen.clockNow
    let settled: ScreenSession.Settled
    do {
      settled = try await session.settleVirtually(seconds: seconds) { record in write(session.text(for: record), false) }
    } catch {
      write("error: \(ToolError.from(error).text(verbose: verbose))", true)
      return true
    }
    if seconds > 0 || settled.steps > 0 {
      write("(clock at \(PendingEffect.seconds(session.screen.clockNow)) s, moved \(PendingEffect.seconds(session.screen.clockNow - start)) s; \(settled.pending) effect(s) pending)", false)
    }
    if let failure = settled.errors.first {
      write("error: an effect's result failed: " + (verbose ? failure.fullDescription : failure.description), true)
      return true
    }
    return false
  }
}
