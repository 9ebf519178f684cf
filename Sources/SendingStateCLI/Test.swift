import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate test [PATH…]`: run Lua specs on busted and luassert.
  struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "test",
      abstract: "Run Lua specs with busted and luassert, and a screen driver.",
      discussion: """
        Specs run on Debian's busted 2.1.1 and luassert 1.9.0, as busted runs
        them: describe, it, pending, setup/teardown, lazy_setup, strict_setup,
        before_each/after_each, finally, insulate/expose, #tags; assert, spy,
        stub, mock, match. Options and .busted work as in busted; with no PATH,
        the ROOT of .busted (or spec/) runs. Modules load as in busted: ./src
        (--lpath), ./csrc (--cpath), then package.path; slash names such as
        'spec/helper' work from the project root.

        Screen driver:
          local ss = require "sendingstate"
          local screen = ss.open("counter.lua", { state = {}, data = "p.json" })
        Paths are looked up beside the spec, then from the project root (the
        nearest folder with .busted, .git or .luarc.json). Then screen:tap(id),
        screen:send(id, event), screen:set(id, value), screen:type(id, text),
        screen:gesture(id, kind [, params]), screen:row(list, index),
        screen:settle([seconds]) (waits for effects; fails listing what is
        still pending), screen.state, screen.view.<id>.<prop>, screen.actions,
        screen.pending, screen:tree(), screen:close(), and
        assert.tree_matches(screen, "name") (a snapshot in __snapshots__/ beside
        the spec; --update-snapshots records it), assert.picture_matches(screen,
        "name" [, { tolerance = 0.0001 }]) (the screen's PNG against name.png
        there, pixel by pixel; a mismatch writes name.actual.png and
        name.diff.png beside it). A screen opened in a test closes when the test
        ends.

        The driver's methods mirror the EVENT grammar of `run` and `repl`:
        \(EventCommand.grammar)

        An error, a failed assertion or a timeout fails its test alone, with the
        spec's file:line; what a test prints is shown under it. --timeout bounds
        each test body, hook and block body, in coroutines and in library
        functions that loop in C too, and a pcall cannot catch it. os.exit is an
        error at its line (a caught one fails its test when the test returns):
        no spec ends the run. The last line is exactly "N passed, N failed"
        (", N skipped" when some were; on stderr with --output TAP/junit/json);
        the exit code is 1 if any test failed.

        Coverage: --coverage (or coverage = true in .busted; --no-coverage
        overrides it) counts the lines of screens, their modules and plugins'
        scripts, and of the project's modules specs require (not spec files,
        busted, nor the host's own Lua). Lines are those that hold code; one
        that never ran counts 0. It writes coverage/lcov.info (LCOV, paths
        relative to the current folder: genhtml coverage/lcov.info -o
        coverage/html) and prints a table of hits, missed lines and percent per
        file, with the total, before the closing line.

        Examples:
          sendingstate test
          sendingstate test examples --tags screens --output TAP
          sendingstate test spec/counter_spec.lua --filter "increments" --verbose
        """
    )

    @Argument(help: "Spec files or folders (default: the ROOT of .busted, or spec/).")
    var paths: [String] = []

    @Option(name: [.customShort("p"), .customLong("pattern")], help: "Only spec files whose name matches this Lua pattern (repeatable; default _spec).")
    var patterns: [String] = []

    @Option(name: .customLong("exclude-pattern"), help: "Leave out spec files whose name matches this Lua pattern (repeatable).")
    var excludePatterns: [String] = []

    @Option(name: .customLong("filter"), help: "Only tests whose full name matches this Lua pattern (repeatable).")
    var filters: [String] = []

    @Option(name: .customLong("filter-out"), help: "Leave out tests whose full name matches this Lua pattern (repeatable).")
    var filtersOut: [String] = []

    @Option(name: [.customShort("t"), .customLong("tags")], help: "Only tests with one of these #tags (comma-separated, repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: "Leave out tests with one of these #tags (comma-separated, repeatable).")
    var excludeTags: [String] = []

    @Flag(name: [.short, .customLong("list")], help: "List the tests' names (with file:line) instead of running them.")
    var list = false

    @Flag(help: "Run files and tests in a random order (see --seed).")
    var shuffle = false

    @Flag(help: "Run files and tests sorted by name.")
    var sort = false

    @Option(help: "The seed for --shuffle.")
    var seed: Int?

    @Option(name: [.customShort("o"), .customLong("output")], help: "terminal (default), TAP, junit, json, or any busted output handler.")
    var output: String?

    @Option(name: [.customShort("m"), .customLong("lpath")], help: "Prefixed to package.path (default ./src/?.lua;./src/?/?.lua;./src/?/init.lua).")
    var lpath: String?

    @Option(help: "Prefixed to package.cpath (default ./csrc/?.so;./csrc/?/?.so).")
    var cpath: String?

    @Option(name: [.customShort("r"), .customLong("run")], help: "The task of .busted to run (default: its `default` task).")
    var task: String?

    @Option(name: [.customShort("f"), .customLong("config-file")], help: "Read this file instead of ./.busted.")
    var configFile: String?

    @Option(help: "A Lua file or module to run before the specs.")
    var helper: String?

    @Flag(name: .customLong("no-keep-going"), help: "Stop at the first failure or error.")
    var stopOnFailure = false

    @Option(help: "Seconds one test body, hook or block may run before it fails (0: no limit).")
    var timeout: Double = SpecOptions.defaultTimeout

    @Option(help: "Seconds screen:settle() waits by default.")
    var settle: Double = SpecOptions.defaultSettle

    @Flag(help: "Record render-tree snapshots (assert.tree_matches) instead of comparing them.")
    var updateSnapshots = false

    @Flag(name: [.short, .customLong("verbose")], help: "Show tracebacks with failures and errors.")
    var verbose = false

    @Flag(
      inversion: .prefixedNo,
      help: "Count the lines of screens, their modules and plugins that run; write coverage/lcov.info and print a summary (default: .busted's coverage).")
    var coverage: Bool?

    @OptionGroup var pluginFlags: PluginFlags

    func validate() throws {
      guard timeout >= 0, timeout.isFinite else { throw ValidationError("--timeout must be a number of seconds ≥ 0") }
      guard settle >= 0, settle.isFinite else { throw ValidationError("--settle must be a number of seconds ≥ 0") }
    }

    @MainActor
    func run() async throws {
      showHostLines(verbose)
      var options = SpecOptions()
      options.paths = paths
      options.patterns = patterns
      options.excludePatterns = excludePatterns
      options.filters = filters
      options.filtersOut = filtersOut
      options.tags = tags
      options.excludeTags = excludeTags
      options.list = list
      options.shuffle = shuffle
      options.sort = sort
      options.seed = seed
      options.output = output
      options.lpath = lpath
      options.cpath = cpath
      options.task = task
      options.configFile = configFile
      options.helper = helper
      options.stopOnFailure = stopOnFailure
      options.timeout = timeout
      options.settle = settle
      options.updateSnapshots = updateSnapshots
      options.verbose = verbose
      options.coverage = coverage
      options.plugins = pluginFlags.plugins
      options.pluginGrants = try pluginFlags.parsedGrants()
      options.lockedPlugins = pluginFlags.locked
      options.color = Terminal.colorOnStandardOutput
      let runner = SpecRunner(options: options)
      do {
        try await runner.run()
      } catch {
        throw failure(error, verbose: verbose)
      }
      if runner.listedOnly { return }
      if runner.wroteDocument {
        FileHandle.standardError.write(Data((runner.summaryLine + "\n").utf8))
      } else {
        emit(runner.summaryLine)
      }
      if runner.summary.failed > 0 { throw ExitCode(1) }
    }
  }
}
