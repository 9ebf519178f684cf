import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate repl SCREEN`: drive a screen interactively (or from piped stdin).
  struct Repl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Drive a screen interactively: EVENTs plus state, tree, actions, reload, help, quit.",
      discussion: """
        \(SendingStateTools.Repl.help)

        Works in a terminal and with piped stdin.

        Example:
          printf 'tap plus\\nstate\\nquit\\n' | sendingstate repl examples/counter/counter.lua
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Flag(help: "Reload the script when a .lua file beside it changes, keeping the state.")
    var watch = false

    @MainActor
    func run() async throws {
      let session: ScreenSession
      do {
        session = try ScreenSession(path: screen.screen, options: try await screen.screenOptions())
      } catch {
        throw failure(error)
      }
      let repl = SendingStateTools.Repl(session: session)
      let interactive = isatty(0) != 0
      emit(session.tree)
      if watch {
        Task { @MainActor in try? await Watcher.watch(session: session, printTree: true) }
      }
      while !repl.finished {
        if interactive { FileHandle.standardOutput.write(Data("> ".utf8)) }
        guard let line = await readLineAsync() else { break }
        let (output, isError) = await repl.handle(line)
        if output.isEmpty { continue }
        if isError {
          FileHandle.standardError.write(Data((output + "\n").utf8))
        } else {
          emit(output)
        }
      }
    }
  }
}

/// Reads a line from stdin without blocking the main actor (so --watch keeps working).
func readLineAsync() async -> String? {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(returning: readLine(strippingNewline: true))
    }
  }
}
