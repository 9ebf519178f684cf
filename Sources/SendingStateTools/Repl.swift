import Foundation
import SendingStateLua

/// The interactive mode: the EVENT grammar plus `state`, `tree`, `actions`, `reload`, `help`,
/// `quit`; after each command the updated screen is shown.
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
      reload     reload the script, keeping the state
      help       show this help
      quit       leave
    and any EVENT:
    \(EventCommand.grammar)
    """

  /// The REPL's own commands.
  nonisolated public static let commands = ["state", "tree", "actions", "reload", "help", "quit"]

  /// Tab completion: what can follow `words` (the words before the cursor), given the screen's
  /// `ids`: commands and EVENT verbs first, then ids, event names and gesture kinds.
  nonisolated public static func completions(after words: [String], ids: [String]) -> [String] {
    guard let verb = words.first else { return commands + ["tap", "send", "set", "type", "gesture", "row"] }
    switch (verb, words.count) {
    case ("tap", 1), ("send", 1), ("set", 1), ("type", 1), ("gesture", 1), ("row", 1): return ids
    case ("send", 2): return ControlEventNames.all + GestureNames.all
    case ("set", 2): return ["on", "off", "true", "false"]
    case ("gesture", 2): return GestureNames.all
    case ("gesture", _): return ["direction=", "taps=", "touches=", "duration=", "edges="]
    case ("row", 2): return []
    case ("row", _): return completions(after: Array(words.dropFirst(3)), ids: ids).filter { !commands.contains($0) && $0 != "row" }
    default: return []
    }
  }

  /// Handles one line; returns what to print and whether it was an error.
  public func handle(_ line: String) async -> (output: String, isError: Bool) {
    let command = line.trimmingCharacters(in: .whitespaces)
    if command.isEmpty || command.hasPrefix("#") { return ("", false) }
    switch command {
    case "quit", "exit":
      finished = true
      return ("", false)
    case "help": return (Repl.help, false)
    case "state": return (StateDiff.literal(session.screen.state), false)
    case "tree": return (session.tree, false)
    case "actions":
      let log = session.screen.actionLog.map(ScreenSession.actionSummary)
      return (log.isEmpty ? "(no actions yet)" : log.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n"), false)
    case "reload":
      do {
        try session.reload()
        let left = session.pluginProblems.map { "warning: plugin left out: \($0)\n" }.joined()
        return (left + "reloaded \(session.path) (state kept)\n" + session.tree, false)
      } catch {
        return ("error: reload failed, keeping the previous version: \(ToolError.from(error).text(verbose: verbose))", true)
      }
    default:
      do {
        let record = try session.apply(try EventCommand(parsing: command))
        let settled = await session.settle(timeout: .seconds(ScreenSession.defaultSettle))
        var text = ([record] + settled.records).map(session.text(for:)).joined(separator: "\n")
        if settled.pending > 0 { text += "\n(\(settled.pending) effect(s) still running)" }
        if let failure = settled.errors.first {
          return (text + "\nerror: an effect's result failed: " + (verbose ? failure.fullDescription : failure.description), true)
        }
        return (text, false)
      } catch {
        return ("error: \(ToolError.from(error).text(verbose: verbose))", true)
      }
    }
  }
}
