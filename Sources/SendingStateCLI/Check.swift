import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate check [PATH…]`: compile every script and dry-run every screen.
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compile every script and load each screen in a dry run; report every problem with file:line.",
      discussion: """
        A dry run builds the layout, validates the initial state against the schema, checks event
        names and sender ids, and configures once, without driving events. Exit code 1 if any
        problem is found.

        Example:
          sendingstate check examples
        """
    )

    @Argument(help: "Scripts or folders to check (default: the current folder).")
    var paths: [String] = ["."]

    @MainActor
    func run() async throws {
      let problems: [Checker.Problem]
      do {
        problems = try Checker.check(paths: paths)
      } catch {
        throw failure(error)
      }
      for problem in problems { emit(problem.description) }
      let scripts = (try? Checker.scripts(in: paths).count) ?? 0
      emit(problems.isEmpty ? "\(scripts) scripts checked, no problems" : "\(problems.count) problem(s) in \(scripts) scripts")
      if !problems.isEmpty { throw ExitCode(1) }
    }
  }
}
