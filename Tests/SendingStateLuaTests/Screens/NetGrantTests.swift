import Foundation
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

/// Attacks on network grants: a grant is checked on every connection a fetch makes, redirects
/// included, against the host as libcurl itself reads it.
@Suite("Network grants: every connection of a fetch, redirects included", .serialized)
@MainActor
struct NetGrantTests {
  /// A screen that declares `grant` as its net capability; `fetch` fetches `action.url`, its
  /// answer lands in `state.result` ("ok: body" or "fail: reason").
  func open(grant: [String]) throws -> (LuaScreen, String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-net-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let hosts = grant.map { "\"\($0)\"" }.joined(separator: ", ")
    let path = folder + "/net.lua"
    try """
      return {
        capabilities = { net = { \(hosts) } },
        state = { result = "" },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handle = function(action, store)
          if action.type == "fetch" then
            store:fetch(action.url, { ok = "ok", fail = "fail" })   -- line 8
          elseif action.type == "ok" then
            store:update(function(s) s.result = "ok: " .. action.body end)
          elseif action.type == "fail" then
            store:update(function(s) s.result = "fail: " .. action.error end)
          end
        end,
      }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    return (try LuaScreen(path: path), folder)
  }

  func fetch(_ screen: LuaScreen, _ url: String) async throws -> String {
    try screen.perform(action: ["type": "fetch", "url": .string(url)])
    #expect(await screen.settle(timeout: .seconds(60)))
    return screen.state["result"].stringValue ?? ""
  }

  @Test("a redirect to a host the grant does not name is not followed; the fail action says why")
  func redirectToAnotherHost() async throws {
    let secret = try LoopbackHTTPServer(routes: ["/secret": "the secret"], maxRequests: 1)
    let granted = try LoopbackHTTPServer(
      routes: ["/data": "plain"], redirects: ["/go": "http://localhost:\(secret.port)/secret", "/hop": "/data"], maxRequests: 4)
    let (screen, folder) = try open(grant: ["127.0.0.1"])
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let result = try await fetch(screen, granted.url("/go"))
    #expect(!result.contains("the secret"), "\(result)")
    #expect(result == "fail: http://127.0.0.1:\(granted.port)/go redirected to localhost:\(secret.port), which the net capability does not list (it lists 127.0.0.1)", "\(result)")
    // A redirect within the grant is followed.
    #expect(try await fetch(screen, granted.url("/hop")) == "ok: plain")
  }

  @Test("a grant with a port names that port only, redirects included; the first URL is checked at the script's line")
  func ports() async throws {
    let other = try LoopbackHTTPServer(routes: ["/secret": "the secret"], maxRequests: 1)
    let granted = try LoopbackHTTPServer(
      routes: ["/data": "plain"], redirects: ["/go": "http://127.0.0.1:\(other.port)/secret"], maxRequests: 4)
    let (screen, folder) = try open(grant: ["127.0.0.1:\(granted.port)"])
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    #expect(try await fetch(screen, granted.url("/data")) == "ok: plain")
    let redirected = try await fetch(screen, granted.url("/go"))
    #expect(redirected.hasPrefix("fail: http://127.0.0.1:\(granted.port)/go redirected to 127.0.0.1:\(other.port), which the net capability does not list"), "\(redirected)")
    let direct = #expect(throws: ScriptError.self) {
      try screen.perform(action: ["type": "fetch", "url": .string(other.url("/secret"))])
    }
    #expect(direct?.message == "the screen may not reach '127.0.0.1:\(other.port)': its net capability lists 127.0.0.1:\(granted.port)")
    #expect(direct?.line == 8)
  }

  @Test("the host checked is the host libcurl connects to: user info, fragments, other spellings of an address, odd schemes")
  func spellings() throws {
    let (screen, folder) = try open(grant: ["127.0.0.1"])
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    // Each of these goes somewhere else than 127.0.0.1 (or nowhere libcurl would go).
    for url in [
      "http://127.0.0.1@localhost/x", "http://127.0.0.1:80@localhost/x", "http://localhost#@127.0.0.1/x",
      "http://localhost?@127.0.0.1/x", "http://[::ffff:127.0.0.1]/x", "ftp://127.0.0.1/x",
      "file:///etc/passwd", "http://127.0.0.1.nip.io/x", "HTTP://LOCALHOST/x", "http:/127.0.0.1/x", "http://127.0.0.1\u{0}.evil/x",
    ] {
      let error = #expect(throws: ScriptError.self, "\(url)") { try screen.perform(action: ["type": "fetch", "url": .string(url)]) }
      #expect(error?.line == 8, "\(url): \(String(describing: error))")
      #expect(screen.pendingEffects == 0, "\(url)")
    }
    // These are 127.0.0.1, spelled as libcurl also reads them: granted.
    // (A backslash is not a path separator to libcurl: "localhost\\" is user info there.)
    for url in ["http://2130706433:9/x", "http://0x7f000001:9/x", "http://127.1:9/x", "https://127.0.0.1:9/x", "http://localhost\\@127.0.0.1:9/x"] {
      try screen.perform(action: ["type": "fetch", "url": .string(url)])
      #expect(screen.pendingEffects == 1, "\(url)")
      screen.cancelEffects()
    }
  }
}
