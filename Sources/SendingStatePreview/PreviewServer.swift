import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import SendingStateLua
import SendingStateTools
import SendingStatePlugins
import ServiceLifecycle
import Synchronization

/// The live preview: an HTTP and WebSocket server (Hummingbird 2) for one screen.
///
/// ```text
/// GET  /TOKEN/             the page (a phone frame and a side panel)
/// GET  /TOKEN/preview.js   its script;  GET /TOKEN/preview.css  its style
/// GET  /TOKEN/files/PATH   an image from the screen's folders (nothing else)
/// WS   /TOKEN/ws           events in, patches out (see ``PreviewHost``, ``PreviewRequest``)
/// ```
///
/// Safe by default: it listens on 127.0.0.1 unless told otherwise; every path starts with a
/// random token, and anything else is a 404; on loopback the `Host` header must name loopback
/// (no DNS rebinding), and a WebSocket's `Origin` must be the page's own; pages are served with a
/// strict content security policy and no referrer; messages, pages and rates are bounded. It
/// stops cleanly on SIGINT, SIGTERM and SIGHUP (the terminal closing): pages are disconnected,
/// the screen is closed.
///
/// ```swift
/// let server = try PreviewServer(path: "examples/counter/counter.lua")
/// try await server.run { url in print(url) }
/// ```
package struct PreviewServer: Sendable {
  /// Where to listen.
  package struct Configuration: Sendable {
    /// The address to bind: loopback unless asked.
    package var host = "127.0.0.1"
    /// The port (0: any free port).
    package var port = 0
    /// How often the script's folders are checked for changes.
    package var watchInterval: Duration = .milliseconds(250)
    /// How often effects' results are looked for.
    package var refreshInterval: Duration = .milliseconds(100)
    /// How long a connection may go unanswered — without a whole, valid first request — before
    /// it is closed (see ``UnansweredConnectionGuard``).
    package var answerTimeout: Duration = .seconds(10)
    /// How long a connection may be unable to take more of its answers (its peer not reading)
    /// before it is closed (see ``UnansweredConnectionGuard``).
    package var stallTimeout: Duration = .seconds(30)
    /// How long a stop waits for connections to finish before the server is cancelled, which
    /// closes every connection.
    package var stopGrace: Duration = .seconds(3)

    /// The default: 127.0.0.1, any free port.
    package init(host: String = "127.0.0.1", port: Int = 0) {
      self.host = host
      self.port = port
    }

    /// Whether `host` is a loopback address.
    package var isLoopback: Bool {
      host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
  }

  /// The screen behind the page.
  package let host: PreviewHost
  /// The secret in the URL.
  package let token: PreviewToken
  /// Where it listens.
  package let configuration: Configuration
  /// The images it may serve.
  package let files: FileGuard
  /// The folders watched for changes (the screen's, its roots', and its `--plugin` folders).
  package let folders: [String]

  /// Reaches the running server for ``stop()``.
  let stopSwitch = StopSwitch()

  /// The largest WebSocket frame accepted.
  package static let maximumFrame = PreviewRequest.maximumSize

  /// Opens the screen at `path` (see ``PreviewHost``).
  @MainActor
  package init(
    path: String, options: LuaScreen.Options = .init(), plugins: PluginRequest? = nil, configuration: Configuration = .init(),
    token: PreviewToken = PreviewToken()
  ) throws {
    host = try PreviewHost(path: path, options: options, plugins: plugins)
    self.token = token
    self.configuration = configuration
    let screenFolders = [PathText.folder(of: path)] + options.scriptRoots
    files = FileGuard(folders: screenFolders)
    // Watched: the screen's folders and the plugin folders named with --plugin (those in
    // plugins/ beside the screen are inside its folder already).
    folders = screenFolders + (plugins?.explicit ?? [])
  }

  /// Stops a running server as a stop signal does: pages are let go, connections get
  /// `stopGrace` to finish, then `run` returns. A server stopped before it runs (or a second
  /// time) never serves: `run` returns at once.
  package func stop() async {
    await stopSwitch.request()?.triggerGracefulShutdown()
  }

  /// Serves until a stop signal, ``stop()`` or the task's cancellation; `onListening` gets the
  /// page's URL.
  package func run(onListening: @escaping @Sendable (String) async -> Void) async throws {
    var logger = Logger(label: "sendingstate.preview")
    logger.logLevel = .warning
    let router = makeRouter()
    let configuration = self.configuration
    let token = self.token
    let app = Application(
      router: router,
      // The closure form of the upgrade, not the router's `ws` route: that one keeps each
      // connection's request context in a reference cycle (hummingbird-websocket 2.8.1), which
      // would leak the screen behind it.
      server: HTTPServerBuilder { [self] responder in
        GuardedUpgradeChannel(
          base: HTTP1WebSocketUpgradeChannel(
            responder: responder,
            // A page that does not answer a close within 2 s is let go (the default, 15 s, held
            // the whole server's stop for that long when a closing page's answer was lost).
            configuration: .init(
              http1: .init(idleTimeout: .seconds(60)), ws: .init(maxFrameSize: PreviewServer.maximumFrame, closeTimeout: .seconds(2)))
          ) { head, _, _ in
            guard upgradeAllowed(head) else { return .dontUpgrade }
            return .upgrade([:]) { inbound, outbound, _ in
              try await serve(inbound: inbound, outbound: outbound)
            }
          },
          answerTimeout: configuration.answerTimeout, stallTimeout: configuration.stallTimeout)
      },
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: nil,
        availableConnectionsDelegate: MaximumAvailableConnections(PreviewHost.clientLimit * 4)),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        let shown = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        await onListening("http://\(shown):\(port)/\(token)/")
      },
      logger: logger
    )
    let ticker = Ticker(host: host, folders: folders, configuration: configuration)
    var lifecycle = ServiceGroupConfiguration(
      services: [app, ticker], gracefulShutdownSignals: [.sigterm, .sigint, .sighup], logger: logger)
    // A stop that waits on a connection for longer than `stopGrace` cancels the rest: a preview
    // is a development tool, and a terminal waiting on a stuck page is worse than a dropped one.
    lifecycle.maximumGracefulShutdownDuration = configuration.stopGrace
    let group = ServiceGroup(configuration: lifecycle)
    if stopSwitch.started(group) {
      do {
        try await group.run()
      } catch is CancellationError {
        // The group cancelled a service that outlived the graceful shutdown: still a stop.
      }
    }
    await MainActor.run {
      host.disconnectAll()
      host.session.screen.close()
    }
  }

  // MARK: - Routes

  package func makeRouter() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    let server = self
    router.get("{token}") { request, context in
      guard server.allowed(request, context) else { return Response(status: .notFound) }
      guard request.uri.path.hasSuffix("/") else {  // relative links need the slash
        return Response(status: .movedPermanently, headers: [.location: "/\(server.token)/"])
      }
      return server.document(PreviewPage.html, type: "text/html; charset=utf-8")
    }
    router.get("{token}/preview.js") { request, context in
      guard server.allowed(request, context) else { return Response(status: .notFound) }
      return server.document(PreviewScript.source, type: "text/javascript; charset=utf-8")
    }
    router.get("{token}/preview.css") { request, context in
      guard server.allowed(request, context) else { return Response(status: .notFound) }
      return server.document(PreviewPage.css, type: "text/css; charset=utf-8")
    }
    router.get("{token}/files/**") { request, context in
      guard server.allowed(request, context),
        let file = server.files.resolve(context.parameters.getCatchAll()),
        // Read as it was checked: a file swapped for a FIFO, a link or a bigger file since is refused.
        let data = try? FileBytes.read(file.path, maxBytes: FileGuard.maximumSize, what: "an image", followLinks: false)
      else { return Response(status: .notFound) }
      var headers = server.securityHeaders
      headers[.contentType] = file.type
      return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
    return router
  }

  /// The token matches and, on loopback, the `Host` header names loopback.
  func allowed(_ request: Request, _ context: BasicRequestContext) -> Bool {
    guard let path = request.head.path, Self.isPlainPath(path) else { return false }
    return allowed(token: context.parameters.get("token"), authority: request.head.authority)
  }

  /// Whether `path` holds only the visible ASCII a URI may (RFC 3986: anything else comes
  /// percent-encoded). The connection check refuses any other path, whatever parsed it (a
  /// space, a control byte, raw UTF-8), so no route sees bytes a browser never sends.
  package static func isPlainPath(_ path: String) -> Bool {
    path.utf8.allSatisfy { (0x21...0x7E).contains($0) }
  }

  package func allowed(token given: String?, authority: String?) -> Bool {
    guard let given, token.matches(given) else { return false }
    guard configuration.isLoopback else { return true }
    guard let authority else { return false }
    let name = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }.dropFirst()) : String(authority.prefix { $0 != ":" })
    return Self.isLoopbackName(name)
  }

  /// `localhost`, `::1` or an IPv4 address in 127.0.0.0/8 written as four numbers — not any
  /// name that starts with `127.` (`127.evil.example` could resolve here: DNS rebinding).
  package static func isLoopbackName(_ name: String) -> Bool {
    if name == "localhost" || name == "::1" { return true }
    var address = in_addr()
    guard name.hasPrefix("127."), inet_pton(AF_INET, name, &address) == 1 else { return false }
    return true
  }

  /// `GET /TOKEN/ws` with the token, a loopback `Host`, and (when a browser sends one) the
  /// page's own `Origin`.
  package func upgradeAllowed(_ head: HTTPRequest) -> Bool {
    guard head.method == .get, let path = head.path?.split(separator: "?").first else { return false }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].isEmpty, parts[2] == "ws", allowed(token: String(parts[1]), authority: head.authority) else {
      return false
    }
    guard let origin = head.headerFields[.origin] else { return true }
    return origin == "http://\(head.authority ?? "")"
  }

  var securityHeaders: HTTPFields {
    [
      .cacheControl: "no-store",
      .xContentTypeOptions: "nosniff",
      HTTPField.Name("Referrer-Policy")!: "no-referrer",
      HTTPField.Name("X-Frame-Options")!: "DENY",
      .contentSecurityPolicy:
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ]
  }

  func document(_ text: String, type: String) -> Response {
    var headers = securityHeaders
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  // MARK: - A page's WebSocket

  func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    guard let (client, messages) = await host.connect() else {
      if await host.isStopping {
        try await outbound.close(.goingAway, reason: "the preview is stopping")
      } else {
        try await outbound.close(.policyViolation, reason: "too many pages are connected")
      }
      return
    }
    let host = self.host
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await message in messages { try await outbound.write(.text(message)) }
      }
      group.addTask {
        for try await message in inbound.messages(maxSize: PreviewServer.maximumFrame) {
          guard case .text(let text) = message else { continue }
          await host.receive(text, from: client)
        }
      }
      defer { group.cancelAll() }
      do {
        try await group.next()
      } catch {
        await host.disconnect(client)
        throw error
      }
    }
    await host.disconnect(client)
  }

  /// Reloads on change and pushes effects' results, until the server stops.
  struct Ticker: Service {
    let host: PreviewHost
    let folders: [String]
    let configuration: Configuration

    func run() async throws {
      let host = self.host
      let folders = self.folders
      let configuration = self.configuration
      await cancelWhenGracefulShutdown {
        var watcher = FolderWatcher(folders: folders)
        var lastPoll = ContinuousClock.now
        while !Task.isCancelled {
          try? await Task.sleep(for: configuration.refreshInterval)
          await host.moveClock()
          await host.refresh()
          if lastPoll.duration(to: .now) >= configuration.watchInterval {
            lastPoll = .now
            if watcher.poll() { await host.reload() }
          }
        }
      }
      await host.disconnectAll()
    }
  }
}

/// Hands ``PreviewServer/stop()`` the running service group, or remembers a stop asked for
/// before there was one.
final class StopSwitch: Sendable {
  private let state = Mutex<(group: ServiceGroup?, stopped: Bool)>((nil, false))

  /// The group is about to run: false if a stop came first (then it must not run).
  func started(_ group: ServiceGroup) -> Bool {
    state.withLock { state in
      guard !state.stopped else { return false }
      state.group = group
      return true
    }
  }

  /// A stop: the running group, if any, to shut down.
  func request() -> ServiceGroup? {
    state.withLock { state in
      state.stopped = true
      return state.group
    }
  }
}
