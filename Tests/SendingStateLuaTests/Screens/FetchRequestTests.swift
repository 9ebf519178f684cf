import Foundation
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

/// `store:fetch` with a method, headers and a body: what reaches the server, the checks at the
/// script's line (attacks first), and everything a GET has (grants, limits, ids) kept.
@Suite("store:fetch with method, headers and body", .serialized)
@MainActor
struct FetchRequestTests {
  /// A screen granted `grant` (nil: timers only, no net): action `send` fetches `action.url`
  /// with `action.options` (line 9). Answers land in `state.result`.
  func open(grant: [String]?, fetcher: (any ScreenFetcher)? = nil, limits: LuaRuntime.Limits = .init(), clock: VirtualClock? = nil) throws
    -> (LuaScreen, String)
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-post-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // (Declared: a screen that declares none gets them all.)
    let capabilities = grant.map { "capabilities = { net = { \($0.map { "\"\($0)\"" }.joined(separator: ", ")) } }," }
      ?? "capabilities = { \"timers\" },"
    let path = folder + "/post.lua"
    try """
      return {
        \(capabilities)
        state = { result = "" },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handle = function(action, store)
          if action.type == "send" then
            -- (the options as the action gives them: a test drives every shape)
            store:fetch(action.url, { ok = "ok", fail = "fail" }, action.options)   -- line 9
          elseif action.type == "ok" then
            store:update(function(s) s.result = "ok " .. action.status .. ": " .. action.body end)
          elseif action.type == "fail" then
            store:update(function(s) s.result = "fail: " .. action.error end)
          end
        end,
      }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    var options = LuaScreen.Options(limits: limits)
    if let fetcher { options.fetcher = fetcher }
    if let clock { options.clock = clock }
    return (try LuaScreen(path: path, options: options), folder)
  }

  func send(_ screen: LuaScreen, _ url: String, _ options: LuaValue) async throws -> String {
    try screen.perform(action: ["type": "send", "url": .string(url), "options": options])
    #expect(await screen.settle(timeout: .seconds(60)))
    return screen.state["result"].stringValue ?? ""
  }

  /// The error `store:fetch` raises for `options`, and its line.
  func refusal(_ screen: LuaScreen, _ options: LuaValue, url: String = "http://127.0.0.1:9/x") -> (String, Int?) {
    do {
      try screen.perform(action: ["type": "send", "url": .string(url), "options": options])
      return ("no error", nil)
    } catch let error as ScriptError {
      return (error.message, error.line)
    } catch {
      return ("\(error)", nil)
    }
  }

  @Test("a login POST reaches the server as written: method, Content-Type, JSON body; the answer is the ok action")
  func loginThroughTheNetwork() async throws {
    let server = try LoopbackHTTPServer(routes: ["/login": #"{"token":"abc"}"#], maxRequests: 1)
    let (screen, folder) = try open(grant: ["127.0.0.1"])
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let body = #"{"user":"ada","password":"s3cret"}"#
    let result = try await send(
      screen, server.url("/login"),
      ["method": "post", "headers": ["Content-Type": "application/json", "Accept": "application/json"], "body": .string(body)])
    #expect(result == #"ok 200: {"token":"abc"}"#)
    let seen = try #require(server.received.first)
    #expect(seen.method == "POST")
    #expect(seen.header("content-type") == "application/json" && seen.header("Accept") == "application/json")
    #expect(seen.body == Data(body.utf8))
  }

  @Test("headers and options kept in the state are sent as the state shows them")
  func optionsFromState() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-post-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try """
      return {
        state = { headers = { Authorization = "Bearer t-1" }, post = { method = "PUT", body = "{}", headers = { ["X-A"] = "1" } } },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        handle = function(action, store)
          if action.type == "one" then
            store:fetch("http://127.0.0.1:9/a", { ok = "ok", fail = "fail" }, { method = "POST", headers = store.state.headers, body = "{}" })
          elseif action.type == "two" then
            store:fetch("http://127.0.0.1:9/a", { ok = "ok", fail = "fail" }, store.state.post)
          end
        end,
      }
      """.write(toFile: folder + "/state.lua", atomically: true, encoding: .utf8)
    let fake = FakeFetcher(["http://127.0.0.1:9/a": .init(body: "{}")])
    var options = LuaScreen.Options()
    options.fetcher = fake
    let screen = try LuaScreen(path: folder + "/state.lua", options: options)
    defer { screen.close() }
    try screen.perform(action: ["type": "one"])
    try screen.perform(action: ["type": "two"])
    #expect(await screen.settle(timeout: .seconds(60)))
    // (The two fetches run at once: they reach the fetcher in either order.)
    let sent = fake.sent.all.sorted { $0.method < $1.method }
    #expect(sent.map(\.method) == ["POST", "PUT"])
    #expect(sent.map(\.headers) == [["Authorization": "Bearer t-1"], ["X-A": "1"]])
    #expect(sent.map { $0.body.map { String(decoding: $0, as: UTF8.self) } } == ["{}", "{}"])
  }

  @Test("a fake's record of what was sent is bounded in count and bytes, keeping the newest")
  func boundedRecord() {
    let log = FakeFetcher.SentRequests()
    let url = URL(string: "http://127.0.0.1:9/a")!
    for index in 0..<40 {
      log.append(FetchRequest(url: url, method: "POST", headers: ["N": "\(index)"], body: Data(count: 256 << 10)))
    }
    let kept = log.all
    #expect(kept.count < 17 && kept.count >= 15, "\(kept.count)")
    #expect(kept.last?.headers["N"] == "39")
    #expect(kept.reduce(0) { $0 + ($1.body?.count ?? 0) } <= 4 << 20)
    for _ in 0..<1_100 { log.append(FetchRequest(url: url)) }
    #expect(log.all.count == 1_000)
    let huge = FetchRequest(url: url, method: "POST", body: Data(count: 5 << 20))
    log.append(huge)
    #expect(log.all == [huge])  // the newest is always kept
  }

  @Test("attack: CR or LF in a header value is an error at the script's line, and nothing is sent")
  func headerInjection() async throws {
    let fake = FakeFetcher(["http://127.0.0.1:9/x": .init(body: "{}")])
    let (screen, folder) = try open(grant: ["127.0.0.1"], fetcher: fake)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for value in ["a\r\nX-Admin: 1", "a\nb", "a\rb", "a\u{0}b", "a\u{7F}"] {
      let (message, line) = refusal(screen, ["method": "POST", "headers": ["X-Note": .string(value)], "body": "b"])
      #expect(
        message == "bad argument #3 to 'fetch' (the value of header 'X-Note' holds a control character (CR, LF, NUL…): "
          + "a header value is one line of text; this would inject headers)", "\(value.debugDescription)")
      #expect(line == 9)
    }
    let (message, line) = refusal(screen, ["method": "POST", "headers": ["X-Note\r\nX-Admin": "1"]])
    #expect(message == "bad argument #3 to 'fetch' (header name 'X-Note\r\nX-Admin' is not a token: letters, digits and !#$%&'*+-.^_`|~ only)")
    #expect(line == 9)
    #expect(screen.pendingEffects == 0 && fake.sent.all.isEmpty)
  }

  @Test("attack: methods, host headers, too many or too large headers, a body too large, on a GET, not text, or not a string")
  func refusedAtTheLine() async throws {
    var limits = LuaRuntime.Limits()
    limits.maxFetchBodyBytes = 100
    let fake = FakeFetcher([:])
    let (screen, folder) = try open(grant: ["127.0.0.1"], fetcher: fake, limits: limits)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let many = LuaValue.table(LuaTable(fields: Dictionary(uniqueKeysWithValues: (1...65).map { ("X-\($0)", LuaValue.string("v")) })))
    let cases: [(LuaValue, String)] = [
      (["method": "CONNECT"], "method must be one of GET, POST, PUT, PATCH, DELETE, got 'CONNECT'"),
      (["method": "TRACE"], "method must be one of GET, POST, PUT, PATCH, DELETE, got 'TRACE'"),
      (["method": 1], "method must be one of GET, POST, PUT, PATCH, DELETE, got number"),
      (["method": "POST", "headers": ["Host": "evil.example"]], "header 'Host' is the host's to set; leave it out"),
      (["method": "POST", "headers": ["content-length": "1"]], "header 'content-length' is the host's to set; leave it out"),
      (["method": "POST", "headers": ["Transfer-Encoding": "chunked"]], "header 'Transfer-Encoding' is the host's to set; leave it out"),
      (["method": "POST", "headers": ["Proxy-Authorization": "x"]], "header 'Proxy-Authorization' is the host's to set; leave it out"),
      (["method": "POST", "headers": many], "more than 64 headers"),
      (["method": "POST", "headers": ["X-Big": .string(String(repeating: "v", count: 16_380))]], "the headers hold more than 16384 bytes together"),
      (["method": "POST", "headers": ["X-N": 1]], "headers map names to strings, like { [\"Content-Type\"] = \"application/json\" }; got a string name and a number value"),
      (["method": "POST", "headers": "json"], "headers must be a table like { [\"Content-Type\"] = \"application/json\" }, got string"),
      (["body": "x"], "a GET sends no body: add method = \"POST\" (or PUT, PATCH, DELETE)"),
      (["method": "GET", "body": "x"], "a GET sends no body: add method = \"POST\" (or PUT, PATCH, DELETE)"),
      (["method": "POST", "body": .string(String(repeating: "x", count: 101))], "the body is 101 bytes; a fetch sends at most 100 (maxFetchBodyBytes)"),
      (["method": "POST", "body": ["a": 1]], "body must be a string (json.encode(t) makes one of a table), got table"),
      (["method": "POST", "verb": "x"], "unknown option 'verb'; the options are id, replace, debounce, throttle, latest, method, headers, body"),
      (["method": "POST", "headers": ["X-Empty": ""]],
       "the value of header 'X-Empty' is blank; libcurl would leave the header out (or drop its own): give a value, or leave the header out"),
      (["method": "POST", "headers": ["Accept": " \t "]],
       "the value of header 'Accept' is blank; libcurl would leave the header out (or drop its own): give a value, or leave the header out"),
    ]
    for (options, problem) in cases {
      let (message, line) = refusal(screen, options)
      #expect(message == "bad argument #3 to 'fetch' (\(problem))", "\(problem)")
      #expect(line == 9, "\(problem)")
    }
    // At the limit: sent.
    #expect(refusal(screen, ["method": "POST", "body": .string(String(repeating: "x", count: 100))]).0 == "no error")
    #expect(screen.pendingEffects == 1)
    screen.cancelEffects()
  }

  @Test("attack: a body without the net capability is refused as a GET is; a grant's hosts hold for every method")
  func grants() async throws {
    let (bare, bareFolder) = try open(grant: nil, fetcher: FakeFetcher([:]))
    defer {
      bare.close()
      try? FileManager.default.removeItem(atPath: bareFolder)
    }
    let (message, line) = refusal(bare, ["method": "POST", "headers": ["X-A": "1"], "body": "secret"])
    #expect(message == "the screen may not fetch: it does not have the 'net' capability (declare it in the screen's capabilities, and have it granted)")
    #expect(line == 9)
    let (screen, folder) = try open(grant: ["api.example.com"], fetcher: FakeFetcher([:]))
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let (other, otherLine) = refusal(screen, ["method": "DELETE"], url: "https://evil.example.com/x")
    #expect(other == "the screen may not reach 'evil.example.com': its net capability lists api.example.com")
    #expect(otherLine == 9)
  }

  @Test("a fake fetcher keeps what was sent; answers by method and URL come before answers by URL")
  func fakeRecordsRequests() async throws {
    let url = "https://api.example.com/items"
    let fake = FakeFetcher([url: .init(body: "list"), "POST \(url)": .init(status: 201, body: "made")])
    let (screen, folder) = try open(grant: ["api.example.com"], fetcher: fake)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    #expect(try await send(screen, url, ["method": "POST", "headers": ["Content-Type": "text/plain"], "body": "tea"]) == "ok 201: made")
    #expect(try await send(screen, url, .nil) == "ok 200: list")
    #expect(try await send(screen, url, ["method": "PUT", "body": "x"]) == "ok 200: list")
    #expect(try await send(screen, "https://api.example.com/none", ["method": "PATCH", "body": "x"])
      == "fail: no fake answer for PATCH https://api.example.com/none (answers for: POST https://api.example.com/items, https://api.example.com/items)")
    let sent = fake.sent.all
    #expect(sent.map(\.method) == ["POST", "GET", "PUT", "PATCH"])
    #expect(sent[0] == FetchRequest(url: URL(string: url)!, method: "POST", headers: ["Content-Type": "text/plain"], body: Data("tea".utf8)))
    #expect(sent[1].isPlainGet)
  }

  @Test("effect ids and debounce work for POSTs: only the last one is sent")
  func debounce() async throws {
    let url = "https://api.example.com/save"
    let fake = FakeFetcher([url: .init(body: "saved")])
    let clock = VirtualClock(now: 0)
    let (screen, folder) = try open(grant: ["api.example.com"], fetcher: fake, clock: clock)
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    for draft in ["d", "dr", "dra"] {
      try screen.perform(action: ["type": "send", "url": .string(url), "options": ["id": "save", "debounce": 0.5, "method": "PUT", "body": .string(draft)]])
    }
    try await screen.advance(by: 1)
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(fake.sent.all.map { $0.body.map { String(decoding: $0, as: UTF8.self) } } == ["dra"])
    #expect(screen.state["result"] == "ok 200: saved")
  }

  @Test("reduce's effect list takes method, headers and body too, with the same checks")
  func reduceForm() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ss-post-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/reduce.lua"
    try """
      return {
        capabilities = { net = { "api.example.com" } },
        state = { result = "" },
        layout = function(ui) return ui.label { id = "l" } end,
        configure = function() end,
        reduce = function(state, action)
          if action.type == "login" then
            return nil, { { fetch = "https://api.example.com/login", ok = "ok", fail = "fail", method = "POST",
              headers = { ["Content-Type"] = "application/json" }, body = action.body, id = "login" } }
          elseif action.type == "ok" then
            return { result = action.body }
          elseif action.type == "fail" then
            return { result = action.error }
          end
        end,
      }
      """.write(toFile: path, atomically: true, encoding: .utf8)
    var options = LuaScreen.Options()
    let fake = FakeFetcher(["POST https://api.example.com/login": .init(body: "welcome")])
    options.fetcher = fake
    let screen = try LuaScreen(path: path, options: options)
    defer { screen.close() }
    try screen.perform(action: ["type": "login", "body": #"{"user":"ada"}"#])
    #expect(await screen.settle(timeout: .seconds(60)))
    #expect(screen.state["result"] == "welcome")
    #expect(fake.sent.all == [
      FetchRequest(url: URL(string: "https://api.example.com/login")!, method: "POST", headers: ["Content-Type": "application/json"], body: Data(#"{"user":"ada"}"#.utf8))
    ])
    let error = #expect(throws: ScriptError.self) { try screen.perform(action: ["type": "login", "body": ["user": "ada"]]) }
    #expect(error?.message == "bad argument #3 to 'fetch' (body must be a string (json.encode(t) makes one of a table), got table)")
    #expect(error?.line == 6)
  }

  @Test("a fetcher written for GETs only refuses other requests in words rather than drop the body")
  func getOnlyFetcher() async throws {
    struct GetOnly: ScreenFetcher {
      func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) { (Data("got".utf8), 200) }
    }
    let (screen, folder) = try open(grant: ["api.example.com"], fetcher: GetOnly())
    defer {
      screen.close()
      try? FileManager.default.removeItem(atPath: folder)
    }
    #expect(try await send(screen, "https://api.example.com/a", .nil) == "ok 200: got")
    #expect(try await send(screen, "https://api.example.com/a", ["method": "POST", "body": "b"])
      == "fail: GetOnly sends GETs only, not a POST with headers or a body (implement send(_:within:maxBytes:timeout:))")
  }
}
