import Foundation
import SendingStateTestSupport
import Testing

@testable import SendingStateLua

/// The bounded GET behind `store:fetch` and payload URLs, against a loopback server.
@Suite("HTTP GET: bounded by size, time and scheme")
struct HTTPGetTests {
  /// The error `work` throws, in words.
  private func failure(_ work: () async throws -> (data: Data, status: Int)) async -> String {
    do {
      let result = try await work()
      return "no error (HTTP \(result.status), \(result.data.count) bytes)"
    } catch {
      return "\(error)"
    }
  }

  @Test("a body and its status arrive whole; an error status is still a response")
  func bodyAndStatus() async throws {
    let server = try LoopbackHTTPServer(routes: ["/a.json": #"{"x": 1}"#], maxRequests: 2)
    let ok = try await HTTPGet.fetch(URL(string: server.url("/a.json"))!, maxBytes: 100, timeout: .seconds(10))
    #expect(String(decoding: ok.data, as: UTF8.self) == #"{"x": 1}"# && ok.status == 200)
    let missing = try await HTTPGet.fetch(URL(string: server.url("/nope"))!, maxBytes: 100, timeout: .seconds(10))
    #expect(missing.status == 404 && String(decoding: missing.data, as: UTF8.self) == "not found")
  }

  @Test("a body at the limit arrives; one byte more is refused (announced length and streamed body)")
  func sizeLimit() async throws {
    let body = String(repeating: "y", count: 2048)
    let server = try LoopbackHTTPServer(routes: ["/big": body], endless: ["/forever"], maxRequests: 3)
    let url = URL(string: server.url("/big"))!
    #expect(try await HTTPGet.fetch(url, maxBytes: 2048, timeout: .seconds(10)).data.count == 2048)
    #expect(await failure { try await HTTPGet.fetch(url, maxBytes: 2047, timeout: .seconds(10)) }
      == "the response is larger than 2047 bytes (the limit is maxFetchBytes)")
    #expect(await failure { try await HTTPGet.fetch(URL(string: server.url("/forever"))!, maxBytes: 4096, timeout: .seconds(10)) }
      == "the response is larger than 4096 bytes (the limit is maxFetchBytes)")
  }

  @Test("a server that drips bytes fails at the deadline, not at its own pace")
  func deadline() async throws {
    let server = try LoopbackHTTPServer(routes: [:], dripping: ["/slowly"], maxRequests: 1)
    let started = ContinuousClock.now
    #expect(await failure { try await HTTPGet.fetch(URL(string: server.url("/slowly"))!, maxBytes: 1 << 20, timeout: .milliseconds(300)) }
      == "the request did not complete within 0.3 s (the limit is fetchTimeout)")
    #expect(ContinuousClock.now - started < .seconds(60))  // a bound, not a timing: the drip never ends
  }

  @Test("cancelling the task stops the transfer")
  func cancellation() async throws {
    let server = try LoopbackHTTPServer(routes: [:], dripping: ["/slowly"], maxRequests: 1)
    let url = URL(string: server.url("/slowly"))!
    let task = Task { try await HTTPGet.fetch(url, maxBytes: 1 << 20, timeout: .seconds(600)) }
    try await Task.sleep(for: .milliseconds(100))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("only http and https, redirects included; at most 5 redirects")
  func schemes() async throws {
    let server = try LoopbackHTTPServer(
      routes: ["/end": "ok"],
      redirects: ["/to-file": "file:///etc/passwd", "/r1": "/r2", "/r2": "/r3", "/r3": "/r4", "/r4": "/r5", "/r5": "/r6", "/r6": "/end",
        "/ok1": "/end"],
      maxRequests: 10)
    #expect(await failure { try await HTTPGet.fetch(URL(string: server.url("/to-file"))!, maxBytes: 100, timeout: .seconds(10)) }
      .hasPrefix("only http and https URLs are fetched"))
    #expect(await failure { try await HTTPGet.fetch(URL(string: "file:///etc/passwd")!, maxBytes: 100, timeout: .seconds(10)) }
      .hasPrefix("only http and https URLs are fetched"))
    #expect(try await String(decoding: HTTPGet.fetch(URL(string: server.url("/ok1"))!, maxBytes: 100, timeout: .seconds(10)).data, as: UTF8.self) == "ok")
    #expect(await failure { try await HTTPGet.fetch(URL(string: server.url("/r1"))!, maxBytes: 100, timeout: .seconds(10)) }
      == "127.0.0.1:\(server.port) redirected more than 5 times")
  }

  @Test("transport failures name the host")
  func transport() async throws {
    #expect(await failure { try await HTTPGet.fetch(URL(string: "http://127.0.0.1:1/x")!, maxBytes: 100, timeout: .seconds(10)) }
      == "could not connect to 127.0.0.1:1 (nothing is listening there)")
    #expect(await failure { try await HTTPGet.fetch(URL(string: "http://no-such-host.invalid/x")!, maxBytes: 100, timeout: .seconds(10)) }
      == "no such host: no-such-host.invalid")
  }

  @Test("bodies in flight count against a budget the fetches share: a fetch that would pass it stops; what it held is given back")
  func budget() async throws {
    let server = try LoopbackHTTPServer(routes: ["/small": "ok"], endless: ["/big"], maxRequests: 4)
    let pool = HTTPGet.Pool(budget: 256 << 10)
    // Its own limit (1 MiB) would let it grow past the pool's 256 KiB: the pool stops it.
    let reason = await failure { try await HTTPGet.fetch(URL(string: server.url("/big"))!, maxBytes: 1 << 20, timeout: .seconds(30), pool: pool) }
    #expect(reason.hasPrefix("the fetches under way would hold more than"), "\(reason)")
    #expect(pool.held == 0)
    let small = try await HTTPGet.fetch(URL(string: server.url("/small"))!, maxBytes: 1 << 20, timeout: .seconds(30), pool: pool)
    #expect(String(decoding: small.data, as: UTF8.self) == "ok")
    #expect(pool.held == 0)
  }
}
