import Foundation

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
}

extension ScreenFetcher {
  /// Calls ``fetch(_:maxBytes:timeout:)``: a fetcher that connects only where `url` says.
  public func fetch(_ url: URL, within hosts: [String], maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    try await fetch(url, maxBytes: maxBytes, timeout: timeout)
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
}

/// Canned answers by URL: a status and a body, or a failure in words. A URL without an answer
/// fails, naming the URLs that have one.
public struct FakeFetcher: ScreenFetcher {
  /// One canned answer.
  public struct Response: Sendable, Equatable {
    /// The HTTP status.
    public var status: Int
    /// The body.
    public var body: String
    /// A failure instead of an answer (`"timed out"`): the fetch's `fail` action gets it.
    public var error: String?

    /// An answer (`error` given: a failure instead).
    public init(status: Int = 200, body: String = "", error: String? = nil) {
      self.status = status
      self.body = body
      self.error = error
    }
  }

  /// The answers, by URL as the script writes it.
  public var responses: [String: Response]

  /// Creates a fetcher with these answers.
  public init(_ responses: [String: Response]) {
    self.responses = responses
  }

  /// The canned answer (cut off at `maxBytes` as a real one would be: refused).
  public func fetch(_ url: URL, maxBytes: Int, timeout: Duration) async throws -> (data: Data, status: Int) {
    guard let response = responses[url.absoluteString] else {
      throw FakeFetchError(message: "no fake answer for \(url.absoluteString) (answers for: \(responses.keys.sorted().joined(separator: ", ")))")
    }
    if let error = response.error { throw FakeFetchError(message: error) }
    let data = Data(response.body.utf8)
    guard data.count <= maxBytes else {
      throw FakeFetchError(message: "the answer from \(url.absoluteString) is larger than \(maxBytes) bytes (maxFetchBytes)")
    }
    return (data, response.status)
  }
}

/// A fake fetch's failure, in words.
struct FakeFetchError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
