import ArgumentParser
import Foundation
import SendingStateTools

/// `sendingstate`: run, drive, test and check Lua screens on the headless toolkit.
@main
struct SendingStateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sendingstate",
    abstract: "Run, drive, test and check SendingState screens written in Lua.",
    discussion: """
      Screens are Lua scripts on a headless UI toolkit: state flows in through
      configure, intent flows out through events and handle.

      Exit codes: 0 success, 1 a script error or a failing test (file:line on
      stderr), 2 a usage error (bad arguments, a missing file, an unknown id).

      Shell completions: sendingstate --generate-completion-script bash|zsh|fish
      (e.g. sendingstate --generate-completion-script bash > \\
      /etc/bash_completion.d/sendingstate).
      """,
    version: "0.1.0",
    subcommands: [Run.self, Test.self, Check.self, Repl.self, Stubs.self, Init.self, Preview.self, Plugins.self]
  )

  /// Runs the command; usage errors exit with 2 (argument-parser's own code is 64, EX_USAGE).
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      await releaseBeforeExit()
    } catch {
      await releaseBeforeExit()
      if exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
        Foundation.exit(2)
      }
      exit(withError: error)
    }
  }

  /// Lets the main actor run the deinitializers the command's objects queued there (screens and
  /// their views), so nothing is alive when the process exits (LeakSanitizer checks at exit).
  @MainActor
  static func releaseBeforeExit() async {
    await Task.yield()
  }
}
