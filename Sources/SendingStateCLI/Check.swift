import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate check [PATH…]`: compile every script and dry-run every screen.
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Compile scripts and specs, dry-run screens; problems with file:line.",
      discussion: """
        Specs (*_spec.lua) are compiled. Screens are opened in a dry run: it builds
        the layout, validates the initial state against the schema, checks event
        names and sender ids, and configures once, without driving events. Hidden
        folders (.build, .git) are skipped. Screens open with their plugins; a
        plugin folder's plugin.lua is checked as a manifest. Exit code 1 if any
        problem is found.

        Example:
          sendingstate check examples
        """
    )

    @Argument(help: "Scripts or folders to check (default: the current folder).", transform: PathText.argument)
    var paths: [String] = ["."]

    @OptionGroup var pluginFlags: PluginFlags

    @MainActor
    func run() async throws {
      let problems: [Checker.Problem]
      do {
        problems = try Checker.check(
          paths: paths, plugins: pluginFlags.plugins, grants: try pluginFlags.parsedGrants(), locked: pluginFlags.locked)
      } catch {
        throw failure(error)
      }
      for problem in problems { emit(problem.description) }
      let scripts = Checker.count(paths: paths)
      emit(problems.isEmpty ? "\(scripts) scripts checked, no problems" : "\(problems.count) problem(s) in \(scripts) scripts")
      if !problems.isEmpty { throw ExitCode(1) }
    }
  }
}
