import ArgumentParser
import Foundation
import SendingStateLua
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate repl SCREEN`: drive a screen interactively (or from piped stdin).
  struct Repl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "repl",
      abstract: "Drive a screen interactively (EVENTs, state, tree, actions, reload).",
      discussion: """
        \(SendingStateTools.Repl.help)

        In a terminal: arrows, Home/End and Emacs keys (Ctrl-A/E/K/U/W) edit the line,
        Up/Down walk the history (kept in ~/.sendingstate_history), Tab completes
        commands, view ids, event names and gesture kinds (twice: lists them).

        With piped stdin, commands are read one a line; the exit code is 1 if any
        command failed.

        Example:
          printf 'tap plus\\nstate\\n' | sendingstate repl examples/counter/counter.lua
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Flag(help: "Reload the script when a .lua file beside it changes, keeping the state.")
    var watch = false

    @Flag(
      name: .customLong("virtual-clock"),
      help: "Run the screen on a virtual clock from 0 that moves only with advance (its timers wait until then; see pending).")
    var virtualClock = false

    @Flag(name: [.short, .customLong("verbose")], help: "Show Lua tracebacks with every error.")
    var verbose = false

    @MainActor
    func run() async throws {
      showHostLines(verbose)
      let session: ScreenSession
      do {
        var options = try await screen.screenOptions()
        if virtualClock { options.clock = VirtualClock() }
        session = try ScreenSession(path: screen.screen, options: options, plugins: try screen.pluginFlags.request())
      } catch {
        throw failure(error, verbose: verbose)
      }
      let repl = SendingStateTools.Repl(session: session)
      repl.verbose = verbose
      let interactive = isatty(0) != 0 && isatty(1) != 0
      repl.echoesEvents = !interactive  // (the terminal shows the typed line already)
      emit(session.tree)
      if watch {
        Task { @MainActor in try? await Watcher.watch(session: session, printTree: true) }
      }
      let reader = interactive
        ? TerminalLineReader(historyFile: TerminalLineReader.defaultHistoryFile) {
          [ids = session.screen.ids, rows = session.screen.rowIDsByList] words, _ in
          SendingStateTools.Repl.completions(after: words, ids: ids, rows: rows)
        } : nil
      var failed = false
      while !repl.finished {
        guard let line = await readLineAsync(reader) else { break }
        // Each step is printed as it happens (a timer that re-arms itself makes steps for as
        // long as the wait lasts).
        if await repl.handle(line, write: { text, isError in Console.line(text, to: isError ? .errors : .output) }) {
          failed = true
        }
      }
      if failed && !interactive { throw ExitCode(1) }
    }
  }
}

/// Reads a line from stdin (through the line editor in a terminal) without blocking the main
/// actor, so --watch keeps working.
func readLineAsync(_ reader: TerminalLineReader?) async -> String? {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(returning: reader.map { $0.readLine(prompt: "> ") } ?? readLine(strippingNewline: true))
    }
  }
}
