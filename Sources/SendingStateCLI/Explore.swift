import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate explore SCREEN`: random events from what the screen registers, invariants
  /// checked after each, a failure shrunk and printed as a command and a spec.
  struct Explore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "explore",
      abstract: "Send a screen random events a user could send, and check it never fails.",
      discussion: """
        The events come from what the screen registers (its on(...) senders and
        events, in list rows too) on the views a user can reach now, with values a
        user could give: both sides of a switch, values within a slider's range,
        segments, text typed into fields, gestures with the parameters they ask for.
        Each run starts from a fresh screen; after each event the screen's clock, a
        virtual one, moves on --settle seconds, so its timers and delayed fakes fire.
        Explore is offline: every fetch fails at once (as with run --offline), so a
        failure replays the same way.

        After every event: no script error (a bad state is one: the schema is
        checked by every update), each --invariant holds, and so does each
        ss.invariant([name,] function(state, view) ... end) at the top level of the
        --spec file (only its top level runs: describe, it and the hooks are skipped). A failure is shrunk to
        a short list of events that fails the same way, printed as a `run` command
        that replays it and as a spec (--save-spec FILE writes it); exit 1.
        Deterministic by --seed; progress goes to stderr about once a second.

        Example:
          sendingstate explore examples/counter/counter.lua --invariant 'state.count >= 0'
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Option(help: "The seed of the events chosen (the same seed sends the same events).")
    var seed: UInt64 = 1

    @Option(help: "The most events to send.")
    var events = 2_000

    @Option(help: "The most seconds to explore (shrinking a failure may take as long again).")
    var time = 30.0

    @Option(help: "Virtual seconds the screen's clock moves on after each event.")
    var settle = 5.0

    @Option(
      name: .customLong("invariant"),
      help: "A Lua expression over state that must hold after every event, e.g. 'state.count >= 0' (repeatable).")
    var invariants: [String] = []

    @Option(
      help: "A spec file whose top-level ss.invariant([name,] function(state, view) ... end) calls must hold after every event.",
      transform: PathText.argument)
    var spec: String?

    @Option(name: .customLong("save-spec"), help: "Write the failure's spec to this file.", transform: PathText.argument)
    var saveSpec: String?

    @Flag(name: [.short, .customLong("verbose")], help: "Show Lua tracebacks with every error.")
    var verbose = false

    func validate() throws {
      guard events >= 1, events <= 10_000_000 else { throw ValidationError("--events must be from 1 to 10,000,000") }
      guard time > 0, time <= 86_400 else { throw ValidationError("--time must be a number of seconds from 0 to 86400 (a day)") }
      guard settle >= 0, settle <= 86_400 else { throw ValidationError("--settle must be from 0 to 86400 seconds") }
    }

    /// The arguments that opened the screen, as given, for the replay command.
    var screenArguments: [String] {
      var words: [String] = []
      if let state = screen.state { words += ["--state", state] }
      if let data = screen.data { words += ["--data", data] }
      for root in screen.roots { words += ["--root", root] }
      for plugin in screen.pluginFlags.plugins { words += ["--plugin", plugin] }
      for grant in screen.pluginFlags.grants { words += ["--grant", grant] }
      if screen.pluginFlags.locked { words.append("--locked") }
      return words
    }

    @MainActor
    func run() async throws {
      showHostLines(verbose)
      var options = Explorer.Options()
      options.seed = seed
      options.events = events
      options.time = ScreenSession.duration(seconds: time)
      options.settle = settle
      options.invariants = invariants
      options.spec = spec
      let report: Explorer.Report
      let explorer: Explorer
      do {
        options.screen = try await screen.screenOptions()
        explorer = try Explorer(path: screen.screen, options: options)
        report = try await explorer.run { line in warn(line) }
      } catch {
        throw failure(error, verbose: verbose)
      }
      let summary =
        "explored \(screen.screen): \(report.events) events in \(report.runs) run\(report.runs == 1 ? "" : "s") (seed \(seed)), "
        + "\(report.distinctStates) distinct states, \(report.sendersReached) of \(report.sendersSeen) senders made an action"
      guard let found = report.failure else {
        emit(summary + "; no failure")
        return
      }
      emit(summary)
      emit("FAILED: " + found.message)
      emit("shrunk from \(report.unshrunkLength) events to \(found.events.count):")
      for event in found.events { emit("  " + event.description) }
      emit("replay it:")
      emit("  " + ExploreReproducer.command(for: found, path: screen.screen, options: options, screenArguments: screenArguments))
      let spec = ExploreReproducer.spec(
        for: found, screenPath: screen.screen, options: options, state: options.screen.state, data: screen.data)
      if let saveSpec {
        do {
          try spec.write(toFile: saveSpec, atomically: true, encoding: .utf8)
        } catch {
          throw failure(ToolError.usage("could not write \(saveSpec): \(error.localizedDescription)"), verbose: verbose)
        }
        emit("spec written to \(saveSpec)")
      } else {
        emit("as a spec (--save-spec FILE writes it):")
        emit(spec)
      }
      throw ExitCode(1)
    }
  }
}
