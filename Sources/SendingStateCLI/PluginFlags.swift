import ArgumentParser
import Foundation
import SendingStatePlugins
import SendingStateTools

/// The plugin options of the commands that open screens: `--plugin`, `--grant`, `--locked`.
struct PluginFlags: ParsableArguments {
  @Option(
    name: .customLong("plugin"),
    help: "A plugin folder to load (repeatable); plugins/ beside the screen and SENDINGSTATE_PLUGIN_PATH are searched too.",
    transform: PathText.argument)
  var plugins: [String] = []

  @Option(
    name: .customLong("grant"),
    help: ArgumentHelp(
      "Grant capabilities: NAME:CAP[,CAP…] for a plugin, screen:CAP[,CAP…] for the screen (repeatable).",
      discussion: "CAP is timers, clock, net (a plugin: the hosts it lists; the screen: any) or net=HOST."))
  var grants: [String] = []

  @Flag(
    name: .customLong("locked"),
    help: "Refuse to run unless every plugin matches plugins.lock beside the screen (and there is one).")
  var locked = false

  /// The grants the flags give.
  func parsedGrants() throws -> PluginGrants {
    do {
      return try PluginGrants(flags: grants)
    } catch {
      throw ValidationError(error.description)
    }
  }

  func validate() throws { _ = try parsedGrants() }

  /// What the flags ask for, to find the plugins again on reload.
  func request() throws -> PluginRequest {
    PluginRequest(explicit: plugins, grants: try parsedGrants(), requireLock: locked)
  }

  /// The plugins for `screen`: each problem is warned about on stderr and that plugin left out;
  /// with `--locked`, any problem stops the command (exit 1).
  func load(screen: String) throws -> PluginSet {
    let set = try request().load(screen: screen)
    if locked, !set.problems.isEmpty {
      for problem in set.problems { Console.line("\(problem)", to: .errors, label: .error) }
      Console.line("--locked: refusing to run with plugins that do not match the lockfile", to: .errors, label: .error)
      throw ExitCode(1)
    }
    for problem in set.problems {
      // (A grant for a plugin that is not there left nothing out: it is just said.)
      let what = problem.file == "--grant" ? "--grant \(problem.plugin): \(problem.message)" : "plugin left out: \(problem)"
      Console.line(what, to: .errors, label: .warning)
    }
    return set
  }
}
