import Foundation
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

/// Requests with a method, headers and a body, checked by what a loopback server received on
/// its socket (the oracle: not what the client says it sent).
@Suite("HTTP requests: method, headers and body as the server receives them", .serialized)
struct HTTPSendTests {
  private func failure(_ work: () async throws -> (data: Data, status: Int)) async -> String {
    do {
      let result = try await work()
      return "no error (HTTP \(result.status), \(result.data.count) bytes)"
    } catch {
      return "\(error)"
    }
  }

  private func request(_ url: String, _ method: String, headers: [String: String] = [:], body: String? = nil) -> FetchRequest {
    FetchRequest(url: URL(string: url)!, method: method, headers: headers, body: body.map { Data($0.utf8) })
  }

  @Test("a POST sends its method, its headers and its body byte for byte; no Content-Type it did not name")
  func post() async throws {
    let server = try LoopbackHTTPServer(routes: ["/login": #"{"token":"t"}"#], maxRequests: 2)
    let json = #"{"user":"ada","password":"pä$$ \"quoted\""}"#
    let answer = try await HTTPGet.send(
      request(server.url("/login"), "POST", headers: ["Content-Type": "application/json", "X-Trace": "a\tb"], body: json),
      within: ["127.0.0.1"], maxBytes: 1000, timeout: .seconds(10))
    #expect(answer.status == 200 && String(decoding: answer.data, as: UTF8.self) == #"{"token":"t"}"#)
    let plain = try await HTTPGet.send(request(server.url("/login"), "POST", body: "a=1"), maxBytes: 1000, timeout: .seconds(10))
    #expect(plain.status == 200)
    let received = server.received
    try #require(received.count == 2)
    #expect(received[0].method == "POST" && received[0].path == "/login")
    #expect(received[0].header("Content-Type") == "application/json")
    #expect(received[0].header("X-Trace") == "a\tb")
    #expect(received[0].header("Content-Length") == String(json.utf8.count))
    #expect(received[0].header("Expect") == nil)
    #expect(received[0].body == Data(json.utf8))
    // No form type invented for a body without one.
    #expect(received[1].header("Content-Type") == nil && received[1].body == Data("a=1".utf8))
  }

  @Test("PUT, PATCH and DELETE, with and without a body; a GET stays a GET, with its headers")
  func methods() async throws {
    let server = try LoopbackHTTPServer(routes: ["/r": "ok"], maxRequests: 5)
    for (method, body) in [("PUT", "p"), ("PATCH", "q"), ("DELETE", nil), ("DELETE", "d"), ("GET", nil)] {
      let answer = try await HTTPGet.send(
        request(server.url("/r"), method, headers: ["Authorization": "Bearer k"], body: body), maxBytes: 100, timeout: .seconds(10))
      #expect(answer.status == 200, "\(method)")
    }
    let received = server.received
    #expect(received.map(\.method) == ["PUT", "PATCH", "DELETE", "DELETE", "GET"])
    #expect(received.map { String(decoding: $0.body, as: UTF8.self) } == ["p", "q", "", "d", ""])
    #expect(received.allSatisfy { $0.header("Authorization") == "Bearer k" })
    #expect(received.last?.header("Content-Length") == nil && received.last?.header("Content-Type") == nil)
  }

  @Test("a 303, or a 302 after a POST, becomes a GET without the body or its Content-Type; other headers stay")
  func seeOther() async throws {
    for status in [303, 302, 301] {
      let server = try LoopbackHTTPServer(routes: ["/done": "done"], redirects: ["/form": "/done"], redirectStatus: status, maxRequests: 2)
      let answer = try await HTTPGet.send(
        request(server.url("/form"), "POST", headers: ["Content-Type": "application/json", "Authorization": "Bearer k"], body: "{}"),
        maxBytes: 100, timeout: .seconds(10))
      #expect(String(decoding: answer.data, as: UTF8.self) == "done", "\(status)")
      let received = server.received
      try #require(received.count == 2)
      #expect(received[0].method == "POST" && received[0].body == Data("{}".utf8), "\(status)")
      #expect(received[1].method == "GET" && received[1].body.isEmpty && received[1].header("Content-Type") == nil, "\(status)")
      #expect(received[1].header("Authorization") == "Bearer k", "\(status): same origin keeps credentials")
    }
  }

  @Test("a 307 or 308 repeats the request with its body, on the same origin")
  func temporaryRedirect() async throws {
    for status in [307, 308] {
      let server = try LoopbackHTTPServer(routes: ["/v2": "v2"], redirects: ["/v1": "/v2"], redirectStatus: status, maxRequests: 2)
      let answer = try await HTTPGet.send(
        request(server.url("/v1"), "PUT", headers: ["Content-Type": "text/plain"], body: "keep me"), maxBytes: 100, timeout: .seconds(10))
      #expect(String(decoding: answer.data, as: UTF8.self) == "v2")
      #expect(server.received.map(\.method) == ["PUT", "PUT"])
      #expect(server.received.map { String(decoding: $0.body, as: UTF8.self) } == ["keep me", "keep me"])
    }
  }

  @Test("attack: a 307 to another origin (even a granted one) does not get the body; the fetch fails saying so")
  func bodyToAnotherOrigin() async throws {
    let other = try LoopbackHTTPServer(routes: ["/steal": "stolen"], maxRequests: 1)
    let first = try LoopbackHTTPServer(
      routes: [:], redirects: ["/login": "http://127.0.0.1:\(other.port)/steal"], redirectStatus: 307, maxRequests: 1)
    let reason = await failure {
      try await HTTPGet.send(
        request(first.url("/login"), "POST", body: "password=hunter2"), within: ["127.0.0.1"], maxBytes: 100, timeout: .seconds(10))
    }
    #expect(
      reason == "http://127.0.0.1:\(first.port)/login redirected the POST (HTTP 307) to 127.0.0.1:\(other.port), another origin: its body is not sent there")
    #expect(other.received.isEmpty)
  }

  @Test("attack: a redirect to another origin drops Authorization and Cookie; the grant is checked on every hop after a POST")
  func credentialsAndGrantOnRedirects() async throws {
    let other = try LoopbackHTTPServer(routes: ["/x": "x"], maxRequests: 1)
    let first = try LoopbackHTTPServer(
      routes: [:], redirects: ["/login": "http://127.0.0.1:\(other.port)/x", "/away": "http://localhost:\(other.port)/x"],
      redirectStatus: 303, maxRequests: 2)
    let answer = try await HTTPGet.send(
      request(first.url("/login"), "POST", headers: ["Authorization": "Bearer k", "Cookie": "s=1", "Accept-Language": "fr"], body: "b"),
      within: ["127.0.0.1"], maxBytes: 100, timeout: .seconds(10))
    #expect(String(decoding: answer.data, as: UTF8.self) == "x")
    let seen = try #require(other.received.first)
    #expect(seen.method == "GET" && seen.header("Authorization") == nil && seen.header("Cookie") == nil)
    #expect(seen.header("Accept-Language") == "fr")
    // A 303 after a POST to a host the grant does not list is not followed.
    let reason = await failure {
      try await HTTPGet.send(request(first.url("/away"), "POST", body: "b"), within: ["127.0.0.1"], maxBytes: 100, timeout: .seconds(10))
    }
    #expect(reason.hasSuffix("redirected to localhost:\(other.port), which the net capability does not list (it lists 127.0.0.1)"), "\(reason)")
  }

  @Test("attack: header injection, host headers, bad names and methods are refused before connecting, by Swift and by C alike")
  func refusedBeforeConnecting() async throws {
    let server = try LoopbackHTTPServer(routes: ["/r": "ok"], maxRequests: 1)
    let url = server.url("/r")
    let cases: [(FetchRequest, String)] = [
      (request(url, "POST", headers: ["X-A": "1\r\nX-Injected: 1"]), "a header value may hold no control characters (CR, LF…)"),
      (request(url, "POST", headers: ["X-A": "1\nGET /admin HTTP/1.1"]), "a header value may hold no control characters (CR, LF…)"),
      (request(url, "POST", headers: ["Bad Name": "1"]), "a header name must be a token (letters, digits and !#$%&'*+-.^_`|~)"),
      (request(url, "POST", headers: ["X\r\nY": "1"]), "a header name must be a token (letters, digits and !#$%&'*+-.^_`|~)"),
      (request(url, "POST", headers: ["Host": "evil.example"]), "a header the host sets itself (Host, Content-Length, Transfer-Encoding, Connection, Expect…)"),
      (request(url, "POST", headers: ["content-length": "0"], body: "smuggled"), "a header the host sets itself (Host, Content-Length, Transfer-Encoding, Connection, Expect…)"),
      (request(url, "POST", headers: ["Transfer-Encoding": "chunked"]), "a header the host sets itself (Host, Content-Length, Transfer-Encoding, Connection, Expect…)"),
      (request(url, "POST", headers: ["Proxy-Authorization": "x"]), "a header the host sets itself (Proxy-…)"),
      (request(url, "CONNECT"), "the method must be GET, POST, PUT, PATCH or DELETE"),
      (request(url, "post"), "the method must be GET, POST, PUT, PATCH or DELETE"),
      (request(url, "GET", body: "x"), "a GET sends no body"),
      (request(url, "POST", headers: Dictionary(uniqueKeysWithValues: (0...64).map { ("X-\($0)", "v") })), "more headers than a request may send (64)"),
      (request(url, "POST", headers: ["X-Big": String(repeating: "v", count: 16_400)]), "the headers hold more than 16384 bytes together"),
    ]
    for (bad, problem) in cases {
      #expect(bad.cProblem == problem, "\(bad.headers.keys.sorted().prefix(2)) \(bad.method): C says \(String(describing: bad.cProblem))")
      #expect(await failure { try await HTTPGet.send(bad, maxBytes: 100, timeout: .seconds(10)) } == "the request cannot be sent: \(problem)")
    }
    // Swift's own: NUL (C would cut the line there unseen), two spellings of one name, the body's size.
    #expect(request(url, "POST", headers: ["X-A": "1\u{0}X-B: 2"]).problem() == "a header holds a NUL byte")
    // Always the later name in sorted order, whatever order the dictionary holds them in.
    for _ in 0..<20 {
      #expect(request(url, "POST", headers: ["X-A": "1", "x-a": "2"]).problem() == "the header x-a is given twice (names are case-insensitive)")
    }
    #expect(request(url, "POST", body: "12345").problem(maxBodyBytes: 4) == "the body is 5 bytes; a fetch sends at most 4 (maxFetchBodyBytes)")
    #expect(request(url, "POST", body: "1234").problem(maxBodyBytes: 4) == nil)
    // Every header the kernel calls the host's is refused by C too.
    for name in FetchRequest.hostHeaders {
      #expect(request(url, "POST", headers: [name: "1"]).cProblem != nil, "\(name)")
    }
    #expect(server.received.isEmpty)
  }

  @Test("a slow server still meets the deadline, and cancelling stops a POST")
  func deadlineAndCancel() async throws {
    let server = try LoopbackHTTPServer(routes: [:], dripping: ["/slowly"], maxRequests: 2)
    #expect(await failure {
      try await HTTPGet.send(request(server.url("/slowly"), "POST", body: "b"), maxBytes: 1 << 20, timeout: .milliseconds(300))
    } == "the request did not complete within 0.3 s (the limit is fetchTimeout)")
    let url = server.url("/slowly")
    let task = Task { try await HTTPGet.send(request(url, "POST", body: "b"), maxBytes: 1 << 20, timeout: .seconds(600)) }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }
}
