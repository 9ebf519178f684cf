import ArgumentParser
import Foundation
import SendingStatePreview
import SendingStateTools

extension SendingStateCommand {
  /// `sendingstate preview SCREEN`: see and use a screen in the browser, reloaded on save.
  struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Serve a live preview of a screen: use it in the browser, reloaded on save.",
      discussion: """
        Prints the page's URL (with a random token) and serves until Ctrl-C or the terminal
        closes. The page draws the screen as HTML controls in a phone frame; clicks, typing,
        drags and gestures become EVENTs; a side panel shows the action log, the state with the
        last step's changes, and errors with file:line. Saving the screen or a module it requires
        reloads it keeping the state; a broken script shows its error and the last good version
        keeps running.

        Listens on 127.0.0.1 only, unless --host says otherwise.

        Example:
          sendingstate preview examples/counter/counter.lua --port 8080
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Option(help: "The address to listen on (default 127.0.0.1; another address exposes the screen to that network).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (default: any free port).")
    var port = 0

    @MainActor
    func run() async throws {
      guard (0...65_535).contains(port) else { throw failure(ToolError.usage("--port: \(port) is not a port (0…65535)")) }
      do {
        let server = try PreviewServer(
          path: screen.screen, options: try await screen.screenOptions(), plugins: try screen.pluginFlags.request(),
          configuration: .init(host: host, port: port))
        if !server.configuration.isLoopback {
          Console.line("listening on \(host): anyone who can reach it and has the URL can drive the screen", to: .errors, label: .warning)
        }
        // Ctrl-C always frees the terminal: if the server still waits on a page's connection
        // 6 s after a stop signal, the process says so and ends (see StopWatchdog).
        let watchdog = StopWatchdog(grace: .seconds(6)) {
          Console.line("preview: a page's connection did not close in time; stopping anyway", to: .errors)
          emit("preview stopped")
          Foundation.exit(0)
        }
        defer { watchdog.finish() }
        try await server.run { url in
          emit("preview: \(url)")
          emit("watching \(server.folders.joined(separator: ", ")) for changes (Ctrl-C to stop)")
        }
        emit("preview stopped")
      } catch {
        throw failure(error)
      }
    }
  }
}
