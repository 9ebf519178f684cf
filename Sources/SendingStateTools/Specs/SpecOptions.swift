import Foundation
import SendingStatePlugins

/// What `sendingstate test` was asked to do: busted's own options (handed to busted's
/// command-line module, which also reads `.busted`) plus the host's (timeouts, snapshots, colour).
///
/// ```swift
/// var options = SpecOptions()
/// options.paths = ["spec"]
/// options.tags = ["fast"]
/// let runner = SpecRunner(options: options)
/// ```
public struct SpecOptions: Sendable, Equatable {
  /// Spec files or folders (busted's ROOT); empty: what `.busted` says, else `spec`.
  public var paths: [String] = []
  /// Lua patterns a spec file's name must match (busted's `--pattern`, default `_spec`).
  public var patterns: [String] = []
  /// Lua patterns of spec files to leave out (`--exclude-pattern`).
  public var excludePatterns: [String] = []
  /// Only tests whose full name matches one of these Lua patterns (`--filter`).
  public var filters: [String] = []
  /// Leave out tests whose full name matches one of these Lua patterns (`--filter-out`).
  public var filtersOut: [String] = []
  /// Only tests tagged with one of these (`#tag` in a name; `--tags`).
  public var tags: [String] = []
  /// Leave out tests tagged with one of these (`--exclude-tags`).
  public var excludeTags: [String] = []
  /// List the tests' names instead of running them (`--list`).
  public var list = false
  /// Shuffle files and tests (`--shuffle`).
  public var shuffle = false
  /// Sort files and tests by name (`--sort`).
  public var sort = false
  /// The seed for `--shuffle`.
  public var seed: Int?
  /// The output handler: `terminal` (ours), `TAP`, `junit`, `json`, or any busted handler.
  public var output: String?
  /// Prefixed to `package.path` (busted's `--lpath`; default `./src/?.lua;…`).
  public var lpath: String?
  /// Prefixed to `package.cpath` (busted's `--cpath`).
  public var cpath: String?
  /// The `.busted` task to run (`--run`).
  public var task: String?
  /// A config file instead of `./.busted` (`--config-file`).
  public var configFile: String?
  /// A Lua file or module run before the specs (`--helper`).
  public var helper: String?
  /// Stop at the first failure or error (busted's `--no-keep-going`).
  public var stopOnFailure = false
  /// Wall-clock seconds one test body, hook or block body may run (0: no limit), in coroutines
  /// and in library functions that loop in C too; a `pcall` in the spec cannot catch it.
  public var timeout: Double = SpecOptions.defaultTimeout
  /// The default wait of `screen:settle()`, in seconds.
  public var settle: Double = SpecOptions.defaultSettle
  /// Write render-tree snapshots instead of comparing them.
  public var updateSnapshots = false
  /// Tracebacks with failures and errors.
  public var verbose = false
  /// Line coverage of screens, their modules and plugins, and the modules specs require
  /// (`--coverage`, written to `coverage/lcov.info`); `nil`: as `.busted` says (`coverage = true`),
  /// `false`: off whatever it says (`--no-coverage`).
  public var coverage: Bool?
  /// ANSI colours in the terminal output.
  public var color = false
  /// Plugin folders every screen a spec opens runs with (`--plugin`), before those the spec
  /// names in `ss.open(path, { plugins = … })`, `plugins/` beside the screen and
  /// `SENDINGSTATE_PLUGIN_PATH`.
  public var plugins: [String] = []
  /// Capabilities granted to plugins and screens (`--grant`).
  public var pluginGrants = PluginGrants()
  /// Every plugin must match `plugins.lock` beside the screen (`--locked`): a screen whose
  /// plugins do not fails to open.
  public var lockedPlugins = false

  /// Seconds a test body, hook or block body may run by default.
  public static let defaultTimeout = 10.0
  /// Seconds `screen:settle()` waits by default.
  public static let defaultSettle = 2.0

  /// Creates options with busted's defaults.
  public init() {}

  /// The arguments busted's command-line module parses (it merges them over `.busted`).
  public var bustedArguments: [String] {
    var arguments = ["--ignore-lua"]
    arguments += patterns.map { "--pattern=\($0)" }
    arguments += excludePatterns.map { "--exclude-pattern=\($0)" }
    arguments += filters.map { "--filter=\($0)" }
    arguments += filtersOut.map { "--filter-out=\($0)" }
    if !tags.isEmpty { arguments.append("--tags=" + tags.joined(separator: ",")) }
    if !excludeTags.isEmpty { arguments.append("--exclude-tags=" + excludeTags.joined(separator: ",")) }
    if list { arguments.append("--list") }
    if shuffle { arguments.append("--shuffle") }
    if sort { arguments.append("--sort") }
    if let seed { arguments.append("--seed=\(seed)") }
    if let output { arguments.append("--output=\(output)") }
    if let lpath { arguments.append("--lpath=\(lpath)") }
    if let cpath { arguments.append("--cpath=\(cpath)") }
    if let task { arguments.append("--run=\(task)") }
    if let configFile { arguments.append("--config-file=\(configFile)") }
    if let helper { arguments.append("--helper=\(helper)") }
    if stopOnFailure { arguments.append("--no-keep-going") }
    if verbose { arguments.append("--verbose") }
    if let coverage { arguments.append(coverage ? "--coverage" : "--no-coverage") }
    return arguments + paths
  }
}
