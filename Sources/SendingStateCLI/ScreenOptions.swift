import ArgumentParser
import Foundation
import SendingStateLua
import SendingStatePlugins
import SendingStateTools

/// Options shared by the commands that open a screen.
struct ScreenOptions: ParsableArguments {
  @Argument(help: "The screen script (a .lua file returning the screen table).", transform: PathText.argument)
  var screen: String

  @Option(name: .customLong("state"), help: "Start state: JSON, or @FILE to read it from a file.")
  var state: String?

  @Option(name: .customLong("data"), help: "A server-driven payload: a JSON file path or an http(s) URL.")
  var data: String?

  @Option(
    name: .customLong("root"), help: "Another folder `require` may load modules from (repeatable).", transform: PathText.argument)
  var roots: [String] = []

  @OptionGroup var pluginFlags: PluginFlags

  @Flag(help: "Fail every fetch at once, as if offline: the screen gets its fail actions, the same on every run.")
  var offline = false

  @Option(name: .customLong("random-seed"), help: "Seed the screen's math.random (default: from host entropy), so runs repeat.")
  var randomSeed: Int64?

  /// The screen options these arguments describe (loads the state, the payload and the
  /// plugins; a plugin that fails to load is reported on stderr and left out).
  func screenOptions() async throws -> LuaScreen.Options {
    // The screen first: a wrong path is the first thing to say, before plugins are looked for
    // beside it.
    try ScriptPath.check(screen, role: "screen")
    var options = LuaScreen.Options(scriptRoots: roots)
    // What the script prints goes through the one writer (made visible, failures kept).
    options.output = { line in Console.line(line) }
    let set = try pluginFlags.load(screen: screen)
    set.apply(to: &options)
    if let state { options.state = try JSONInput.value(fromArgument: state, name: "--state") }
    if offline { options.fetcher = FakeFetcher([:]) }
    options.randomSeed = randomSeed
    if let data {
      do {
        options.data = try await ServerPayload.load(from: data)
      } catch {
        throw ToolError.from(error)
      }
    }
    return options
  }
}

/// With `--verbose`, the screen kernel's Lua keeps its line numbers, so tracebacks name its
/// lines too (each screen's heap pays ~42 KiB for them; see `HostChunkCache`).
func showHostLines(_ verbose: Bool) {
  if verbose { HostChunkCache.withDebugInfo.store(true, ordering: .relaxed) }
}

/// Prints the error that stops a command to stderr — a script error with the script's frames
/// of its Lua traceback (every frame, the host's too, when `verbose`) — and returns the exit to
/// throw (so everything unwinds and is released before the process exits).
func failure(_ error: any Error, verbose: Bool = false) -> ExitCode {
  if let exit = error as? ExitCode { return exit }
  let toolError = ToolError.from(error)
  Console.line(verbose ? toolError.fullDescription : toolError.scriptDescription, to: .errors, label: .error)
  return ExitCode(toolError.exitCode)
}

/// Writes a line to standard output at once (unbuffered, so pipes see it immediately), made
/// visible (see ``Console``).
func emit(_ text: String) {
  Console.line(text)
}
