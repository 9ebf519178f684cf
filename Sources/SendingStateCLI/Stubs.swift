import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate stubs [--out DIR]`: write LuaLS definitions.
  struct Stubs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write LuaLS ---@meta definitions of the host API and a .luarc.json.",
      discussion: """
        The definitions cover the screen contract, the ui builders, every view kind's properties,
        the store, and the spec API. They are generated from the registry that installs the
        bindings. .luarc.json is written beside DIR and lists DIR as a workspace library.

        Example:
          sendingstate stubs --out types
        """
    )

    @Option(help: "The folder to write sendingstate.d.lua into.")
    var out = "types"

    @MainActor
    func run() async throws {
      do {
        try StubGenerator.write(to: out)
      } catch {
        throw failure(error)
      }
      emit("wrote \(out)/sendingstate.d.lua and .luarc.json")
    }
  }
}
