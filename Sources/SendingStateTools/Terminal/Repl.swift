import Foundation
import SendingStateLua

/// The interactive mode: the EVENT grammar plus `state`, `tree`, `actions`, `pending`, `clock`,
/// `advance`, `reload`, `help`, `quit`; after each command the updated screen is shown.
///
/// ```swift
/// let repl = Repl(session: session)
/// repl.handle("tap plus")   // the step's text
/// ```
@MainActor
public final class Repl {
  /// The session the REPL drives.
  public let session: ScreenSession
  /// Whether `quit` was entered.
  public private(set) var finished = false
  /// Whether errors show their Lua traceback.
  public var verbose = false

  /// Creates a REPL over a session.
  public init(session: ScreenSession) {
    self.session = session
  }

  /// The help text.
  nonisolated public static let help = """
    Commands:
      state      print the current state (JSON)
      tree       print the render tree
      actions    list the actions dispatched so far
    \(clockHelp)
      reload     reload the script, keeping the state
      help       show this help
      quit       leave
    and any EVENT:
    \(EventCommand.grammar)
    """

  /// The REPL's own commands.
  nonisolated public static let commands = ["state", "tree", "actions", "pending", "clock", "advance", "reload", "help", "quit"]

  /// Tab completion: what can follow `words` (the words before the cursor), given the screen's
  /// `ids` and its lists' row ids (`rows`, list id → the ids in its rows): commands and EVENT
  /// verbs first, then ids, event names and gesture kinds; after `row`, the lists, and inside a
  /// row (`row items 2 tap …`), that list's row ids.
  nonisolated public static func completions(after words: [String], ids: [String], rows: [String: [String]] = [:]) -> [String] {
    guard let verb = words.first else { return commands + ["tap", "send", "set", "type", "gesture", "row"] }
    switch (verb, words.count) {
    case ("tap", 1), ("send", 1), ("set", 1), ("type", 1), ("gesture", 1): return ids
    case ("row", 1): return rows.keys.sorted()
    case ("advance", 1): return ["next"]
    case ("send", 2): return ControlEventNames.all + GestureNames.all
    case ("set", 2): return ["on", "off", "true", "false"]
    case ("gesture", 2): return GestureNames.all
    case ("gesture", _): return ["direction=", "taps=", "touches=", "duration=", "edges="]
    case ("row", 2): return []
    case ("row", _):
      return completions(after: Array(words.dropFirst(3)), ids: rows[words[1]] ?? []).filter { !commands.contains($0) && $0 != "row" }
    default: return []
    }
  }

  /// Whether the block of a typed EVENT starts with the event (`> tap plus`). A terminal
  /// already shows the line the user typed, so the CLI turns this off there; piped input is not
  /// shown, so a log of it keeps each event once.
  public var echoesEvents = true

  /// Whether an EVENT that did nothing says why (`why: 'minus' is disabled …`); on by default,
  /// since a REPL is where one tries things out.
  public var explains = true

  /// Handles one line; returns what it printed (joined) and whether it failed. The CLI uses
  /// ``handle(_:write:)``, which hands each step on as it happens instead of collecting them.
  public func handle(_ line: String) async -> (output: String, isError: Bool) {
    var pieces: [String] = []
    let failed = await handle(line) { text, _ in pieces.append(text) }
    return (pieces.joined(separator: "\n"), failed)
  }

  /// Handles one line, handing what to print to `write` piece by piece (each step as soon as it
  /// happens, with whether the piece is an error); returns whether the command failed.
  public func handle(_ line: String, write: (_ text: String, _ isError: Bool) -> Void) async -> Bool {
    let command = line.trimmingCharacters(in: .whitespaces)
    if command.isEmpty || command.hasPrefix("#") { return false }
    switch command {
    case "quit", "exit":
      finished = true
    case "help": write(Repl.help, false)
    case "state": write(ReportText.literal(session.screen.state), false)
    case "tree": write(session.tree, false)
    case "actions":
      let log = session.screen.actionLog
      guard !log.isEmpty else {
        write("(no actions yet)", false)
        return false
      }
      // (The screen keeps its most recent actions: they are numbered as dispatched.)
      let first = session.screen.actionCount - log.count
      var block = ReportText()
      if first > 0 { block.append("(the first \(first) actions are no longer kept)\n") }
      for (offset, action) in log.enumerated() {
        if block.isFull {
          block.append("\n… \(log.count - offset) more actions left out (report budget \(block.limitText))")
          break
        }
        block.append((offset > 0 ? "\n" : "") + "\(first + offset + 1). " + ScreenSession.actionSummary(action))
      }
      write(block.text, false)
    case "reload":
      do {
        try session.reload()
        for problem in session.pluginProblems { write("warning: plugin left out: \(problem)", false) }
        write("reloaded \(session.path) (state kept)\n" + session.tree, false)
      } catch {
        write("error: reload failed, keeping the previous version: \(ToolError.from(error).text(verbose: verbose))", true)
        return true
      }
    default:
      if let failed = await handleClock(command, write: write) { return failed }
      do {
        let block = session.text(for: try session.apply(try EventCommand(parsing: command)), why: explains)
        write(echoesEvents ? block : String(block.drop { $0 != "\n" }.dropFirst()), false)
      } catch {
        write("error: \(ToolError.from(error).text(verbose: verbose))", true)
        return true
      }
      // A virtual clock stands still until `advance`: only what is due at once arrives now.
      if isVirtual { return await settleVirtually(seconds: 0, write: write) }
      let settled = await session.settle(timeout: .seconds(ScreenSession.defaultSettle)) { record in
        write(session.text(for: record), false)
      }
      if settled.pending > 0 { write("(\(settled.pending) effect(s) still running)", false) }
      if let failure = settled.errors.first {
        write("error: an effect's result failed: " + (verbose ? failure.fullDescription : failure.description), true)
        return true
      }
    }
    return false
  }
}
