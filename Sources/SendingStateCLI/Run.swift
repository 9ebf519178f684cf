import ArgumentParser
import Foundation
import SendingStateLua
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate run SCREEN`: load, configure, drive with events, print.
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Load a screen, apply events, and print the render tree.",
      discussion: """
        \(EventCommand.grammar)

        Text output shows, after each event, the event, the actions dispatched, the
        state change and the new tree. After each event, run waits for the screen's
        effects (timers, fetches) up to --settle seconds (default 5) and shows each
        batch of effect results as its own step ("> effect: tick"); effects still
        running then are listed on stderr. An effect whose result fails is an error
        (stderr, exit 1). With --why, an event that did nothing says why under its
        actions ("why: 'minus' is disabled (enabled = false), …").

        --format json prints one object and nothing else on stdout (what the script
        prints goes to stderr), each step as it happens:
        { "steps": [ { "event", "actions", "state", "changes" } ], "state", "tree",
          "warnings", "pending" } (and "error" when an event failed; with --why each
        step has "why", the reasons it did nothing).
        Reports are bounded: a string value is cut past 16 KiB (its length shown), one
        step's report past 8 MiB (what is left out is counted).

        --record FILE writes the session as a spec: it opens the screen the same way,
        replays each event and asserts the whole state after it, receives each action
        effects dispatched with the change it made, and advances the virtual clock as
        the session did; it passes under `sendingstate test` at once and fails when the
        screen's behaviour changes. Recording makes the run repeatable: it runs on the
        virtual clock, fails every fetch at once (as --offline) and seeds math.random
        (--random-seed, default 1).

        Example:
          sendingstate run examples/counter/counter.lua --send 'tap plus'
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Option(name: .customLong("send"), help: "An EVENT to apply (repeatable, applied in order).")
    var events: [String] = []

    @Option(name: .customLong("events"), help: "A file of EVENTs, one a line (# starts a comment).", transform: PathText.argument)
    var eventsFile: String?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Seconds to wait for effects after each event (0: do not wait; at most a day, 86400).")
    var settle: Double = ScreenSession.defaultSettle

    @Option(help: "Write an SVG picture of the final screen to this file.", transform: PathText.argument)
    var svg: String?

    @Option(help: "Write a PNG picture of the final screen to this file.", transform: PathText.argument)
    var png: String?

    @Flag(help: "Keep running: reload the script when a .lua file beside it changes, keeping the state.")
    var watch = false

    @Flag(name: [.short, .customLong("verbose")], help: "Show Lua tracebacks with every error and warning.")
    var verbose = false

    @Flag(
      name: .customLong("virtual-clock"),
      help: "Run the screen on a virtual clock: after each event, its timers and delayed fakes due within --settle seconds fire at once, in time order (as in explore and in specs).")
    var virtualClock = false

    @Option(
      name: .customLong("invariant"),
      help: "A Lua expression over state that must hold after every event, e.g. 'state.count >= 0' (repeatable); exit 1 at the first event after which one does not.")
    var invariants: [String] = []

    @Option(
      help: "A spec file whose top-level ss.invariant([name,] function(state, view) ... end) calls must hold at the start and after every event; exit 1 at the first that does not.",
      transform: PathText.argument)
    var spec: String?

    @Option(help: "Write the session as a spec to this file (implies --virtual-clock and --offline; seeds math.random with --random-seed, default 1).", transform: PathText.argument)
    var record: String?

    @Flag(help: "Say why an EVENT did nothing: the view is disabled or hidden, nothing is registered for it, a gesture was filtered, the callback returned no action, middleware dropped it.")
    var why = false

    func validate() throws {
      if record != nil {
        if watch { throw ValidationError("--record cannot be combined with --watch (a reload starts a new session)") }
        // (What ss.open cannot do the same way: the spec would not replay the session.)
        if !screen.roots.isEmpty { throw ValidationError("--record cannot carry --root: a spec's ss.open has no script roots") }
        if !screen.pluginFlags.grants.isEmpty { throw ValidationError("--record cannot carry --grant: a spec's ss.open gives no grants") }
        if let data = screen.data, data.contains("://") {
          throw ValidationError("--record needs --data as a file (a spec opens its payload from a file): save \(data) beside the screen")
        }
      }
      guard ScreenSession.settleRange.contains(settle) else {
        throw ValidationError("--settle must be a number of seconds from 0 to \(Int(ScreenSession.settleRange.upperBound)) (a day)")
      }
    }

    @MainActor
    func run() async throws {
      showHostLines(verbose)
      var failed = false
      do {
        var commands = try events.map(EventCommand.init(parsing:))
        if let eventsFile {
          try ScriptPath.check(eventsFile, role: "events")
          commands += try EventScript.commands(inFile: eventsFile)
        }
        if let record {
          try SpecRecorder.checkTarget(record, inputs: [screen.screen, screen.data, eventsFile, spec].compactMap { $0 } + screen.pluginFlags.plugins)
        }
        var options = try await screen.screenOptions()
        let virtualClock = virtualClock || record != nil
        if virtualClock { options.clock = VirtualClock() }
        if record != nil {
          options.fetcher = FakeFetcher([:])
          options.randomSeed = options.randomSeed ?? 1
        }
        if format == .json {
          // stdout holds the report alone.
          options.output = { line in Console.line(line, to: .errors) }
        }
        let checks = try Invariants(
          invariants, spec: spec, randomSeed: options.randomSeed ?? 1, output: options.output ?? { Console.line($0, to: .errors) })
        let session = try ScreenSession(path: screen.screen, options: options, plugins: try screen.pluginFlags.request())
        let recorder = record.map { _ in
          SpecRecorder(
            screen: session.screen,
            opening: .init(
              screen: SpecRecorder.path(screen.screen, from: record), state: options.state,
              data: screen.data.map { SpecRecorder.path($0, from: record) },
              plugins: screen.pluginFlags.plugins.map { SpecRecorder.path($0, from: record) }, randomSeed: options.randomSeed ?? 1))
        }
        var effectsFailed = false
        /// Writes the recorded spec (after the session, or at an event that failed).
        func saveRecording(pending: Int) throws {
          guard let record, let recorder else { return }
          let command = (["sendingstate", "run"] + CommandLine.arguments.dropFirst(2).map(ExploreReproducer.shellQuoted)).joined(separator: " ")
          do {
            try recorder.spec(pending: pending, command: command).write(toFile: record, atomically: true, encoding: .utf8)
          } catch {
            throw ToolError.usage("--record: could not write \(record): \(error.localizedDescription)")
          }
          warn("recorded \(recorder.events) event(s) as a spec in \(record)" + (recorder.stopped.map { " (recording stopped: \($0))" } ?? ""))
          if effectsFailed { warn("warning: an effect's result failed in the session, so the recorded spec fails the same way") }
        }
        if commands.isEmpty, format == .text { emit(session.tree) }
        // (The start breaking one: no event runs.)
        let startBroken = checks.broken(by: session.screen.state, on: session.screen)
        if let startBroken {
          warn("error: at the start: " + startBroken.message)
          failed = true
        }
        // Each step is written as it happens (the JSON report too, in pieces), so the process
        // holds one step's text at a time however long the run.
        if format == .json { Console.raw(ScreenSession.jsonStart) }
        var steps = 0
        func report(_ record: ScreenSession.Record) {
          switch format {
          case .text: emit(session.text(for: record, why: why))
          case .json:
            Console.line((steps > 0 ? "," : "") + session.json(step: record, why: why))
            steps += 1
          }
        }
        var pending = 0
        do {
          for command in commands where startBroken == nil {
            recorder?.willApply()
            let step: ScreenSession.Record
            do {
              step = try session.apply(command)
            } catch {
              // The spec expects the same failure, and ends there as the session does.
              recorder?.failed(command, on: session.screen)
              try saveRecording(pending: session.screen.pendingEffects)
              throw error
            }
            report(step)
            recorder?.applied(command, to: session.screen)
            let settled =
              virtualClock
              ? try await session.settleVirtually(seconds: settle, each: report)
              : await session.settle(timeout: ScreenSession.duration(seconds: settle), each: report)
            recorder?.advanced(by: settle, screen: session.screen)
            for error in settled.errors {
              failed = true
              effectsFailed = true
              warn("error: an effect's result failed: " + (verbose ? error.fullDescription : error.description))
            }
            if settled.moreErrors > 0 { warn("error: \(settled.moreErrors) more effect results failed") }
            pending = settled.pending
            if let broken = checks.broken(by: session.screen.state, on: session.screen) {
              warn("error: after '\(command)': " + broken.message)
              failed = true
              break
            }
          }
        } catch {
          // The JSON report still ends (stdout stays one valid object), with the error in it.
          if format == .json {
            session.jsonEnd(pending: session.screen.pendingEffects, error: ToolError.from(error).description) { Console.raw($0) }
            Console.raw("\n")
          }
          throw error
        }
        if pending > 0 {
          warn(
            "warning: \(pending) effect(s) still running after waiting \(settle) s (--settle); their results are not shown "
              + "(a timer that re-arms itself never ends)")
        }
        for warning in session.screen.warnings { warn("warning: \(warning)") }
        if format == .json {
          session.jsonEnd(pending: pending) { Console.raw($0) }
          Console.raw("\n")
        }
        try saveRecording(pending: pending)
        if let svg { try SVGRenderer.write(session.screen.renderTree(), to: svg) }
        if let png { try PNGRenderer.write(session.screen.renderTree(), to: png) }
        if watch { try await Watcher.watch(session: session, printTree: true) }
      } catch {
        throw failure(error, verbose: verbose)
      }
      if failed { throw ExitCode(1) }
    }
  }
}

/// `--format`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}

/// Writes a line to standard error (made visible: see ``Console``).
func warn(_ text: String) {
  Console.line(text, to: .errors)
}
