import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate stubs [--out DIR]`: write LuaLS definitions.
  struct Stubs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write LuaLS definitions of the host API (types/) and a .luarc.json.",
      discussion: """
        The definitions cover the screen contract, the ui builders with one props class
        per kind, every view kind's fields (view.<id> and a sender are SSAnyView), the
        store, actions, and require "sendingstate" with the screen driver. They are
        generated from the registry that installs the bindings.

        DIR/types/sendingstate.d.lua is written, and DIR/.luarc.json pointing at it
        (and at LuaLS's own busted and luassert definitions).

        Example:
          sendingstate stubs --out .
        """
    )

    @Option(help: "The project folder: writes DIR/types/sendingstate.d.lua and DIR/.luarc.json.")
    var out = "."

    @MainActor
    func run() async throws {
      let written: [String]
      do {
        written = try StubGenerator.write(project: out)
      } catch {
        throw failure(error)
      }
      emit("wrote " + written.joined(separator: " and "))
    }
  }
}
