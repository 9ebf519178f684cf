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
        return ("reloaded \(session.path) (state kept)\n" + session.tree, false)
      } catch {
        return ("error: reload failed, keeping the previous version: \(ToolError.from(error).description)", true)
      }
    default:
      do {
        let record = try session.apply(try EventCommand(parsing: command))
        await session.screen.settle(timeout: .seconds(10))
        return (session.text(for: record), false)
      } catch {
        return ("error: \(ToolError.from(error).description)", true)
      }
    }
  }
}
