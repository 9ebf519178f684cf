import ArgumentParser
import Foundation
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate init [DIR]`: scaffold a project.
  struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "init",
      abstract: "Create a project: a screen, its spec, .busted, .luarc.json and more.",
      discussion: """
        Writes DIR/screen.lua, DIR/spec/screen_spec.lua, DIR/.busted, DIR/.luacheckrc,
        DIR/.luarc.json, DIR/types/sendingstate.d.lua and
        DIR/types/screens/screen.d.lua (the screen's view and state classes,
        which its annotations name). Never overwrites a file.

        Example:
          sendingstate init hello && cd hello && sendingstate test
        """
    )

    @Argument(help: "The folder to create the project in (default: the current folder).", transform: PathText.argument)
    var folder = "."

    @MainActor
    func run() async throws {
      do {
        for path in try ProjectTemplate.write(into: folder) { emit("created \(path)") }
      } catch {
        throw failure(error)
      }
      emit("next: cd \(folder) && sendingstate test && sendingstate run screen.lua --send 'tap plus'")
    }
  }
}
