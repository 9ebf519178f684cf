import ArgumentParser
import Foundation
import SendingStateLua
import SendingStatePlugins
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate plugins list|check|new|lock`: the plugins a screen would run with.
  struct Plugins: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "plugins",
      abstract: "List, check, create and lock plugins.",
      discussion: """
        Plugins are found in the folders given with --plugin, in plugins/ beside
        the screen, and in the folders of SENDINGSTATE_PLUGIN_PATH (':'-separated).

        Examples:
          sendingstate plugins list --plugin vendor/analytics examples/shop/shop.lua
          sendingstate plugins check plugins/rating
          sendingstate plugins new badge --in plugins
          sendingstate plugins lock --plugin vendor/analytics app/cart.lua
        """,
      subcommands: [List.self, Check.self, New.self, Lock.self]
    )

    /// The host API version plugins are checked against.
    static var hostAPI: SemanticVersion { PluginSet.hostAPI }

    /// `plugins list [--plugin DIR…] [SCREEN]`.
    struct List: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the plugins found for a screen, and those left out with why.")

      @Option(name: .customLong("plugin"), help: "A plugin folder (repeatable).", transform: PathText.argument)
      var plugins: [String] = []

      @Argument(help: "The screen whose plugins/ folder is searched too.", transform: PathText.argument)
      var screen: String?

      func run() async throws {
        let set = PluginSet.load(explicit: plugins, screen: screen, hostAPI: Plugins.hostAPI, enforce: false)
        for plugin in set.plugins {
          let provides = [
            ("modules", plugin.provides.modules), ("components", plugin.provides.components),
            ("units", plugin.provides.units), ("middleware", plugin.provides.middleware),
          ].filter { !$0.1.isEmpty }.map { "\($0.0): \($0.1.joined(separator: ", "))" }
          emit("\(plugin.name) \(plugin.version) — \(plugin.description)")
          emit("  folder: \(plugin.folder)")
          if !provides.isEmpty { emit("  provides \(provides.joined(separator: "; "))") }
          if !plugin.capabilities.isEmpty { emit("  needs \(plugin.capabilities.map(\.description).joined(separator: ", "))") }
        }
        for problem in set.problems { emit("left out: \(problem)") }
        if set.plugins.isEmpty, set.problems.isEmpty { emit("no plugin folders found") }
        for native in set.natives {
          emit("\(native.name) \(native.version) (built in, Swift) — \(native.summary)")
          emit("  provides modules: \(native.modules.map(\.name).joined(separator: ", "))")
        }
      }
    }

    /// `plugins check DIR…`.
    struct Check: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check plugin folders: each manifest, each module it names; exit 1 on a problem.")

      @Argument(help: "Plugin folders.", transform: PathText.argument)
      var folders: [String]

      func run() async throws {
        let set = PluginSet.load(explicit: folders, environment: [:], hostAPI: Plugins.hostAPI, enforce: false)
        for plugin in set.plugins { emit("\(plugin.name) \(plugin.version): ok") }
        for problem in set.problems { emit(problem.description) }
        if !set.problems.isEmpty { throw ExitCode(1) }
      }
    }
  
    /// `plugins new NAME [--in DIR]`.
    struct New: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a plugin folder: a manifest, a component, a demo screen and a spec.",
        discussion: """
          Writes DIR/NAME/plugin.lua, components/NAME.lua, demo.lua and NAME_spec.lua,
          which pass `plugins check`, `check` and `test` as written. Never overwrites.
          """)

      @Argument(help: "The plugin's name (lower case letters, digits and _).")
      var name: String

      @Option(name: .customLong("in"), help: "The folder to create it in (default: the current folder).", transform: PathText.argument)
      var folder = "."

      @MainActor
      func run() async throws {
        do {
          for path in try PluginTemplate.write(name: name, into: folder) { emit("created \(path)") }
        } catch {
          throw failure(error)
        }
        let root = (folder as NSString).appendingPathComponent(name)
        emit("next: sendingstate test \(root) && sendingstate run \(root)/demo.lua --plugin \(root) --send 'tap clicks.bump'")
      }
    }

    /// `plugins lock [--plugin DIR…] SCREEN`.
    struct Lock: AsyncParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Write plugins.lock beside a screen: each plugin's version, content hash and granted capabilities.",
        discussion: """
          Review the plugins first (plugins list shows what each needs). From then on, a
          plugin not in the lockfile, or changed since (any byte of any file), is left
          out with an error; --locked makes that a refusal to run. Locking grants each
          plugin the capabilities its manifest lists; run lock again after reviewing a
          change.
          """)

      @Option(name: .customLong("plugin"), help: "A plugin folder (repeatable).", transform: PathText.argument)
      var plugins: [String] = []

      @Argument(help: "The screen: the lockfile goes beside it, and its plugins/ folder is searched too.", transform: PathText.argument)
      var screen: String

      func run() async throws {
        let set = PluginSet.load(explicit: plugins, screen: screen, hostAPI: Plugins.hostAPI, enforce: false)
        for problem in set.problems { Console.line("plugin left out: \(problem)", to: .errors, label: .warning) }
        let path = PluginLock.path(beside: screen)
        do {
          let lock = try PluginLock.locking(set.plugins)
          try lock.text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
          throw failure(error)
        }
        for plugin in set.plugins {
          emit("locked \(plugin.name) \(plugin.version), granting \(plugin.requested)")
        }
        emit("wrote \(path) (\(set.plugins.count) plugin\(set.plugins.count == 1 ? "" : "s"))")
      }
    }
  }
}
