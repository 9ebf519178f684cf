import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate test [PATH…]`: run Lua specs.
  struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run Lua spec files (*_spec.lua, *.spec.lua) with a busted-style API and a screen driver.",
      discussion: """
        API: describe, it, pending, before_each, after_each; assert.are.equal, assert.are.same
        (deep), assert.is_true, assert.is_false, assert.is_nil, assert.has_error(fn [, message]).
        Screen driver: local screen = require("sendingstate").open(path [, { state = {...}, data = "payload.json" }])
        then screen:tap(id), screen:send(id, event), screen:set(id, value), screen:type(id, text),
        screen:gesture(id, kind [, params]), screen:row(list, index), screen:settle([seconds]) (waits for
        effects), screen.state, screen.view.<id>.<prop>, screen.actions, screen:tree(), screen:close().

        The driver's methods mirror the EVENT grammar of `run` and `repl`:
        \(EventCommand.grammar)

        The last line is exactly "N passed, N failed"; the exit code is 1 if any failed.

        Example:
          sendingstate test examples
        """
    )

    @Argument(help: "Spec files or folders to search (default: the current folder).")
    var paths: [String] = ["."]

    @MainActor
    func run() async throws {
      let runner = SpecRunner()
      do {
        try await runner.run(paths: paths)
      } catch {
        throw failure(error)
      }
      emit(runner.summaryLine)
      if runner.summary.failed > 0 { throw ExitCode(1) }
    }
  }
}
