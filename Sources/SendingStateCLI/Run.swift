import ArgumentParser
import Foundation
import SendingStateLua
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate run SCREEN`: load, configure, drive with events, print.
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load a screen, apply events, and print the render tree.",
      discussion: """
        \(EventCommand.grammar)

        Text output shows, after each event, the event, the actions dispatched, the state
        change and the new tree. --format json prints one object:
        { "steps": [ { "event", "actions", "state", "changes" } ], "state", "tree", "warnings" }.

        Example:
          sendingstate run examples/counter/counter.lua --send 'tap plus' --send 'tap plus'
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Option(name: .customLong("send"), help: "An EVENT to apply (repeatable, applied in order).")
    var events: [String] = []

    @Option(name: .customLong("events"), help: "A file of EVENTs, one a line (# starts a comment).")
    var eventsFile: String?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Write an SVG picture of the final screen to this file.")
    var svg: String?

    @Option(help: "Write a PNG picture of the final screen to this file.")
    var png: String?

    @Flag(help: "Keep running: reload the script when a .lua file beside it changes, keeping the state.")
    var watch = false

    @MainActor
    func run() async throws {
      do {
        var commands = try events.map(EventCommand.init(parsing:))
        if let eventsFile { commands += try EventScript.commands(inFile: eventsFile) }
        let session = try ScreenSession(path: screen.screen, options: try await screen.screenOptions())
        if commands.isEmpty, format == .text { emit(session.tree) }
        for command in commands {
          let record = try session.apply(command)
          await session.screen.settle(timeout: .seconds(10))
          if format == .text { emit(session.text(for: record)) }
        }
        for warning in session.screen.warnings {
          FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
        }
        if format == .json { emit(session.json()) }
        if let svg { try SVGRenderer.write(session.screen.root.renderTree(), to: svg) }
        if let png { try PNGRenderer.write(session.screen.root.renderTree(), to: png) }
        if watch { try await Watcher.watch(session: session, printTree: true) }
      } catch {
        throw failure(error)
      }
    }
  }
}

/// `--format`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}
