import ArgumentParser
import Foundation
import SendingStatePlugins
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate stubs [--out DIR]`: write LuaLS definitions.
  struct Stubs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "stubs",
      abstract: "Write LuaLS definitions of the host API and screens, and .luarc.json.",
      discussion: """
        The definitions cover the screen contract, the ui builders with one props class
        per kind, every view kind's fields (view.<id> and a sender are SSAnyView), the
        store, actions, and require "sendingstate" with the screen driver. They are
        generated from the registry that installs the bindings. Plugins (--plugin,
        DIR/plugins/, SENDINGSTATE_PLUGIN_PATH) add their components as ui.<name>, and
        their folders to the libraries, so require "<plugin>.<module>" resolves.

        Each screen found in the SCREEN files and folders (default: DIR) gets
        DIR/types/screens/<screen>.d.lua: a class of its views by id
        (Counter.View, each with its kind's class; a list's rows get
        Counter.<List>Row) and one of its state (Counter.State, from its schema,
        or else from its start state). A screen opts in by annotating configure
        and events: ---@param view Counter.View, ---@param state Counter.State.
        LuaLS then flags an unknown view id or state field. Every screen is
        opened first: one that does not open is an error naming file:line, and
        nothing is written.

        DIR/types/sendingstate.d.lua is written, and DIR/.luarc.json pointing at
        it (and at LuaLS's own busted and luassert definitions). An existing
        .luarc.json is merged: its keys are kept, and the libraries and globals
        the stubs need are added; one that is not a JSON object is an error, and
        is left as it is.

        Examples:
          sendingstate stubs --out .
          sendingstate stubs --out . examples
        """
    )

    @Option(help: "The project folder: writes DIR/types/sendingstate.d.lua and DIR/.luarc.json.", transform: PathText.argument)
    var out = "."

    @Argument(help: "Screens, or folders to find screens in, to type (default: DIR).", transform: PathText.argument)
    var screens: [String] = []

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
        written = try StubGenerator.write(
          project: out, plugins: set.plugins, screens: screens.isEmpty ? [out] : screens, pluginFolders: plugins,
          warn: { Console.line($0, to: .errors, label: .warning) })
      } catch {
        throw failure(error)
      }
      emit("wrote " + written.joined(separator: " and "))
    }
  }
}
