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
    subcommands: [Run.self, Test.self, Check.self, Repl.self, Explore.self, Stubs.self, Init.self, Preview.self, Plugins.self]
  )

  /// Runs the command; usage errors exit with 2 (argument-parser's own code is 64, EX_USAGE).
  /// Everything argument-parser would print (help, errors quoting the arguments) goes through
  /// ``Console``; a write that failed (`> /dev/full`) is said on stderr, and the exit is 1.
  static func main() async {
    Console.prepareStandardStreams()
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      await releaseBeforeExit()
      Foundation.exit(outputFailed() ? 1 : 0)
    } catch {
      await releaseBeforeExit()
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if !message.isEmpty { Console.line(message, to: code == .success ? .output : .errors) }
      let status = code == .validationFailure ? 2 : code.rawValue
      Foundation.exit(outputFailed() && status == 0 ? 1 : status)
    }
  }

  /// Whether a write to stdout or stderr failed; says so (on stderr, if it still takes it).
  static func outputFailed() -> Bool {
    guard let first = Console.failed.first else { return false }
    Console.line(first, to: .errors, label: .error)
    return true
  }

  /// Lets the main actor run the deinitializers the command's objects queued there (screens and
  /// their views), so nothing is alive when the process exits (LeakSanitizer checks at exit).
  @MainActor
  static func releaseBeforeExit() async {
    await Task.yield()
  }
}
