import ArgumentParser
import Foundation
import SendingStatePlugins
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate stubs [--out DIR]`: write LuaLS definitions.
  struct Stubs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stubs",
      abstract: "Write LuaLS definitions of the host API (types/) and a .luarc.json.",
      discussion: """
        The definitions cover the screen contract, the ui builders with one props class
        per kind, every view kind's fields (view.<id> and a sender are SSAnyView), the
        store, actions, and require "sendingstate" with the screen driver. They are
        generated from the registry that installs the bindings. Plugins (--plugin,
        DIR/plugins/, SENDINGSTATE_PLUGIN_PATH) add their components as ui.<name>, and
        their folders to the libraries, so require "<plugin>.<module>" resolves.

        DIR/types/sendingstate.d.lua is written, and DIR/.luarc.json pointing at it
        (and at LuaLS's own busted and luassert definitions).

        Example:
          sendingstate stubs --out .
        """
    )

    @Option(help: "The project folder: writes DIR/types/sendingstate.d.lua and DIR/.luarc.json.", transform: PathText.argument)
    var out = "."

    @Option(
      name: .customLong("plugin"),
      help: "A plugin folder whose components and modules the stubs include (repeatable); DIR/plugins/ and SENDINGSTATE_PLUGIN_PATH are searched too.",
      transform: PathText.argument)
    var plugins: [String] = []

    @MainActor
    func run() async throws {
      let written: [String]
      do {
        // Plugins as a screen in DIR would find them: --plugin, DIR/plugins/, the search path.
        let set = PluginSet.load(
          explicit: plugins, screen: (out as NSString).appendingPathComponent("screen.lua"), hostAPI: PluginSet.hostAPI,
          enforce: false)
        for problem in set.problems { Console.line("plugin left out: \(problem)", to: .errors, label: .warning) }
        written = try StubGenerator.write(project: out, plugins: set.plugins)
      } catch {
        throw failure(error)
      }
      emit("wrote " + written.joined(separator: " and "))
    }
  }
}
