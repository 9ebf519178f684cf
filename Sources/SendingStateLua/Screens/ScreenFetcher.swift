import CFetch
import Foundation
import Synchronization

/// Where a screen's `store:fetch` gets its answers: the network (``NetworkFetcher``, bounded
/// by the runtime's limits), or canned answers (``FakeFetcher``) so specs and tests of fetches
/// are deterministic and need no network.
///
/// ```swift
/// var options = LuaScreen.Options()
/// options.fetcher = FakeFetcher(["https://api.example.com/items": .init(status: 200, body: #"{"items":[]}"#)])
/// ```
public protocol ScreenFetcher: Sendable {
  /// The body and HTTP status of a GET of `url`, at most `maxBytes` long, within `timeout`;
  /// throws an error in words when there is no answer.
  func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int)

  /// The same, connecting only to `hosts` — the net grant of the code that asked
  /// (`api.example.com`, `*.example.com`, `*`, each with an optional `:port`). The screen has
  /// checked `url` against them already; a fetcher that follows redirects must hold every
  /// connection to them too. The default calls ``fetch(_:maxBytes:timeout:)`` (for fetchers
  /// that never connect anywhere else, like ``FakeFetcher``).
  func fetch(_ url: URL, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int)

  /// Sends `request` — its method, headers and body — connecting only to `hosts`, as
  /// ``fetch(_:within:maxBytes:timeout:)`` does. The screen has checked the request
  /// (``FetchRequest/problem(maxBodyBytes:)``). The default sends a plain GET through
  /// ``fetch(_:within:maxBytes:timeout:)`` and refuses anything else in words, so a fetcher
  /// written for GETs only keeps working and never drops a body silently.
  func send(_ request: FetchRequest, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int)

  /// How many seconds of the screen's clock the answer to `request` takes, once sent: the
  /// screen delivers the fetch's ok or fail action only then. A ``VirtualClock``'s advance
  /// passes it like any timer, so a spec sees a slow server's loading state, or a timeout,
  /// without waiting. The default is 0: a real fetcher's time is the network's own.
  func answerDelay(for request: FetchRequest) -> Double
}

extension ScreenFetcher {
  /// No delay beyond the fetch itself.
  public func answerDelay(for request: FetchRequest) -> Double { 0 }

  /// Calls ``fetch(_:maxBytes:timeout:)``: a fetcher that connects only where `url` says.
  public func fetch(_ url: URL, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await fetch(url, maxBytes: maxBytes, timeout: timeout)
  }

  /// A plain GET through ``fetch(_:within:maxBytes:timeout:)``; any other request fails,
  /// naming the fetcher.
  public func send(_ request: FetchRequest, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    guard request.isPlainGet else {
      throw FakeFetchError(message: "\(type(of: self)) sends GETs only, not a \(request.method) with headers or a body (implement send(_:within:maxBytes:timeout:))")
    }
    return try await fetch(request.url, within: hosts, maxBytes: maxBytes, timeout: timeout)
  }
}

/// What `store:fetch` sends: a URL, a method, headers and a body — a GET of the URL unless told
/// otherwise.
///
/// ```swift
/// let login = FetchRequest(
///   url: URL(string: "https://api.example.com/login")!, method: "POST",
///   headers: ["Content-Type": "application/json"], body: Data(#"{"user":"ada"}"#.utf8))
/// ```
public struct FetchRequest: Sendable, Equatable, CustomStringConvertible {
  /// The methods a fetch may use.
  public static let methods: [String] = ["GET", "POST", "PUT", "PATCH", "DELETE"]
  /// The most headers a fetch sends.
  public static let maxHeaders = Int(SSFETCH_MAX_HEADERS)
  /// The most bytes its headers hold together, each counted as name + value + 4.
  public static let maxHeaderBytes = Int(SSFETCH_MAX_HEADER_BYTES)
  /// The headers the host writes itself, lower case (names starting `proxy-` too): a script
  /// that set them could smuggle a second request or reach another virtual host than the one
  /// granted.
  public static let hostHeaders: Set<String> = [
    "host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect",
  ]

  /// Where it goes.
  public var url: URL
  /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
  public var method: String
  /// Header names (RFC 9110 tokens, one spelling each, case aside) and their values (no
  /// control characters but tab). Nothing else is added but what HTTP needs (Host,
  /// Content-Length, User-Agent, Accept): no Content-Type unless given.
  public var headers: [String: String]
  /// The body (`nil`: none; a GET has none).
  public var body: Data?

  /// Creates a request (a GET without headers unless told).
  public init(url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) {
    self.url = url
    self.method = method
    self.headers = headers
    self.body = body
  }

  /// A GET with no headers and no body: what every fetcher can send.
  public var isPlainGet: Bool { method == "GET" && headers.isEmpty && body == nil }

  /// `POST https://api.example.com/login (1 header, 14-byte body)`.
  public var description: String {
    var parts: [String] = []
    if !headers.isEmpty { parts.append(headers.count == 1 ? "1 header" : "\(headers.count) headers") }
    if let body { parts.append("\(body.count)-byte body") }
    return "\(method) \(url.absoluteString)" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
  }

  /// Why the request cannot be sent, in words (`nil`: it can): a method not in ``methods``, a
  /// body on a GET or longer than `maxBodyBytes` (``LuaRuntime/Limits/maxFetchBodyBytes``),
  /// a header name that is not a token or is one of ``hostHeaders``, two spellings of one
  /// name, a value with a control character, more than ``maxHeaders`` headers or
  /// ``maxHeaderBytes`` bytes of them.
  public func problem(maxBodyBytes: Int = .max) -> String? {
    if let body, body.count > maxBodyBytes {
      return "the body is \(body.count) bytes; a fetch sends at most \(maxBodyBytes) (maxFetchBodyBytes)"
    }
    var seen: Set<String> = []
    // In name order, so the same request always names the same header (a dictionary's order
    // differs from one instance to the next).
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
      // (C reads strings up to a NUL: one inside would cut a line short unseen.)
      if name.utf8.contains(0) || value.utf8.contains(0) { return "a header holds a NUL byte" }
      if !seen.insert(name.lowercased()).inserted { return "the header \(name) is given twice (names are case-insensitive)" }
    }
    return cProblem
  }
}

/// The network, through the host's bounded HTTP GET (libcurl: http and https only, at most 5
/// redirects, the body cut off at `maxBytes`; every connection, redirects included, held to
/// the asker's net grant).
public struct NetworkFetcher: ScreenFetcher {
  /// Creates the fetcher.
  public init() {}

  /// A real GET, to any host.
  public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await HTTPGet.fetch(url, within: nil, maxBytes: maxBytes, timeout: timeout)
  }

  /// A real GET whose every connection, redirects included, goes to one of `hosts`.
  public func fetch(_ url: URL, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await HTTPGet.fetch(url, within: hosts, maxBytes: maxBytes, timeout: timeout)
  }

  /// A real request — any method, headers and body — whose every connection, redirects
  /// included, goes to one of `hosts`.
  public func send(_ request: FetchRequest, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await HTTPGet.send(request, within: hosts, maxBytes: maxBytes, timeout: timeout)
  }
}

/// Canned answers by URL: a status and a body, or a failure in words. A URL without an answer
/// fails, naming the URLs that have one. An answer keyed `"POST https://…"` (a method, a space,
/// the URL) answers that method only, before the URL's own.
///
/// Every request it is sent is kept, in order, in ``sent``: a test checks what a screen sent
/// (its method, headers and body) there.
///
/// An answer with a ``Response/delay`` arrives that many seconds of the screen's clock after the
/// request is sent; on a ``VirtualClock`` the test moves time on itself:
///
/// ```swift
/// let clock = VirtualClock()
/// var options = LuaScreen.Options()
/// options.clock = clock
/// options.fetcher = FakeFetcher(["https://api.example.com/items": .init(body: "[]", delay: 2)])
/// let screen = try LuaScreen(path: "items.lua", options: options)
/// // … tap "load": the screen shows its spinner …
/// try await screen.advance(by: 2)   // the answer arrives
/// ```
public struct FakeFetcher: ScreenFetcher {
  /// One canned answer.
  public struct Response: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: String
    /// A failure instead of an answer (`"timed out"`): the fetch's `fail` action gets it.
    public var error: String?
    /// Seconds of the screen's clock between sending the request and its answer (or its
    /// failure) arriving; 0: at once. Held to twice the runtime's `maxEffectDelay`.
    public var delay: Double

    /// An answer (`error` given: a failure instead) that arrives `delay` seconds after it is
    /// asked for.
    public init(status: Int = 200, body: String = "", error: String? = nil, delay: Double = 0) {
      self.status = status
      self.body = body
      self.error = error
      self.delay = delay
    }
  }

  /// The answers, by URL as the script writes it.
  public var responses: [String: Response]

  /// The requests sent to it, in order (shared by its copies).
  public let sent = SentRequests()

  /// Creates a fetcher with these answers.
  public init(_ responses: [String: Response]) {
    self.responses = responses
  }

  /// The canned answer to a GET (cut off at `maxBytes` as a real one would be: refused).
  public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await send(FetchRequest(url: url), within: ["*"], maxBytes: maxBytes, timeout: timeout)
  }

  /// The ``Response/delay`` of the answer `request` gets (0 when it has none).
  public func answerDelay(for request: FetchRequest) -> Double {
    response(to: request)?.delay ?? 0
  }

  /// The canned answer for `request`'s method and URL, else for its URL.
  private func response(to request: FetchRequest) -> Response? {
    responses["\(request.method) \(request.url.absoluteString)"] ?? responses[request.url.absoluteString]
  }

  /// Keeps `request` in ``sent`` and gives its canned answer: the one for its method and URL,
  /// else the one for its URL.
  public func send(_ request: FetchRequest, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    sent.append(request)
    let url = request.url
    guard let response = response(to: request) else {
      let what = request.method == "GET" ? url.absoluteString : "\(request.method) \(url.absoluteString)"
      guard !responses.isEmpty else {
        throw FakeFetchError(message: "offline: \(what) was not fetched (no answers are given, so every fetch fails)")
      }
      throw FakeFetchError(message: "no fake answer for \(what) (answers for: \(responses.keys.sorted().joined(separator: ", ")))")
    }
    if let error = response.error { throw FakeFetchError(message: error) }
    let data = Data(response.body.utf8)
    guard data.count <= maxBytes else {
      throw FakeFetchError(message: "the answer from \(url.absoluteString) is larger than \(maxBytes) bytes (maxFetchBytes)")
    }
    return (data, response.status)
  }
}

extension FakeFetcher {
  /// The requests a ``FakeFetcher`` was sent, in order; safe from any thread.
  ///
  /// Bounded: the last 1,000 requests, and fewer when their bodies and headers hold more than
  /// 4 MiB together (a screen that re-posts from its own answer must not grow it without end);
  /// the newest request is always kept.
  public final class SentRequests: Sendable {
    private let requests = Mutex<(list: [FetchRequest], bytes: Int)>(([], 0))
    static let maxCount = 1_000
    static let maxBytes = 4 << 20

    /// Creates an empty log.
    public init() {}

    /// The requests kept.
    public var all: [FetchRequest] { requests.withLock { $0.list } }

    /// Keeps one more, dropping the oldest past the bounds.
    public func append(_ request: FetchRequest) {
      requests.withLock { log in
        log.list.append(request)
        log.bytes += Self.size(request)
        var dropped = 0
        while log.list.count - dropped > 1, log.list.count - dropped > Self.maxCount || log.bytes > Self.maxBytes {
          log.bytes -= Self.size(log.list[dropped])
          dropped += 1
        }
        log.list.removeFirst(dropped)
      }
    }

    /// What a request holds, in bytes (its URL, headers and body).
    static func size(_ request: FetchRequest) -> Int {
      request.url.absoluteString.utf8.count + (request.body?.count ?? 0)
        + request.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }
  }
}

/// A fake fetch's failure, in words.
struct FakeFetchError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
