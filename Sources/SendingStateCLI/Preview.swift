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
        Prints the page's URL (with a secret token) and serves until Ctrl-C or the terminal \
        closes. On loopback the same screen keeps its URL across restarts (its port and \
        token are remembered in $XDG_CACHE_HOME or ~/.cache, under sendingstate/preview, \
        readable by you only), so an open tab reconnects; --port and --token choose them. \
        A token on the command line is visible to other local users in `ps`: set \
        SENDINGSTATE_PREVIEW_TOKEN instead to keep it private.

        The page draws the screen as HTML controls in a phone frame; clicks, typing, drags \
        and gestures become EVENTs; a side panel shows the action log, the state with the \
        last step's changes, and errors with file:line. Saving the screen or a module it \
        requires reloads it keeping the state; a broken script shows its error and the last \
        good version keeps running.

        Listens on 127.0.0.1 only, unless --host says otherwise.

        Example:
          sendingstate preview examples/counter/counter.lua --port 8080
        """
    )

    @OptionGroup var screen: ScreenOptions

    @Option(help: "The address to listen on (default 127.0.0.1; another address exposes the screen to that network).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (default: the one this screen had last time if it is free, else any free port).")
    var port = 0

    @Option(
      help: """
        The URL's secret: 32 lowercase hex digits (default: $SENDINGSTATE_PREVIEW_TOKEN, else the one this screen had \
        last time, else a random one).
        """)
    var token: String?

    /// The environment variable that gives the token without showing it in `ps`.
    static let tokenVariable = "SENDINGSTATE_PREVIEW_TOKEN"

    @MainActor
    func run() async throws {
      guard (0...65_535).contains(port) else { throw failure(ToolError.usage("--port: \(port) is not a port (0…65535)")) }
      let environment = ProcessInfo.processInfo.environment
      let given = token.map { ("--token", $0) } ?? environment[Self.tokenVariable].map { (Self.tokenVariable, $0) }
      let chosenToken = try given.map { source, text in
        guard let parsed = PreviewToken(parsing: text) else {
          throw failure(ToolError.usage("\(source): give 32 lowercase hex digits (such as the token of an earlier URL)"))
        }
        return parsed
      }
      // The URL this screen had last time, when its port is still free.
      // (Only on loopback: a server other machines can reach gets a fresh token each time.)
      let loopback = PreviewServer.Configuration(host: host, port: 0).isLoopback
      let memory = loopback ? PreviewMemory.file(for: screen.screen, environment: environment) : nil
      let remembered = memory.flatMap(PreviewMemory.load)
      var port = self.port
      if port == 0, let last = remembered?.port, PreviewMemory.isFree(port: last, host: host) { port = last }
      do {
        let server = try PreviewServer(
          path: screen.screen, options: try await screen.screenOptions(), plugins: try screen.pluginFlags.request(),
          configuration: .init(host: host, port: port), token: chosenToken ?? remembered?.token ?? PreviewToken())
        server.host.recordedData = screen.data
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
        let token = server.token
        try await server.run { url in
          if let memory, let port = URL(string: url)?.port { PreviewMemory.save(port: port, token: token, to: memory) }
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
