import ArgumentParser
import SendingStateTools

/// `sendingstate`: run, drive, test and check Lua screens on the headless toolkit.
@main
struct SendingStateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sendingstate",
    abstract: "Run, drive, test and check SendingState screens written in Lua.",
    discussion: """
      Screens are Lua scripts on a headless UI toolkit: state flows in through configure,
      intent flows out through events and handle. Exit codes: 0 success, 1 a script error
      (file:line on stderr), 2 a usage error.
      """,
    version: "0.1.0",
    subcommands: [Run.self, Test.self, Check.self, Repl.self, Stubs.self, Preview.self]
  )
}
